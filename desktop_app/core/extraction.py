"""Read a file's text page by page: PDF through pymupdf, plain text and Markdown as one page.

Each failure raises an ImportFailed subclass that says what is wrong with this file and
what to do; the importer reports it and goes on with the next file.
"""

from __future__ import annotations

import os
import shutil
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from .errors import GarbledText, ImportFailed, NoTextLayer, NotADocument, PasswordProtected
from .page_text import page_words
from .types import PageText

PDF_SUFFIXES = {".pdf"}
TEXT_SUFFIXES = {".txt", ".md", ".markdown"}
SUPPORTED_SUFFIXES = PDF_SUFFIXES | TEXT_SUFFIXES
# Text layers this unreadable are unmapped fonts, not words worth indexing.
GARBLED_SHARE = 0.3
# Guards memory on giant scanned pages: OCR renders at this resolution at most.
OCR_DPI = 200
# Below this many pages, starting worker processes costs more than it saves.
PARALLEL_MIN_PAGES = 200


@dataclass(frozen=True)
class ExtractedDocument:
    title: str
    pages: list[PageText]
    page_count: int
    notices: tuple[str, ...] = ()


def is_supported(path: Path) -> bool:
    return path.suffix.lower() in SUPPORTED_SUFFIXES


def garbled_share(text: str) -> float:
    """Share of characters that are private-use, replacement or control characters."""
    visible = [c for c in text if not c.isspace()]
    if not visible:
        return 0.0
    bad = sum(1 for c in visible if c == "\ufffd" or unicodedata.category(c) in ("Co", "Cc", "Cs", "Cn"))
    return bad / len(visible)


def ocr_available() -> bool:
    return shutil.which("tesseract") is not None


def worker_count(setting: int = 0) -> int:
    """Extraction processes: the setting, or one per core (at most 4: memory grows with each)."""
    return setting if setting > 0 else max(1, min(4, os.cpu_count() or 1))


def page_ranges(page_count: int, parts: int) -> list[tuple[int, int]]:
    """Split pages 0..page_count into at most `parts` contiguous (start, stop) ranges of near-equal size."""
    parts = max(1, min(parts, page_count))
    size, extra = divmod(page_count, parts)
    ranges, start = [], 0
    for i in range(parts):
        stop = start + size + (1 if i < extra else 0)
        ranges.append((start, stop))
        start = stop
    return [r for r in ranges if r[1] > r[0]]


def extract(path: Path, password: str | None = None, workers: int = 1) -> ExtractedDocument:
    """`workers` > 1 reads the pages of a long PDF in that many processes (pymupdf is not thread-safe)."""
    try:
        if path.suffix.lower() in TEXT_SUFFIXES:
            return _extract_text_file(path)
        if path.suffix.lower() in PDF_SUFFIXES:
            return _extract_pdf(path, password, workers)
    except OSError as exc:
        raise ImportFailed(f"{path.name} could not be read ({exc.strerror or exc})", hint="Check that the file exists and you may read it.") from exc
    raise NotADocument(f"{path.name} is not a PDF, .txt or .md file")


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


def _page_texts(path: str, password: str | None, start: int, stop: int) -> list[str]:
    """Runs in a worker process: the text of pages start..stop-1 of one PDF."""
    import pymupdf

    with pymupdf.open(path) as doc:
        if doc.needs_pass:
            doc.authenticate(password or "")
        return [page_words(doc.load_page(i)).text for i in range(start, stop)]


def _parallel_page_texts(path: Path, password: str | None, page_count: int, workers: int) -> list[str]:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    ranges = page_ranges(page_count, workers)
    # spawn, not fork: the window's threads (and llama.cpp's) must not be forked mid-flight.
    with ProcessPoolExecutor(max_workers=len(ranges), mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = [pool.submit(_page_texts, str(path), password, start, stop) for start, stop in ranges]
        return [text for future in futures for text in future.result()]


def _extract_pdf(path: Path, password: str | None, workers: int = 1) -> ExtractedDocument:
    import pymupdf

    with open(path, "rb") as f:
        head = f.read(1024)
    if not head:
        raise NotADocument(f"{path.name} is empty", hint="There is nothing to import.")
    if b"%PDF" not in head:
        raise NotADocument(f"{path.name} is not a PDF (it has a .pdf name but other contents)")
    try:
        doc = pymupdf.open(path)
    except Exception as exc:  # pymupdf raises several types for damaged files
        raise NotADocument(f"{path.name} is damaged and cannot be opened ({exc})", hint="Try re-saving or re-downloading it.") from exc
    with doc:
        if doc.needs_pass:
            if not password:
                raise PasswordProtected(f"{path.name} is password protected")
            if not doc.authenticate(password):
                raise PasswordProtected(f"The password for {path.name} is wrong")
        title = (doc.metadata or {}).get("title") or path.stem
        pages: list[PageText] = []
        empty: list[int] = []
        garbled = 0
        index = 0
        try:
            texts = None
            if workers > 1 and doc.page_count >= PARALLEL_MIN_PAGES:
                try:
                    texts = _parallel_page_texts(path, password, doc.page_count, workers)
                except Exception:
                    texts = None  # a worker failed (or processes are unavailable): read here, where a bad page is named
            for index in range(doc.page_count):
                text = texts[index] if texts is not None else page_words(doc.load_page(index)).text
                if not text.strip():
                    empty.append(index)
                    pages.append(PageText(index + 1, ""))
                    continue
                if garbled_share(text) > GARBLED_SHARE:
                    garbled += 1
                    pages.append(PageText(index + 1, ""))
                    continue
                pages.append(PageText(index + 1, text))
        except Exception as exc:
            raise NotADocument(f"{path.name} is damaged (page {index + 1} cannot be read: {exc})", hint="Try re-saving or re-downloading it.") from exc
        notices: list[str] = []
        if empty and ocr_available():
            pages = _ocr_pages(doc, pages, empty)
            notices.append(f"text of {len(empty)} page(s) came from OCR")
        page_count = doc.page_count
    with_text = sum(1 for p in pages if p.text.strip())
    if with_text == 0:
        if garbled:
            raise GarbledText(f"{path.name}: the text of {garbled} of {page_count} pages extracts as garbage (unmapped fonts)")
        raise NoTextLayer(f"{path.name}: no text layer on {page_count} of {page_count} pages; scanned document")
    if empty and not ocr_available():
        notices.append(f"{len(empty)} of {page_count} pages have no text layer (scanned); install tesseract for OCR")
    if garbled:
        notices.append(f"{garbled} of {page_count} pages were skipped: their text extracts as garbage")
    return ExtractedDocument(title=title, pages=pages, page_count=page_count, notices=tuple(notices))


def _ocr_pages(doc, pages: list[PageText], indexes: list[int]) -> list[PageText]:
    out = list(pages)
    for index in indexes:
        page = doc.load_page(index)
        try:
            textpage = page.get_textpage_ocr(dpi=OCR_DPI, full=True)
        except Exception:
            continue  # OCR failing on one page leaves that page empty, not the document
        text = page_words(page, textpage=textpage).text
        if text.strip():
            out[index] = PageText(index + 1, text, ocr=True)
    return out
