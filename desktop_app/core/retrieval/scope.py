"""What a search may find: the chosen documents (the ticked files, a collection, the question's filters) and,
when the question names pages, only those pages. Applied inside both searches, exactly (see search.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Scope:
    documents: tuple[int, ...] | None = None  # None: every document
    pages: tuple[tuple[int, int], ...] = ()  # (first, last) ranges, 1-based; none: every page

    @classmethod
    def of(cls, documents: Sequence[int] | None, pages: Sequence[tuple[int, int]] = ()) -> Scope:
        return cls(None if documents is None else tuple(documents), tuple(pages))

    @property
    def everything(self) -> bool:
        return self.documents is None and not self.pages


EVERYTHING = Scope()
