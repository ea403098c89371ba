"""Page text built from pymupdf's word list, so a character span maps back to word boxes for highlighting.

Both the importer and the page viewer call `page_words`: the same words, in the same order,
give the same offsets.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PageWords:
    text: str
    # One entry per word: (start, end, (x0, y0, x1, y1)) in page coordinates.
    words: tuple[tuple[int, int, tuple[float, float, float, float]], ...]


def page_words(page, textpage=None) -> PageWords:
    raw = page.get_text("words", textpage=textpage) if textpage is not None else page.get_text("words")
    parts: list[str] = []
    words = []
    pos = 0
    last_block = last_line = None
    for x0, y0, x1, y1, word, block, line, _ in raw:
        if parts:
            sep = "\n\n" if block != last_block else ("\n" if line != last_line else " ")
            parts.append(sep)
            pos += len(sep)
        parts.append(word)
        words.append((pos, pos + len(word), (x0, y0, x1, y1)))
        pos += len(word)
        last_block, last_line = block, line
    return PageWords("".join(parts), tuple(words))


def span_boxes(layout: PageWords, start: int, end: int) -> list[tuple[float, float, float, float]]:
    """Boxes of the words that overlap [start, end): what the viewer highlights."""
    return [box for s, e, box in layout.words if s < end and e > start]
