"""Repeated boilerplate: a legal notice page after every chapter, a disclaimer block, a letterhead or a footer
block on each page. Such a passage shares a question's words without saying anything about them, like an index
(navigation_text.py), and is handled the same way: the importer marks it (chunks.navigation), it stays in the
library and its keyword search, and it is kept out of the vector index and the fused passages.

It is recognised by REPETITION INSIDE ITS DOCUMENT, never by words, so this works in any language and script.
Two lines are the same when their shapes are (case-folded, whitespace collapsed, every number standing apart one
placeholder, so "Page 3 of 40" and "Page 4 of 40" are one shape; a number inside a name is the name's, so the
"Tile8Grid" and "Tile16Grid" items of a reference differ); a line with no letter (a number, a brace of code) never
counts, as a column of figures repeats its shape everywhere. In Word and HTML files a "page" is a section.
A line is boilerplate when the document repeats it widely or wholesale:
- widely: it is on at least REPEATED_PAGES pages and at least WIDESPREAD_SHARE of them (a footer, a letterhead);
- wholesale: it is on at least REPEATED_PAGES pages, and so is nearly all of its page (BOILERPLATE_SHARE of the
  page's visible characters): a notice page printed after each chapter of a long book is on a few pages of
  hundreds, but the whole page is a copy. A code example shown three times in a manual is not: its pages differ.
A passage is boilerplate when nearly all (BOILERPLATE_SHARE) of its visible characters are on boilerplate lines.
The numbers on those lines count as the passage's own text, as they are what differs between copies: a batch of
invoices on one template (letterhead, labels, products, footer) keeps its customers, dates and amounts, and is
not boilerplate. Boilerplate surrounds content: in a document more than MAX_DOCUMENT_SHARE of whose text would
be boilerplate, the repetition is the document's form (a report per town on one template, the same table for
each year), what differs is its content, and nothing is marked. A document of fewer than REPEATED_PAGES pages
has none.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .types import ChunkDraft, PageText

# A line on two pages is a coincidence (a heading and its mention, two similar list items); boilerplate is on three or more.
REPEATED_PAGES = 3
# A line on at least this share of the pages is repeated widely: a running footer or letterhead is on nearly every
# page; a quarter leaves room for one that changes with the chapter or is left off the chapter openings.
WIDESPREAD_SHARE = 0.25
# "Nearly all": the share of visible characters on repeated lines (their numbers left out) that makes a page a copy
# and a passage boilerplate. A notice page is a copy but for a line (its chapter's name, its page number). Below it:
# a content passage with a repeated heading or a footer glued to it; a filled-in template (an invoice of a batch:
# about 85% template, its customer and numbers its own); a reference manual's page of argument descriptions that
# related functions share (about two-thirds copy).
BOILERPLATE_SHARE = 0.9
# Above this share of a document's visible characters on boilerplate lines, the document is a filled-in template
# and keeps all its passages: a notice after each chapter or a footer block on each page is a small part of a book.
MAX_DOCUMENT_SHARE = 0.5
_NUMBER = re.compile(r"\d+")
_NUMBER_APART = re.compile(r"(?<![^\W\d_])\d+(?![^\W\d_])")  # not inside a word: "Page 3", not "Tile8Grid"
_LETTER = re.compile(r"[^\W\d_]")  # a letter in any script
_LINE = re.compile(r"[^\n]+")

Spans = list[tuple[int, int]]  # (start, end) of lines in a page's text


def line_shape(line: str) -> str:
    """What makes two lines the same: case, spacing and the numbers standing apart in them do not."""
    return _NUMBER_APART.sub("#", " ".join(line.casefold().split()))


def _shaped_lines(text: str) -> list[tuple[int, int, str]]:
    """(start, end, shape) of each line of a page's text that has a letter."""
    return [(m.start(), m.end(), line_shape(m.group())) for m in _LINE.finditer(text) if _LETTER.search(m.group())]


def _visible(text: str) -> int:
    return len("".join(text.split()))


def _visible_but_numbers(text: str) -> int:
    return len(_NUMBER.sub("", "".join(text.split())))


def covered_share(text: str, start: int, end: int, spans: Sequence[tuple[int, int]]) -> float:
    """The share of the visible characters of text[start:end] that lie inside the spans, but for their numbers
    (what differs between copies of a repeated line)."""
    visible = _visible(text[start:end])
    if not visible:
        return 0.0
    return sum(_visible_but_numbers(text[max(s, start) : min(e, end)]) for s, e in spans if s < end and e > start) / visible


def boilerplate_lines(pages: Mapping[int, str]) -> dict[int, Spans]:
    """For each page (number: text) of one document, where its boilerplate lines are (see the module's docstring)."""
    if len(pages) < REPEATED_PAGES:
        return {}
    lines = {number: _shaped_lines(text) for number, text in pages.items()}
    counts = Counter(shape for page_lines in lines.values() for shape in {line[2] for line in page_lines})
    widespread_pages = max(REPEATED_PAGES, math.ceil(WIDESPREAD_SHARE * sum(1 for page_lines in lines.values() if page_lines)))
    out: dict[int, Spans] = {}
    covered = 0.0
    for number, page_lines in lines.items():
        spans = [(start, end) for start, end, shape in page_lines if counts[shape] >= REPEATED_PAGES]
        text = pages[number]
        share = covered_share(text, 0, len(text), spans) if spans else 0.0
        if share < BOILERPLATE_SHARE:  # not a copied page: only its widely repeated lines
            spans = [(start, end) for start, end, shape in page_lines if counts[shape] >= widespread_pages]
            share = covered_share(text, 0, len(text), spans) if spans else 0.0
        if spans:
            out[number] = spans
            covered += share * _visible(text)
    if covered > MAX_DOCUMENT_SHARE * sum(_visible(text) for text in pages.values()):
        return {}  # a filled-in template: its repetition is its form
    return out


def boilerplate_passages(pages: Mapping[int, str], passages: Sequence[tuple[int, int, int]]) -> list[bool]:
    """For each passage (page number, start, end) of the document whose pages' texts are `pages`: is it
    mostly boilerplate lines?"""
    lines = boilerplate_lines(pages)
    return [page in lines and covered_share(pages[page], start, end, lines[page]) >= BOILERPLATE_SHARE for page, start, end in passages]


def mark_boilerplate(pages: Sequence[PageText], drafts: Sequence[ChunkDraft]) -> list[ChunkDraft]:
    """The drafts, with their text passages that are boilerplate marked so (ChunkDraft.boilerplate)."""
    flags = boilerplate_passages({p.number: p.text for p in pages}, [(d.page, d.start, d.end) for d in drafts])
    return [replace(d, boilerplate=True) if flag and d.kind == "text" else d for d, flag in zip(drafts, flags)]
