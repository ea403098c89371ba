"""Word (.docx) files through python-docx: paragraphs, headings and tables in document order, as blocks
that sections.py groups under their headings.

Headings are paragraphs in a heading style ("Heading 1".."Heading 9", or a style based on one, or with an
outline level); "Title" counts as the top heading. Content controls (w:sdt) are read through, except a
table of contents, whose lines would repeat every heading with a page number. Page headers, footers and
comments are left out, as a PDF's running headers would be noise in every passage.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from ..errors import ImportFailed, NotADocument
from .sections import Block, Heading, Paragraph, TableBlock

_HEADING_STYLE = re.compile(r"^heading\s*(\d)$", re.IGNORECASE)
DAMAGED_HINT = "Open it in Word or LibreOffice and save it again as .docx."


def read_docx(path: Path) -> tuple[str, list[Block]]:
    """(title, blocks) of a Word file; raises NotADocument when it is not a readable .docx."""
    import docx

    try:
        document = docx.Document(str(path))
    except Exception as exc:  # python-docx raises PackageNotFoundError, KeyError, BadZipFile, XMLSyntaxError...
        raise NotADocument(f"{path.name} is damaged or not a Word document, and cannot be opened", hint=DAMAGED_HINT) from exc
    try:
        title = (document.core_properties.title or "").strip() or path.stem
        blocks = list(_blocks(document, document.element.body))
    except ImportFailed:
        raise
    except Exception as exc:  # a part of the file that python-docx cannot parse
        raise NotADocument(f"{path.name} is damaged: its text cannot be read ({type(exc).__name__})", hint=DAMAGED_HINT) from exc
    return title, blocks


def _blocks(document, container) -> Iterator[Block]:
    from docx.oxml.ns import qn
    from docx.table import Table
    from docx.text.paragraph import Paragraph as WordParagraph

    for child in container.iterchildren():
        if child.tag == qn("w:p"):
            paragraph = WordParagraph(child, document)
            level = heading_level(paragraph)
            if level is not None:
                yield Heading(level, paragraph.text)
            else:
                yield Paragraph(paragraph.text)
        elif child.tag == qn("w:tbl"):
            yield TableBlock(_table_rows(Table(child, document)))
        elif child.tag == qn("w:sdt"):
            content = child.find(qn("w:sdtContent"))
            if content is not None and not _is_table_of_contents(child):
                yield from _blocks(document, content)


def heading_level(paragraph) -> int | None:
    """1..9 for a heading, 0 for the document's title, None for body text."""
    from docx.oxml.ns import qn

    style = paragraph.style
    for _ in range(5):  # a custom style based on a heading style is a heading too
        if style is None:
            break
        name = (style.name or "").strip()
        if name.lower() == "title":
            return 0
        match = _HEADING_STYLE.match(name)
        if match:
            return int(match.group(1))
        style = style.base_style
    # A heading made by direct formatting: an outline level on the paragraph itself (0 is level 1).
    properties = paragraph._p.pPr
    outline = properties.find(qn("w:outlineLvl")) if properties is not None else None
    if outline is not None:
        value = outline.get(qn("w:val"))
        if value is not None and value.isdigit() and int(value) < 9:
            return int(value) + 1
    return None


def _table_rows(table) -> tuple[tuple[str, ...], ...]:
    rows = []
    for row in table.rows:
        cells, seen = [], set()
        for cell in row.cells:
            if id(cell._tc) in seen:  # a merged cell is returned once per grid column it spans
                continue
            seen.add(id(cell._tc))
            cells.append(cell.text)
        rows.append(tuple(cells))
    return tuple(rows)


def _is_table_of_contents(sdt) -> bool:
    from docx.oxml.ns import qn

    properties = sdt.find(qn("w:sdtPr"))
    if properties is None:
        return False
    gallery = properties.find(f"{qn('w:docPartObj')}/{qn('w:docPartGallery')}")
    return gallery is not None and "contents" in (gallery.get(qn("w:val")) or "").lower()
