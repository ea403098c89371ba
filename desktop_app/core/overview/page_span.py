"""A run of pages read as a part of its document: "Summarize pages 10-12 of X" is answered from the pages' most
central sentences, as "summarize chapter 6 of X" is from its chapter's (selection.part_sentences).

The sentences are picked when asked, from the pages' stored passages and vectors, by the same rule the overview
uses for a section (central.py): the overview keeps two sentences a section, and three pages of a long section
may hold none of them. It costs one embedding call over a few dozen sentences, no model call.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..document_overview import CentralSentence, Overview, OverviewSection
from ..models.embedder import Embedder
from ..storage.store import Store
from .central import Passage, Span, candidates, heading_key, pick_central, unit, word_counts


def page_sentences(store: Store, embedder: Embedder, document_id: int, pages: tuple[int, int], overview: Overview | None, limit: int) -> list[CentralSentence]:
    """About `limit` sentences of pages first..last, in reading order; none when the pages have no indexed text (a
    scanned page, or a meaning index still being built). Each page (each run of pages, when there are more pages than
    sentences) keeps its share of the sentences closest to its own meaning: a summary of pages covers every one of
    them, where the sentences closest to their mean all came from the page most of the passages were on."""
    first, last = pages
    stored = [Passage(i, page, start, end, text, vector) for i, page, start, end, text, vector in store.document_chunks(document_id) if vector is not None]
    own = [p for p in stored if first <= p.page <= last]
    if not own:
        return []
    runs = _runs(sorted({p.page for p in own}), limit)
    headings = {heading_key(s.title) for s in overview.sections} if overview is not None else set()  # a heading line is no sentence about the pages
    everywhere, shares = word_counts(stored), [limit // len(runs) + (i < limit % len(runs)) for i in range(len(runs))]
    groups, means = [], []
    for (start, stop), kept in zip(runs, shares):
        group = [p for p in own if start <= p.page <= stop]
        means.append(mean := unit(np.vstack([p.vector for p in group])))
        groups.append(candidates(group, Span((start, 0), (stop + 1, 0)), mean, headings, everywhere, kept) if mean is not None else [])
    if not any(groups):  # a contents or index page: no line of it reads as a sentence, and its entries are what it says
        return [CentralSentence(" ".join(p.text.split()), p.page, p.start, p.end, p.chunk_id, 0.0) for p in own[:limit]]
    picked = pick_central(groups, means, embedder, max(shares))  # one embedding call; a run's share is its best few of those
    return [c for group, kept in zip(picked, shares) for c in sorted(sorted(group, key=lambda c: -c.score)[:kept], key=lambda c: (c.page, c.start))]


def _runs(pages: Sequence[int], most: int) -> list[tuple[int, int]]:
    """The pages cut into at most `most` runs of consecutive ones, as even in length as they divide: (first, last) each."""
    count = min(len(pages), max(most, 1))
    bounds = [round(i * len(pages) / count) for i in range(count + 1)]
    return [(pages[bounds[i]], pages[bounds[i + 1] - 1]) for i in range(count)]


def sections_on(overview: Overview | None, pages: tuple[int, int]) -> list[OverviewSection]:
    """The outline's sections that start on the pages or run through them: what the model is shown above the sentences."""
    first, last = pages
    return [s for s in overview.sections if s.page <= last and s.last_page >= first] if overview is not None else []


def section_of(overview: Overview | None, sentence: CentralSentence) -> OverviewSection | None:
    """The last section of the outline starting on or before the sentence's page: the heading it sits under."""
    before = [s for s in overview.sections if s.page <= sentence.page] if overview is not None else []
    return before[-1] if before else None


def headings_of(overview: Overview | None, sentences: Sequence[CentralSentence]) -> tuple[str, ...]:
    """Each sentence's heading path, as the outline shows it (review.py's `under`); "" under none."""
    return tuple(f"{overview.heading_path(s)} (p. {s.page})" if overview is not None and (s := section_of(overview, c)) else "" for c in sentences)
