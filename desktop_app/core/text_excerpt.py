"""A cited passage in its document's text, for files that have no page image (Word, HTML, EPUB, text files):
the page or section it sits on, with the end of the one before and the start of the one after, and where
the passage lies in that text so the window highlights it and scrolls to it.

Read from the library's stored text (the same text the chunk offsets point into), not from the file,
which may have moved or changed since.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

from .places import TABLE, place_label, place_of
from .storage.store import Store
from .types import Citation, PageText, Passage

CONTEXT_CHARS = 2000  # of the page or section before and after the cited one


@dataclass(frozen=True)
class TextExcerpt:
    file: str
    text: str
    start: int  # the passage's span in `text`; start == end when it cannot be placed
    end: int
    place: str  # "section 3.2 Warranty", "page 4"
    notice: str = ""  # why the highlight may be missing or the text is the quoted passage alone

    @property
    def highlighted(self) -> str:
        return self.text[self.start : self.end]


def _heading(page: PageText) -> str:
    """A line naming a page, between pages; a section's text starts with its own heading."""
    return "" if page.section is not None else f"— page {page.number} —\n\n"


def _tail(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    cut = text.find(" ", len(text) - limit)
    return "…" + text[cut if cut != -1 else len(text) - limit :].lstrip()


def _head(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    cut = text.rfind(" ", 0, limit)
    return text[: cut if cut > 0 else limit].rstrip() + " …"


def _span_in(page: PageText, cited: Citation | Passage) -> tuple[int, int] | None:
    """Where the passage lies in its stored page, checked against the cited text: a file imported again since
    may have moved it (then it is looked for by its text), or dropped it (None).

    Compared word by word, whatever the spaces between: a quote is its sentence with single spaces, while the
    page keeps the line breaks of its layout (a PDF's or an EPUB's lines break inside sentences)."""
    start, end = cited.start, cited.end
    words = cited.text.split()
    if 0 <= start < end <= len(page.text):
        if cited.kind == TABLE or page.text[start:end].split() == words:
            return start, end  # a table chunk repeats its header, so its text is not its span's
    found = re.search(r"\s+".join(map(re.escape, words)), page.text) if words else None
    return found.span() if found else None


def passage_excerpt(store: Store, cited: Citation | Passage, context_chars: int = CONTEXT_CHARS) -> TextExcerpt:
    name = Path(cited.file).name
    place = place_of(cited)
    alone = TextExcerpt(cited.file, cited.text, 0, len(cited.text), place)
    stored = store.document_by_path(cited.file)
    if stored is None:
        return replace(alone, notice=f"{name} is no longer in the library; the passage as it was cited")
    pages = {p.number: p for p in store.pages_between(stored[0].id, cited.page - 1, cited.page + 1)}
    page = pages.get(cited.page)
    if page is None:
        return replace(alone, notice=f"{name} has changed since this answer; the passage as it was cited")
    before, after = pages.get(cited.page - 1), pages.get(cited.page + 1)
    parts: list[str] = []
    if before is not None:
        parts += [_heading(before), _tail(before.text, context_chars), "\n\n"]
    parts.append(_heading(page))
    offset = sum(len(p) for p in parts)
    parts.append(page.text)
    if after is not None:
        parts += ["\n\n", _heading(after), _head(after.text, context_chars)]
    text = "".join(parts)
    span = _span_in(page, cited)
    if span is None:
        notice = f"{name} has changed since this answer; the cited passage is no longer in it"
        return TextExcerpt(cited.file, text, offset, offset, place_label(page.number, section=page.section), notice)
    return TextExcerpt(cited.file, text, offset + span[0], offset + span[1], place)
