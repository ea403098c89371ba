"""OCR of pages without a usable text layer, through pymupdf's Tesseract binding, in bounded memory."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Sequence

from ..types import PageText
from .page_text import page_words

# OCR renders at this resolution, but never above OCR_MAX_PIXELS: a 35000x35000 scan must not become a 1.6 GB pixmap.
OCR_DPI = 200
OCR_MAX_PIXELS = 12_000_000
OCR_MIN_DPI = 10
OCR_HINT = "Install tesseract for OCR (Debian/Ubuntu: apt install tesseract-ocr) and import it again"


def ocr_available() -> bool:
    # pymupdf carries the Tesseract engine; the tesseract-ocr package brings the language data it needs.
    return shutil.which("tesseract") is not None


def ocr_dpi(page) -> int:
    """The OCR resolution for a page: OCR_DPI, lowered so the rendered page stays under OCR_MAX_PIXELS."""
    width_in = max(page.rect.width, 1.0) / 72
    height_in = max(page.rect.height, 1.0) / 72
    fitting = int((OCR_MAX_PIXELS / (width_in * height_in)) ** 0.5)
    return max(OCR_MIN_DPI, min(OCR_DPI, fitting))


def ocr_pages(doc, pages: Sequence[PageText], indexes: Sequence[int], looks_garbled: Callable[[str], bool]) -> tuple[list[PageText], set[int]]:
    """Pages with OCR text in place of the given (0-based) indexes; returns them and the indexes that got text."""
    out = list(pages)
    done: set[int] = set()
    for index in sorted(indexes):
        try:
            page = doc.load_page(index)
            textpage = page.get_textpage_ocr(dpi=ocr_dpi(page), full=True)
            text = page_words(page, textpage=textpage).text
        except Exception:
            continue  # OCR failing on one page leaves that page empty, not the document
        if text.strip() and not looks_garbled(text):
            out[index] = PageText(index + 1, text, ocr=True)
            done.add(index)
    return out, done
