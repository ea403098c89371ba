"""Cut page text into overlapping chunks that end at sentence boundaries and remember their span."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable

from ..types import ChunkDraft, PageText, Passage
from ..word_pieces import word_count

# About 200 MiniLM word pieces: all-MiniLM-L6-v2 reads at most 256, so nothing is cut off.
DEFAULT_MAX_CHARS = 900
DEFAULT_OVERLAP_CHARS = 150
_FULL_STOPS = frozenset(".!?;\u2026\u3002\uff01\uff1f\uff1b\u061f\u0964\u17d4\u104b")  # what ends a sentence, in Latin, CJK, Arabic, Devanagari, Khmer and Burmese text
_COLONS = ":\uff1a"  # a piece ending in one introduces what follows, however short: "Report faults to:", "Returns:"
_CLOSING = "\"')]\u00bb\u201d\u2019"  # closing quotes and brackets after a full stop
LEAD_IN_WORDS = 4  # a piece of this many words or more, ending in a word before a blank line, introduces what follows
_OPENERS = {"(": ")", "[": "]", "{": "}", "\uff08": "\uff09", "\u3010": "\u3011"}
_CLOSERS = {close: open_ for open_, close in _OPENERS.items()}
_OPENER = re.compile("[" + re.escape("".join(_OPENERS)) + "]")
MAX_BRACKETED_CHARS = 600  # a sentence joined over a stop inside brackets is at most this long: a bracket never closed opens no run
# Latin-style stops end a sentence before a space; the full-width stops of Chinese and Japanese text end one where
# they stand, as no space follows them.
_SENTENCE_END = re.compile(r"(?<=[.!?;:\u17d4\u104b])[\"')\]]*\s+|(?<=[\u3002\uff01\uff1f\uff1b\uff1a])[\u300d\u300f\uff09\u201d\u2019]*\s*|\n\s*\n")
# A list item: a line opened by a bullet or a number ("- ", "• ", "3. ", "2) "); it runs to a blank line or the next item.
_LIST_ITEM = re.compile(r"^[^\S\n]*(?:[-*\u2022\u25e6\u25aa\u2023\u2013]|\d{1,3}[.)])[^\S\n]+\S", re.M)
_BLANK_LINE = re.compile(r"\n[^\S\n]*\n")
ITEM_CHARS = 400  # an item this long or shorter is read whole (the evidence's longest sentence); a longer one, sentence by sentence
# A semicolon joins two clauses of one sentence, the second often leaving out what the first says ("a slope of 0.4 for
# floors; for radiators, 1.0"): it ends a sentence only before a capital, as the Greek question mark, written ";", does.
_CLAUSE_JOINERS = ";\uff1b"


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence-like piece, whitespace excluded."""
    spans = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        if text[match.start() - 1] in _CLAUSE_JOINERS and match.group().count("\n") < 2 and not text[match.end() : match.end() + 1].isupper():
            continue
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


def bracket_balance(piece: str) -> tuple[list[str], int]:
    """The brackets a piece leaves open, innermost last, and how many it closes that it did not open (as "1)" does)."""
    stack: list[str] = []
    unopened = 0
    for c in piece:
        if c in _OPENERS:
            stack.append(c)
        elif c in _CLOSERS:
            if stack and stack[-1] == _CLOSERS[c]:
                stack.pop()
            else:
                unopened += 1
    return stack, unopened


def _open_brackets(piece: str) -> list[str]:
    return bracket_balance(piece)[0]


def bracketed_spans(text: str) -> list[tuple[int, int]]:
    """`sentence_spans`, with a piece that leaves a bracket open joined to the pieces after it up to the one closing it:
    the splitter cut at a stop inside brackets ("(e.g. ...)", "(approx. 3 m)", a web address broken after "https://CRAN."),
    and each half read as a fragment (".), the former ..."), in any script. Not over a blank line, and not past
    MAX_BRACKETED_CHARS: a bracket that is never closed joins nothing."""
    pieces = sentence_spans(text)
    if not _OPENER.search(text):  # most passages: nothing to join (and this runs for every passage read)
        return pieces
    # Where each piece's text ends: at the next piece, so the closers the splitter left between them count
    # ("(If it sees this, it stops.)" closes its bracket).
    until = [p[0] for p in pieces[1:]] + [len(text)]
    out: list[tuple[int, int]] = []
    i = 0
    while i < len(pieces):
        start, end = pieces[i]
        j = i
        while _OPENER.search(text, start, until[j]) and (left_open := len(_open_brackets(text[start : until[j]]))):
            k = j + 1  # the first piece after that closes one of them ("(c." "1500 to c." "1600)")
            while k < len(pieces) and pieces[k][1] - start <= MAX_BRACKETED_CHARS and "\n\n" not in re.sub(r"[ \t]+", "", text[pieces[k - 1][1] : pieces[k][0]]):
                if len(_open_brackets(text[start : until[k]])) < left_open:
                    break
                k += 1
            else:
                break
            j, end = k, pieces[k][1]
        out.append((start, end))
        i = j + 1
    return out


def reading_spans(text: str) -> list[tuple[int, int, bool]]:
    """The sentences as they are read (evidence, highlights, overviews): `bracketed_spans` with each lead-in joined to
    the piece after it. The splitter cuts at a colon and at a blank line, so
    "The kit comes in three sizes:" and "To reset the pump, type in a terminal" stood apart from the list or command
    they introduce: each half said nothing without the other, in any language. A lead-in is a piece ending in a colon,
    however short (a label: "Returns:"), or one of LEAD_IN_WORDS or more ending in a word before a blank line; it takes
    one piece. Each span comes with whether it is a label with its value."""
    out: list[tuple[int, int, bool]] = []
    joining = labelled = False
    pieces = list(reversed(bracketed_spans(text)))
    while pieces:
        start, end = pieces.pop()
        if joining:
            joining = False
            value, label = _value_and_next_label(text, start, end) if labelled else (end, None)
            out[-1] = (out[-1][0], value, labelled)
            if label is not None:
                pieces.append((label, end))
            elif (joined := text[start:value].rstrip(_CLOSING)) and joined[-1] in _COLONS:
                joining = True  # a value that itself leads in ("Function: f (x):" and what f does): it takes the next piece too
            continue
        out.append((start, end, False))
        piece = text[start:end].rstrip(_CLOSING)
        labelled = bool(piece) and piece[-1] in _COLONS
        joining = labelled or (bool(piece) and piece[-1] not in _FULL_STOPS and word_count(piece) >= LEAD_IN_WORDS)
    return _items_whole(text, out)


def _items_whole(text: str, spans: list[tuple[int, int, bool]]) -> list[tuple[int, int, bool]]:
    """The spans with each short list item's joined into one: an item's later sentences are about what its first names
    ("- queueLimit <number> Largest number of jobs waiting ... Default: 64."; "• The lid ... It opens at 60 °C."), so
    read apart, "Default: 64." or "It opens at 60 °C." told no reader, and no check, whose value it is. Items are
    told by their shape (a line's opening mark), in any language."""
    marks, items = _list_items(text)
    if not marks:  # most passages: nothing to join
        return spans
    out: list[tuple[int, int, bool]] = []
    for start, end, labelled in spans:
        item = _item_at(marks, items, start)
        if out and item is not None and item[0] < out[-1][1] and end <= item[1]:  # the span before reaches into the item ("1.", cut off its line)
            out[-1] = (out[-1][0], end, out[-1][2] or labelled)
        else:
            out.append((start, end, labelled))
    return out


def _list_items(text: str) -> tuple[list[int], list[tuple[int, int] | None]]:
    """Where each list item starts, and its (start, end) when it is short enough to be read whole (None when longer)."""
    marks = [m.start() for m in _LIST_ITEM.finditer(text)]
    items: list[tuple[int, int] | None] = []
    for start, stop in zip(marks, [*marks[1:], len(text)]):
        blank = _BLANK_LINE.search(text, start, stop)
        end = len(text[: blank.start() if blank else stop].rstrip())
        items.append((start, end) if end - start <= ITEM_CHARS else None)
    return marks, items


def _item_at(marks: list[int], items: list[tuple[int, int] | None], start: int) -> tuple[int, int] | None:
    """The short item (`_list_items`) holding the position `start`, if one does."""
    return items[bisect.bisect_right(marks, start) - 1] if start >= marks[0] else None


def _items_as_units(text: str, units: list[tuple[int, int]], max_chars: int) -> list[tuple[int, int]]:
    """The chunker's units with the sentences of each short list item made one: a chunk, or the overlap that starts the
    next one, never begins or ends inside an item. Started inside one, a chunk's first sentences were an item's last
    ("See the note on limits. Default: 64."), without the option they are about, and a reader of that chunk alone (the
    model, a check) could not tell whose default it was."""
    marks, items = _list_items(text)
    if not marks:
        return units
    out: list[tuple[int, int]] = []
    for start, end in units:
        item = _item_at(marks, items, start)
        if out and item is not None and item[1] - item[0] <= max_chars and item[0] <= out[-1][0] < start and end <= item[1]:
            out[-1] = (out[-1][0], end)  # the unit before starts in the same item
        else:
            out.append((start, end))
    return out


def _value_and_next_label(text: str, start: int, end: int) -> tuple[int, int | None]:
    """Where the piece after a label (a lead-in ending in a colon) ends, and where the next label starts if it holds one. In a list of
    "Label: value" lines ("Power: 1450 W", "Capacité du réservoir : 1,8 litre") the splitter's piece after a label runs
    on to the next label ("1450 W\nVoltage:"): its last line, ending in a colon, is that label, which leads in to the
    value after it and is not joined to the value before it."""
    piece = text[start:end].rstrip(_CLOSING)
    line_break = text.rfind("\n", start, end)
    if line_break < 0 or not piece or piece[-1] not in _COLONS:
        return end, None
    value_end, label = line_break, line_break + 1
    while value_end > start and text[value_end - 1].isspace():
        value_end -= 1
    while label < end and text[label].isspace():
        label += 1
    return (value_end, label) if value_end > start else (end, None)


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
    for s, e in bracketed_spans(text):  # a chunk never ends inside brackets: its last sentence would be half of one
        units.extend(_split_long(text, s, e, max_chars))
    units = _items_as_units(text, units, max_chars)
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


def passage_sentences(passage: Passage) -> list[str]:
    """A passage's sentences as the app reads them everywhere (quotes, highlights: reading_spans above): the lines a
    PDF wrapped one sentence over joined, a label with its value. A table's rows each under its header row, as a row
    means nothing without it ("| K-2 | 7 | 20 |" says no pressure); a table cut from its header, whole."""
    if passage.kind == "table":
        lines = [line for line in passage.text.splitlines() if line.strip()]
        if len(lines) > 2 and not lines[1].strip(" |:-"):  # a Markdown table: header, |---|, rows
            return [f"{lines[0]} {row}" for row in lines[2:]]
        return [" ".join(passage.text.split())]
    return [" ".join(passage.text[s:e].split()) for s, e, _ in reading_spans(passage.text)]
