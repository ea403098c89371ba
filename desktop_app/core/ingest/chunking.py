"""Cut page text into overlapping chunks that end at sentence boundaries and remember their span."""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..types import ChunkDraft, PageText

# About 200 MiniLM word pieces: all-MiniLM-L6-v2 reads at most 256, so nothing is cut off.
DEFAULT_MAX_CHARS = 900
DEFAULT_OVERLAP_CHARS = 150
# Latin-style stops end a sentence before a space; the full-width stops of Chinese and Japanese text end one where
# they stand, as no space follows them.
_SENTENCE_END = re.compile(r"(?<=[.!?;:\u17d4\u104b])[\"')\]]*\s+|(?<=[\u3002\uff01\uff1f\uff1b\uff1a])[\u300d\u300f\uff09\u201d\u2019]*\s*|\n\s*\n")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence-like piece, whitespace excluded."""
    spans = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        spans.append((start, match.start()))
        start = match.end()
    spans.append((start, len(text)))
    out = []
    for s, e in spans:
        while s < e and text[s].isspace():
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        if e > s:
            out.append((s, e))
    return out


def _split_long(text: str, start: int, end: int, max_chars: int) -> list[tuple[int, int]]:
    """A sentence longer than a chunk is cut at whitespace."""
    pieces = []
    while end - start > max_chars:
        cut = text.rfind(" ", start + max_chars // 2, start + max_chars)
        if cut <= start:
            cut = start + max_chars
        pieces.append((start, cut))
        start = cut
        while start < end and text[start].isspace():
            start += 1
    if end > start:
        pieces.append((start, end))
    return pieces


def chunk_page(page: PageText, max_chars: int = DEFAULT_MAX_CHARS, overlap: int = DEFAULT_OVERLAP_CHARS) -> list[ChunkDraft]:
    text = page.text
    units: list[tuple[int, int]] = []
    for s, e in sentence_spans(text):
        units.extend(_split_long(text, s, e, max_chars))
    chunks: list[ChunkDraft] = []
    i = 0
    while i < len(units):
        j = i
        while j + 1 < len(units) and units[j + 1][1] - units[i][0] <= max_chars:
            j += 1
        start, end = units[i][0], units[j][1]
        chunks.append(ChunkDraft(page=page.number, start=start, end=end, text=text[start:end]))
        if j + 1 >= len(units):
            break
        # Start the next chunk with the last sentences of this one that fit in the overlap.
        nxt = j + 1
        while nxt - 1 > i and units[j][1] - units[nxt - 1][0] <= overlap:
            nxt -= 1
        i = nxt
    return chunks


def chunk_pages(pages: Iterable[PageText], max_chars: int = DEFAULT_MAX_CHARS, overlap: int = DEFAULT_OVERLAP_CHARS) -> list[ChunkDraft]:
    out: list[ChunkDraft] = []
    for page in pages:
        out.extend(chunk_page(page, max_chars, overlap))
    return out
