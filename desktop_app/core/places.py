"""Where a cited passage sits, as every view names it: the chat, the fused-passages table, the CLI, --json and
the Markdown export all call these, so a citation reads the same everywhere.

"page 3", "table on page 3" (PDF, EPUB, text files), "section 3.2 Warranty", "table in section 3.2 Warranty"
(Word and HTML files, which have no pages: a passage sits under a heading).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

TABLE = "table"
TEXT = "text"
# The section label of text before a document's first heading.
OPENING = "start of the document"


class Placed(Protocol):
    """A Passage or a Citation: anything with a page, a kind and maybe a section."""

    file: str
    page: int
    kind: str
    section: str | None


def place_label(page: int, kind: str = TEXT, section: str | None = None) -> str:
    """ "page 3", "table on page 3", "section 3.2 Warranty" or "table in section 3.2 Warranty"."""
    if section is not None:
        where = f"section {section}" if section else OPENING
        return f"table in {where}" if kind == TABLE else where
    return f"table on page {page}" if kind == TABLE else f"page {page}"


def place_of(cited: Placed) -> str:
    return place_label(cited.page, cited.kind, getattr(cited, "section", None))


def citation_label(cited: Placed) -> str:
    """ "report.docx, section 3.2 Warranty": the file's name and the place."""
    return f"{Path(cited.file).name}, {place_of(cited)}"


def short_place(cited: Placed) -> str:
    """For narrow columns: "p. 3", "table p. 3", "§ 3.2 Warranty", "table § 3.2 Warranty"."""
    section = getattr(cited, "section", None)
    if section is not None:
        where = f"§ {section}" if section else "start"
    else:
        where = f"p. {cited.page}"
    return f"table {where}" if cited.kind == TABLE else where


def also_label(places: Sequence[Placed]) -> str:
    """ "also in copy.pdf, page 3; notes.pdf, page 7": the same text's other places (Source.also); "" when none."""
    return "also in " + "; ".join(citation_label(p) for p in places) if places else ""
