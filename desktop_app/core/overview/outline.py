"""A document's outline: where each section starts (page and character offset) and how deep it sits.

In order of preference: the file's own table of contents (a PDF's or EPUB's outline, read with pymupdf's
`get_toc`); the headings of a Word or HTML file (the import stored each heading's section as a numbered
"page", sections.py); headings detected from the type (a PDF line set larger than the body text, a
Markdown "#" line); and, with none of those, runs of pages. Nothing here reads words for their meaning, so
it works in any language and script.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ..document_overview import DETECTED, HEADINGS, PAGE_RUNS, PDF_OUTLINE
from ..places import OPENING

PAGES_PER_RUN = 10  # without any heading, a section stands for this many pages
HEADING_SIZE_RATIO = 1.15  # a line at least this much larger than the body text is a heading
MAX_HEADING_CHARS = 120
MAX_HEADING_LEVELS = 3
# A "heading" repeated on this many pages is a running head or a footer, not a section.
REPEATS_OF_A_RUNNING_HEAD = 3
_MARKDOWN_HEADING = re.compile(r"^(#{1,6})[ \t]+(\S.*?)[ \t#]*$", re.MULTILINE)


@dataclass(frozen=True)
class OutlineEntry:
    level: int  # 1 for the top level
    title: str
    page: int
    start: int = 0  # where the section begins in that page's stored text


@dataclass(frozen=True)
class Outline:
    source: str  # PDF_OUTLINE, HEADINGS, DETECTED or PAGE_RUNS (core/document_overview.py)
    entries: tuple[OutlineEntry, ...]


def heading_at(title: str, text: str, start: int = 0) -> int:
    """Where a heading's words start in a page's text, from `start` (any spacing or punctuation between them); -1 if absent."""
    words = re.findall(r"\w+", title)
    if not words:
        return -1
    match = re.compile(r"\W*".join(re.escape(w) for w in words), re.IGNORECASE).search(text, start)
    return match.start() if match else -1


def find_heading(title: str, text: str) -> int:
    """Where a heading starts on its page; 0 (the top) when its words are not found there."""
    return max(0, heading_at(title, text))


def read_outline(path: Path, pages: Mapping[int, str], sections: Mapping[int, str | None], title: str) -> Outline:
    """The outline of a stored document. `pages`: page (or section) number -> stored text; `sections`: the
    Word/HTML heading of each stored section (None on real pages)."""
    if any(label is not None for label in sections.values()):
        return _section_outline(path, pages, sections)
    suffix = path.suffix.lower()
    if suffix in (".pdf", ".epub") and path.exists():
        entries = _toc_entries(path, pages)
        if entries:
            return Outline(PDF_OUTLINE, entries)
        if suffix == ".pdf":
            entries = _detected_pdf_headings(path, pages)
            if entries:
                return Outline(DETECTED, entries)
    if len(pages) == 1:
        entries = _markdown_headings(pages)
        if entries:
            return Outline(DETECTED, entries)
    return Outline(PAGE_RUNS, _page_runs(pages, title))


def _section_outline(path: Path, pages: Mapping[int, str], sections: Mapping[int, str | None]) -> Outline:
    """Word and HTML: the file's headings with their levels, each found in the stored section it opens (a
    chapter heading with nothing under it shares its first subsection's text); one entry per stored section
    when the file cannot be read again. The text before the first heading is an entry when it has any."""
    entries = list(_file_headings(path, pages))
    if not entries:
        entries = [OutlineEntry(1, label, number, 0) for number in sorted(pages) if (label := sections.get(number))]
    first = min(pages, default=1)
    if pages.get(first, "").strip() and not sections.get(first):
        entries.insert(0, OutlineEntry(1, OPENING, first, 0))
    return Outline(HEADINGS, tuple(entries))


def _file_headings(path: Path, pages: Mapping[int, str]) -> list[OutlineEntry]:
    from ..ingest.extraction import SECTIONED
    from ..ingest.sections import Heading

    read = SECTIONED.get(path.suffix.lower())
    if read is None or not path.exists():
        return []
    try:
        _, blocks = read(path)
    except Exception:  # changed or damaged since its import: one entry per stored section stands in
        return []
    numbers = sorted(pages)
    entries: list[OutlineEntry] = []
    at, cursor = 0, 0  # the stored section being read, and where in its text
    for block in blocks:
        if not isinstance(block, Heading) or block.level < 1:
            continue
        # Headings come in the order of the stored sections: look in this one, then the next two.
        for step in range(3):
            if at + step >= len(numbers):
                break
            number = numbers[at + step]
            found = heading_at(block.text, pages[number], cursor if step == 0 else 0)
            if found >= 0:
                entries.append(OutlineEntry(block.level, " ".join(block.text.split()), number, found))
                at, cursor = at + step, found + 1
                break
    top = min((e.level for e in entries), default=1)
    return [OutlineEntry(e.level - top + 1, e.title, e.page, e.start) for e in entries]


def _toc_entries(path: Path, pages: Mapping[int, str]) -> tuple[OutlineEntry, ...]:
    import pymupdf  # late: only the overview builder needs it here

    try:
        with pymupdf.open(path) as doc:
            toc = doc.get_toc(simple=True)
    except Exception:  # a file changed or damaged since its import: the detected headings or page runs stand in
        return ()
    entries: list[OutlineEntry] = []
    for level, heading, page in toc:
        heading = " ".join(str(heading).split())
        if page < 1 or page not in pages or not re.search(r"\w", heading):
            continue  # an entry pointing nowhere (pymupdf says -1) or to a page the import did not keep
        # The contents are in reading order: a heading on the page of the one before it is looked for after that one.
        # Looked for from the top, "Vectors" (2.1.1 of R-lang.pdf) was found at the word in a sentence above "2.1 Basic
        # types" and went before its own parent, which then lost it and counted its subsections wrong.
        # Not found there: where the one before it starts (the page's top when it is the page's first).
        after = entries[-1].start if entries and entries[-1].page == page else 0
        entries.append(OutlineEntry(max(1, int(level)), heading, int(page), max(after, heading_at(heading, pages[page], after))))
    return tuple(sorted(entries, key=lambda e: (e.page, e.start)))


def _detected_pdf_headings(path: Path, pages: Mapping[int, str]) -> tuple[OutlineEntry, ...]:
    """Lines set clearly larger than the body text, each level a size (largest first)."""
    import pymupdf

    lines: list[tuple[int, float, str]] = []  # page, size, text
    sizes: Counter[float] = Counter()  # characters set in each size: the commonest is the body text
    try:
        with pymupdf.open(path) as doc:
            for page in doc:
                for block in page.get_text("dict", flags=0)["blocks"]:
                    previous: tuple[int, float, str] | None = None
                    for line in block.get("lines", ()):
                        spans = [s for s in line["spans"] if s["text"].strip()]
                        if not spans:
                            continue
                        size = round(max(s["size"] for s in spans) * 2) / 2
                        text = " ".join(" ".join(s["text"] for s in spans).split())
                        sizes[size] += len(text)
                        if previous is not None and previous[1] == size:  # a heading set on two lines is one heading
                            previous = (previous[0], size, f"{previous[2]} {text}")
                            lines[-1] = previous
                            continue
                        previous = (page.number + 1, size, text)
                        lines.append(previous)
    except Exception:
        return ()
    if not sizes:
        return ()
    body = sizes.most_common(1)[0][0]
    candidates = [(p, s, t) for p, s, t in lines if s >= body * HEADING_SIZE_RATIO and len(t) <= MAX_HEADING_CHARS and re.search(r"[^\W\d_]", t)]
    repeated = Counter(t for _, _, t in candidates)
    candidates = [(p, s, t) for p, s, t in candidates if repeated[t] < REPEATS_OF_A_RUNNING_HEAD and p in pages]
    if len(candidates) < 2:
        return ()
    levels = {size: min(rank, MAX_HEADING_LEVELS) for rank, size in enumerate(sorted({s for _, s, _ in candidates}, reverse=True), start=1)}
    entries = [OutlineEntry(levels[s], t, p, find_heading(t, pages[p])) for p, s, t in candidates]
    return tuple(sorted(entries, key=lambda e: (e.page, e.start)))


def _markdown_headings(pages: Mapping[int, str]) -> tuple[OutlineEntry, ...]:
    (number, text), = pages.items()
    found = [OutlineEntry(len(m.group(1)), m.group(2).strip(), number, m.start()) for m in _MARKDOWN_HEADING.finditer(text)]
    return tuple(found) if len(found) >= 2 else ()


def _page_runs(pages: Mapping[int, str], title: str) -> tuple[OutlineEntry, ...]:
    numbers = sorted(n for n, text in pages.items() if text.strip())
    if not numbers:
        return ()
    if numbers[-1] - numbers[0] < PAGES_PER_RUN:
        return (OutlineEntry(1, title, numbers[0], 0),)
    entries = []
    for first in range(numbers[0], numbers[-1] + 1, PAGES_PER_RUN):
        last = min(first + PAGES_PER_RUN - 1, numbers[-1])
        if any(first <= n <= last for n in numbers):
            entries.append(OutlineEntry(1, f"Pages {first}–{last}", first, 0))
    return tuple(entries)
