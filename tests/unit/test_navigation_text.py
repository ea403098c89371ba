"""Index and contents passages are recognised by their shape, in any language; ordinary text is not (issue 34)."""

from __future__ import annotations

import pytest

from desktop_app.core.navigation_text import is_navigation
from desktop_app.core.types import ChunkDraft

CONTENTS = """Contents
1 Getting started . . . . . . . . . . . . . . . . . . . . . . 1
1.1 Unpacking the Kestrel Nano . . . . . . . . . . . . . . . 2
1.2 Charging the battery . . . . . . . . . . . . . . . . . . 4
2 Flying . . . . . . . . . . . . . . . . . . . . . . . . . . 9
2.1 Calibrating the compass . . . . . . . . . . . . . . . . 11"""

INDEX_WITH_PAGE_LISTS = """battery, 4, 17, 22
calibration, 11
charger, 4, 5
compass, 11-13
firmware, 30, 41
propellers, 7, 8, 19"""

# Another language and script: the shape is the same.
GERMAN_CONTENTS = """Inhaltsverzeichnis
Einleitung ........................ 3
Inbetriebnahme des Geräts ......... 7
Wartung und Pflege ................ 15
Störungsbehebung .................. 21"""
JAPANESE_INDEX = """電池 . . . . . . . . . 4, 17
充電器 . . . . . . . . 5
羅針盤 . . . . . . . . 11"""

# The extractor sometimes puts an index's page lists on lines of their own.
INDEX_NUMBERS_ON_OWN_LINES = "Ventil\n12, 48\nVentilator\n33, 35\nVerschleiß\n7, 9, 71\nWelle\n64, 66"

PROSE = (
    "The Kestrel Nano weighs 249 g and flies for 31 minutes on one charge. Its battery charges in 90 minutes "
    "from a 30 W charger. Calibrate the compass before the first flight, away from metal objects, and again "
    "after a firmware update to version 2.4."
)
PROSE_WITH_LINE_ENDS = """The cooperative was founded in 1951
by eleven families. Its cellar holds
about 400 barrels, and it sells
to shops in 12 towns along the coast
and abroad."""
NUMBER_TABLE = "offset\n2\n2\n8\n;; brace\n0\n-8\n-5\n;; close\n0\n0\n4"  # a code block's columns of numbers
CODE = """x <- c(1, 2, 3)
y <- mean(x)
for (i in seq_along(x)) {
    print(x[i] * y)
}"""


@pytest.mark.parametrize("text", [CONTENTS, INDEX_WITH_PAGE_LISTS, GERMAN_CONTENTS, JAPANESE_INDEX, INDEX_NUMBERS_ON_OWN_LINES])
def test_index_and_contents_passages_are_navigation(text):
    assert is_navigation(text)


@pytest.mark.parametrize("text", [PROSE, PROSE_WITH_LINE_ENDS, CODE, NUMBER_TABLE, "Chapter 3", ""])
def test_ordinary_text_is_not(text):
    assert not is_navigation(text)


def test_a_table_chunk_is_never_navigation():
    table = "| Model | Page |\n|---|---|\n| Nano . . . . | 4 |\n| Mini . . . . | 9 |"
    assert ChunkDraft(1, 0, len(table), table, kind="table").navigation is False
    assert ChunkDraft(1, 0, len(CONTENTS), CONTENTS).navigation is True
