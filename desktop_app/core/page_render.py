"""A PDF page as a PNG image with a passage highlighted: what the window's page view shows.

The highlight boxes come from `page_text.page_words`, the same words the importer used,
so a chunk's character span lands on the words it was cut from.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .errors import AppError
from .ingest.page_text import page_words, span_boxes

HIGHLIGHT_RGB = (1.0, 0.85, 0.1)


@dataclass(frozen=True)
class RenderedPage:
    png: bytes
    page: int  # 1-based
    page_count: int
    highlighted: int  # number of word boxes highlighted
    # Top of the first highlighted box as a fraction of the page height, so the view can scroll to it.
    highlight_top: float | None = None


def render_page(
    path: str | Path,
    page: int,
    start: int | None = None,
    end: int | None = None,
    zoom: float = 1.5,
    bbox: tuple[float, float, float, float] | None = None,
) -> RenderedPage:
    """Render 1-based `page` of a PDF; the words of character span [start, end) get a yellow highlight.

    A table chunk passes its `bbox` instead: the whole table area is highlighted, grid and empty cells too.
    """
    import pymupdf

    path = Path(path)
    if not path.is_file():
        raise AppError(f"{path.name} is no longer at {path.parent}", hint="Move it back or import it again.")
    if path.suffix.lower() != ".pdf":
        raise AppError(f"{path.name} is a text file, so there is no page image", hint="The passage is shown in the table.")
    try:
        doc = pymupdf.open(path)
    except Exception as exc:
        raise AppError(f"{path.name} could not be opened ({exc})", hint="Check that the file is a readable PDF.") from exc
    with doc:
        if not 1 <= page <= doc.page_count:
            raise AppError(f"{path.name} has no page {page}", hint="The file changed since it was imported; import it again.")
        pdf_page = doc[page - 1]
        boxes = []
        if bbox is not None:
            boxes = [bbox]
        elif start is not None and end is not None and end > start:
            boxes = span_boxes(page_words(pdf_page), start, end)
        for box in boxes:
            annot = pdf_page.add_highlight_annot(pymupdf.Rect(box))
            annot.set_colors(stroke=HIGHLIGHT_RGB)
            annot.update()
        pixmap = pdf_page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), annots=True)
        top = min(b[1] for b in boxes) / pdf_page.rect.height if boxes else None
        return RenderedPage(pixmap.tobytes("png"), page, doc.page_count, len(boxes), top)
