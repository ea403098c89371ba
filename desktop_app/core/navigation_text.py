"""Navigation text: index entries, table-of-contents lines, dot leaders and page-number lists.

Every real manual has an index and a table of contents. Their passages share a question's words ("attach . . .
28, 148") without saying anything about them, and used to top the fused list. They are recognised by their SHAPE,
never by words, so this works in any language and script:
- dot leaders: runs of spaced or unspaced dots (or ellipsis or middle-dot characters) between an entry and its page;
- lines that end in a page reference: a number or a comma-separated list of numbers after a word;
- lines that are nothing but a list of such numbers (an index whose page lists the extractor put on lines of their own).
A passage most of whose lines are like that, or a fair share of whose characters are leaders, is navigation.
The importer marks such passages (chunks.navigation): they stay in the library and its keyword search, and are
kept out of the vector index and the fused passages unless the settings ask for them (Settings.navigation_pages).
"""

from __future__ import annotations

import re

# ". . . . ." or "....." or "…" or "·····": a leader between an entry and its page number.
_LEADER = re.compile(r"(?:[.\u2024\u00b7\u2219][ \t\u00a0]?){4,}|\u2026{2,}")
# A page reference ends the line: a number, or a list of them ("28, 148", "12-14"), after a letter or a leader.
_PAGE_REFERENCE = re.compile(r"[^\W\d_][^\n]*?[\s.\u2026\u00b7]\d{1,4}(?:\s*[,\u2013-]\s*\d{1,4})*\s*$")
# A line of nothing but a list of page numbers ("28, 148"); a bare number is as likely a table's cell.
_PAGE_NUMBERS = re.compile(r"^\s*\d{1,4}(?:\s*,\s*\d{1,4})+\s*$")
# Roman page numbers of a front matter's contents ("Preface . . . v").
_ROMAN_END = re.compile(r"(?:[.\u2026\u00b7][ \t]?){3,}\s*[ivxlc]{1,6}\s*$", re.IGNORECASE)

NAVIGATION_LINE_SHARE = 0.5  # at least this share of a passage's lines are entries with a page reference
LEADER_CHAR_SHARE = 0.2  # or at least this share of its visible characters are dot leaders
MIN_LINES = 3  # a passage of one or two lines is judged by its leaders alone
MAX_ENTRY_CHARS = 90  # an index or contents line is short; a prose line ending in a number is not an entry


def is_navigation_line(line: str) -> bool:
    line = line.strip()
    if not line or len(line) > MAX_ENTRY_CHARS:
        return False
    return bool(_LEADER.search(line) or _PAGE_REFERENCE.search(line) or _PAGE_NUMBERS.match(line) or _ROMAN_END.search(line))


def leader_share(text: str) -> float:
    visible = sum(not c.isspace() for c in text)
    leaders = sum(sum(not c.isspace() for c in m.group()) for m in _LEADER.finditer(text))
    return leaders / visible if visible else 0.0


def is_navigation(text: str) -> bool:
    """True when the passage is mostly index or contents entries by its shape (see the module's docstring)."""
    lines = [line for line in text.splitlines() if line.strip()]
    if leader_share(text) >= LEADER_CHAR_SHARE:
        return True
    if len(lines) < MIN_LINES:
        return False
    return sum(map(is_navigation_line, lines)) >= NAVIGATION_LINE_SHARE * len(lines)
