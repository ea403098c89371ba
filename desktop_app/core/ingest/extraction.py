"""Read a file's text page by page: PDF and EPUB through pymupdf, plain text and Markdown as one page,
Word and HTML as sections under their headings (sections.py; they have no pages).

Each failure raises an ImportFailed subclass that says what is wrong with this file and
what to do; the importer reports it and goes on with the next file.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..errors import GarbledText, ImportFailed, NotADocument, NoTextLayer, PasswordProtected, UnsupportedFormat
from ..formats import PAGE, SECTION, suffixes, unsupported_message
from ..types import ChunkDraft, PageText
from ..wording import counted
from .html_files import read_html
from .ocr import OCR_DPI, OCR_HINT, OCR_MAX_PIXELS, ocr_available, ocr_dpi, ocr_pages  # noqa: F401 - part of this module's API
from .page_text import page_words
from .pdf_tables import page_tables
from .running_heads import blank_running_lines
from .sections import Block, build_sections
from .word_files import read_docx

PDF_SUFFIXES = {".pdf"}
EPUB_SUFFIXES = {".epub"}
TEXT_SUFFIXES = {".txt", ".md", ".markdown"}
# Read by `extract` (the table formats, CSV and Excel, by table_files.py); all of them are listed in formats.py.
SUPPORTED_SUFFIXES = set(suffixes(PAGE) | suffixes(SECTION))
# Text layers this unreadable are unmapped fonts, not words worth indexing.
GARBLED_SHARE = 0.3
# Unmapped fonts often come out as ASCII punctuation ('"7+%-'); real text, even a table of numbers, is mostly letters and digits.
SYMBOL_SHARE = 0.5


@dataclass(frozen=True)
class ExtractedDocument:
    title: str
    pages: list[PageText]
    page_count: int
    notices: tuple[str, ...] = ()
    tables: tuple[ChunkDraft, ...] = ()  # ruled tables as Markdown table chunks (tables.page_tables)
    unit: str = PAGE  # what `pages` are: "page", or "section" for Word and HTML files


def is_supported(path: Path) -> bool:
    """A file `extract` reads (every format but the tables, which table_files.py reads)."""
    return path.suffix.lower() in SUPPORTED_SUFFIXES


def garbled_share(text: str) -> float:
    """Share of characters that are private-use, replacement, control or unassigned characters."""
    visible = [c for c in text if not c.isspace()]
    if not visible:
        return 0.0
    bad = sum(1 for c in visible if c == "\ufffd" or unicodedata.category(c) in ("Co", "Cc", "Cs", "Cn"))
    return bad / len(visible)


def symbol_share(text: str) -> float:
    """Share of visible characters that are neither letters nor digits.

    Dot leaders (". . . . 12" in tables of contents and indexes) are dropped first, and any other run of
    one repeated character counts once: such pages are mostly dots yet perfectly readable.
    """
    without_leaders = re.sub(r"(?:[.\u00b7\u2026_-] ?){3,}", " ", text)
    visible = [c for c in re.sub(r"(\S)\1{2,}", r"\1", without_leaders) if not c.isspace()]
    if not visible:
        return 0.0
    return sum(1 for c in visible if not c.isalnum()) / len(visible)


def looks_garbled(text: str) -> bool:
    """True when a text layer is mostly characters no font maps to words."""
    return garbled_share(text) > GARBLED_SHARE or symbol_share(text) > SYMBOL_SHARE


def extract(path: Path, password: str | None = None) -> ExtractedDocument:
    suffix = path.suffix.lower()
    try:
        if suffix in TEXT_SUFFIXES:
            return _extract_text_file(path)
        if suffix in PDF_SUFFIXES:
            return _extract_pdf(path, password)
        if suffix in EPUB_SUFFIXES:
            return _extract_epub(path)
        if suffix in SECTIONED:
            return _extract_sections(path, SECTIONED[suffix])
    except OSError as exc:
        raise ImportFailed(f"{path.name} could not be read ({exc.strerror or exc})", hint="Check that the file exists and you may read it.") from exc
    raise UnsupportedFormat(*unsupported_message(path))


def _extract_sections(path: Path, read: Callable[[Path], tuple[str, list[Block]]]) -> ExtractedDocument:
    """A Word or HTML file: its sections stored as pages, its tables as table chunks."""
    if path.stat().st_size == 0:
        raise NotADocument(f"{path.name} is empty", hint="There is nothing to import.")
    title, blocks = read(path)
    sections = build_sections(blocks)
    if not any(p.text.strip() for p in sections.pages):
        raise NotADocument(f"{path.name} has no text", hint="There is nothing to import.")
    return ExtractedDocument(title=title, pages=sections.pages, page_count=len(sections.pages), tables=tuple(sections.tables), unit=SECTION)


def _extract_epub(path: Path) -> ExtractedDocument:
    """An EPUB laid out into pages by pymupdf (its default page size), read like a PDF's pages but never OCR'd:
    a page without text is a picture in a book, not a scan."""
    if path.stat().st_size == 0:
        raise NotADocument(f"{path.name} is empty", hint="There is nothing to import.")
    with _open_with_pymupdf(path, "epub", "Try re-downloading it, or export it again from the program that made it.") as doc:
        if doc.needs_pass:
            raise PasswordProtected(f"{path.name} is locked (DRM)", hint="Only EPUB books without copy protection can be imported.")
        if doc.page_count == 0:
            raise NotADocument(f"{path.name} has no pages", hint="There is nothing to import.")
        return _read_pages(doc, path, _title(doc, path), scans=False)


# Word and HTML: readers that turn a file into blocks (headings, paragraphs, tables).
SECTIONED: dict[str, Callable[[Path], tuple[str, list[Block]]]] = {".docx": read_docx, ".html": read_html, ".htm": read_html}


def _extract_text_file(path: Path) -> ExtractedDocument:
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    text = text.replace("\r\n", "\n")
    if not text.strip():
        raise NotADocument(f"{path.name} is empty", hint="There is nothing to import.")
    return ExtractedDocument(title=path.stem, pages=[PageText(1, text)], page_count=1)


def _open_with_pymupdf(path: Path, filetype: str, hint: str):
    import pymupdf

    try:
        return pymupdf.open(path, filetype=filetype)
    except Exception as exc:  # pymupdf raises several types for damaged files
        raise NotADocument(f"{path.name} is damaged and cannot be opened", hint=hint) from exc


def _extract_pdf(path: Path, password: str | None) -> ExtractedDocument:
    with open(path, "rb") as f:
        head = f.read(1024)
    if not head:
        raise NotADocument(f"{path.name} is empty", hint="There is nothing to import.")
    if b"%PDF" not in head:
        raise NotADocument(f"{path.name} is not a PDF (it has a .pdf name but other contents)")
    with _open_with_pymupdf(path, "pdf", "Try re-saving or re-downloading it.") as doc:
        if doc.needs_pass:
            if not password:
                raise PasswordProtected(f"{path.name} is password protected")
            if not doc.authenticate(password):
                raise PasswordProtected(f"The password for {path.name} is wrong", hint="Enter the right password, or skip it.")
        if doc.page_count == 0:
            raise NotADocument(f"{path.name} is damaged: it has no readable pages", hint="Try re-saving or re-downloading it.")
        title = _title(doc, path)
        return _read_pages(doc, path, title)


def _title(doc, path: Path) -> str:
    try:
        return ((doc.metadata or {}).get("title") or "").strip() or path.stem
    except Exception:  # a damaged info dictionary must not cost the document
        return path.stem


def _read_pages(doc, path: Path, title: str, scans: bool = True) -> ExtractedDocument:
    """Each page is text, garbled, blank or image-only (scanned); OCR fills the last two kinds when it can.

    `scans` False (an EPUB): a page without text is blank, whatever pictures it holds, and nothing is OCR'd.
    """
    page_count = doc.page_count
    pages = [PageText(i + 1, "") for i in range(page_count)]
    scanned: list[int] = []
    garbled: list[int] = []
    broken: list[int] = []
    drawn: list[int] = []  # the subset of scanned pages with no image: text drawn as curves
    tables: list[ChunkDraft] = []
    for index in range(page_count):
        try:
            page = doc.load_page(index)
            layout = page_words(page)
            text = layout.text
            if not text.strip():
                if page.get_text().strip():
                    garbled.append(index)  # characters exist, but none that form words (control codes)
                else:
                    marks = _marks(page) if scans else ""
                    if marks:
                        scanned.append(index)
                        if marks == "drawings":
                            drawn.append(index)
                continue
            if looks_garbled(text):
                garbled.append(index)
                continue
            pages[index] = PageText(index + 1, text)
        except Exception:  # one unreadable page is reported, the rest of the document still imports
            broken.append(index)
            continue
        try:
            tables.extend(page_tables(page, layout))
        except Exception:  # the table finder failing on a page costs only that page's table chunks, not its text
            pass
    ocr_done: set[int] = set()
    if (scanned or garbled) and scans and ocr_available():
        pages, ocr_done = ocr_pages(doc, pages, scanned + garbled, looks_garbled)
    # Running headers and footers blanked in place: the offsets of everything else stay those of page_words.
    pages, _ = blank_running_lines(pages)
    notices: list[str] = []
    if ocr_done:
        notices.append(f"text of {len(ocr_done)} of {counted(page_count, 'page')} came from OCR")
    with_text = sum(1 for p in pages if p.text.strip())
    scanned_left = [i for i in scanned if i not in ocr_done]
    garbled_left = [i for i in garbled if i not in ocr_done]
    if with_text == 0:
        if broken and not scanned and not garbled:
            raise NotADocument(f"{path.name} is damaged: none of its {counted(page_count, 'page')} can be read", hint="Try re-saving or re-downloading it.")
        if garbled_left and len(garbled_left) >= len(scanned_left):
            raise GarbledText(
                f"{path.name}: the text of {len(garbled_left)} of {counted(page_count, 'page')} extracts as garbage (fonts without a character map)",
                hint=None if ocr_available() else f"{OCR_HINT}, or export it again as a text PDF",
            )
        if scanned_left:
            if ocr_available():
                raise NoTextLayer(
                    f"{path.name}: no text found on {len(scanned_left)} of {counted(page_count, 'page')}, even with OCR",
                    hint="The scan may be too faint or not contain text.",
                )
            kind = "its text is drawn as shapes" if set(scanned_left) <= set(drawn) else "scanned document"
            raise NoTextLayer(f"{path.name}: no text layer on {len(scanned_left)} of {counted(page_count, 'page')}: {kind}", hint=OCR_HINT)
        raise NotADocument(f"{path.name} has no text: {'its one page is' if page_count == 1 else f'its {page_count} pages are'} blank", hint="There is nothing to import.")
    if scanned_left:
        tail = "; install tesseract for OCR" if not ocr_available() else " (OCR found no text)"
        notices.append(f"{len(scanned_left)} of {counted(page_count, 'page')} have no text layer (scanned){tail}")
    if garbled_left:
        notices.append(f"{len(garbled_left)} of {counted(page_count, 'page')} were skipped: their text extracts as garbage")
    if broken:
        notices.append(f"{len(broken)} of {counted(page_count, 'page')} could not be read and were skipped")
    return ExtractedDocument(title=title, pages=pages, page_count=page_count, notices=tuple(notices), tables=tuple(tables))


def _marks(page) -> str:
    """What an empty text layer sits over: "images" (a scan), "drawings" (text drawn as curves), or "" (blank). OCR reads the first two."""
    try:
        if page.get_images(full=False):
            return "images"
        return "drawings" if page.get_drawings() else ""
    except Exception:
        return "images"
