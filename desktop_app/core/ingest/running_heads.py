"""Running headers and footers: the lines repeated at the top or bottom of the pages ("Chapter 5: Arrays and
matrices", "25", "Page 3 of 12") are not the text of the page, and glued to a passage they mislead the search
and the reader ("29 6 Lists and data frames").

They are blanked, not cut: each of their characters becomes a space, so every other character keeps its offset,
and a passage's [start, end) still finds its words on the rendered page (page_text.span_boxes).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

from ..types import PageText

EDGE_LINES = 2  # a running line is among the first or the last two lines of a page
# A repeated text line is running when it sits at the same edge of at least this many pages: a chapter's
# header repeats on each of its pages, so "most pages" of the whole document is too strict for it.
MIN_REPEATS = 3
MIN_PAGES = 4  # fewer pages give too little evidence to tell a running line from the text
_NUMBER = re.compile(r"^(?:page\s+)?(?:\d{1,4}|[ivxlcdm]{1,7})(?:\s+of\s+\d{1,4})?$", re.IGNORECASE)
_LINE = re.compile(r"[^\n]+")


def _shape(line: str) -> str:
    """A line with its numbers made alike: "Chapter 5: Arrays 25" and "Chapter 5: Arrays 26" have one shape."""
    return re.sub(r"\d+", "#", " ".join(line.split()).lower())


def _edges(text: str) -> list[tuple[str, int, int]]:
    """The edge lines of a page: (where, start, end) with where "top" or "bottom"; a line is never both."""
    spans = [(m.start(), m.end()) for m in _LINE.finditer(text) if m.group().strip()]
    top = spans[:EDGE_LINES]
    bottom = [s for s in spans[-EDGE_LINES:] if s not in top]
    return [("top", s, e) for s, e in top] + [("bottom", s, e) for s, e in bottom]


def is_page_number(line: str) -> bool:
    return bool(_NUMBER.match(" ".join(line.split())))


def _is_running_text(shape: str) -> bool:
    """Worth counting as a header: words, not a lone brace or a short code line."""
    return len(re.findall(r"[a-z]{2,}", shape)) >= 2 and len(shape) >= 8


def blank_running_lines(pages: list[PageText]) -> tuple[list[PageText], int]:
    """The pages with their running headers and footers blanked, and how many lines were blanked."""
    with_text = [p for p in pages if p.text.strip()]
    if len(with_text) < MIN_PAGES:
        return pages, 0
    counts: Counter[tuple[str, str]] = Counter()
    numbers = Counter()
    for page in with_text:
        seen = set()
        for where, start, end in _edges(page.text):
            line = page.text[start:end]
            if is_page_number(line):
                numbers[where] += 1
            seen.add((where, _shape(line)))
        counts.update(seen)
    # Bare page numbers are running when most pages have one at that edge.
    numbered = {where for where, n in numbers.items() if n * 2 >= len(with_text)}
    running = {key for key, n in counts.items() if n >= MIN_REPEATS and _is_running_text(key[1])}
    blanked = 0
    out = []
    for page in pages:
        text = page.text
        for where, start, end in _edges(page.text):
            line = page.text[start:end]
            if (where in numbered and is_page_number(line)) or (where, _shape(line)) in running:
                text = text[:start] + " " * (end - start) + text[end:]
                blanked += 1
        out.append(page if text == page.text else replace(page, text=text))
    return out, blanked
