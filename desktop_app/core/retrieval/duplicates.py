"""Near-duplicate passages become one row of the fused list, which keeps every place the text came from.

Fusion merges hits by chunk id; the same text can still take two rows: one file imported twice under two names,
a manual and its copy in another folder, a short chunk that another chunk contains. Two passages are the same
text when most of the shorter one's word shingles (runs of SHINGLE_WORDS words, Unicode word characters, any
language) are in the other's, and every number or code of the shorter one (a word with a digit: "24", "B12")
is in the other too: two datasheets written from one template differ in just those, and each states its own
facts, so they stay two rows. The better-ranked passage stands, in its place and with its score; the others
join its `also` (Source.also), so the side panel, the evidence and the citations can name every place.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Sequence

from ..types import Location, Source

SHINGLE_WORDS = 5
SAME_TEXT_SHARE = 0.8  # at least this share of the shorter passage's shingles are in the other


def shingles(text: str) -> frozenset[tuple[str, ...]]:
    """The text's runs of SHINGLE_WORDS consecutive words, case and punctuation ignored (a shorter text: itself)."""
    words = re.findall(r"\w+", text.casefold())
    if len(words) <= SHINGLE_WORDS:
        return frozenset([tuple(words)]) if words else frozenset()
    return frozenset(tuple(words[i : i + SHINGLE_WORDS]) for i in range(len(words) - SHINGLE_WORDS + 1))


def codes(text: str) -> frozenset[str]:
    """The text's numbers and codes: its words that hold a digit (in any script's digits)."""
    return frozenset(w for w in re.findall(r"\w+", text.casefold()) if any(c.isdigit() for c in w))


def _same_text(mine: frozenset, my_codes: frozenset, theirs: frozenset, their_codes: frozenset, shared: int) -> bool:
    shorter_codes, longer_codes = (my_codes, their_codes) if len(mine) <= len(theirs) else (their_codes, my_codes)
    return bool(mine) and shared >= SAME_TEXT_SHARE * min(len(mine), len(theirs)) and shorter_codes <= longer_codes


def merge_duplicates(sources: Sequence[Source]) -> list[Source]:
    """`sources` (best first) with each near-duplicate folded into the best-ranked copy's `also`, renumbered."""
    kept: list[Source] = []
    kept_shingles: list[frozenset[tuple[str, ...]]] = []
    kept_codes: list[frozenset[str]] = []
    owners: dict[tuple[str, ...], list[int]] = {}  # shingle -> the kept rows holding it
    also: dict[int, list[Location]] = {}
    for source in sources:
        mine, my_codes = shingles(source.passage.text), codes(source.passage.text)
        shared = Counter(row for shingle in mine for row in owners.get(shingle, ()))
        twin = next((row for row, count in shared.most_common() if _same_text(mine, my_codes, kept_shingles[row], kept_codes[row], count)), None)
        if twin is not None:
            also.setdefault(twin, []).extend((Location.of(source.passage), *source.also))
            continue
        for shingle in mine:
            owners.setdefault(shingle, []).append(len(kept))
        kept.append(source)
        kept_shingles.append(mine)
        kept_codes.append(my_codes)
    return [
        dataclasses.replace(source, n=n, also=(*source.also, *also.get(row, ())))
        for n, (row, source) in enumerate(enumerate(kept), start=1)
    ]
