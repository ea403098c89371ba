"""Building overviews: one document at a time, after its meaning index, in the background.

`build_overview` reads a document's outline (outline.py), cuts its stored passages into the sections' spans,
and keeps each section's mean vector and central sentences (central.py); the document's mean vector too.
`OverviewQueue` builds every ready document that has none, oldest first, committing each one (so an
interruption resumes at the next document), and steps aside when other work waits (`should_pause`).
"""

from __future__ import annotations

import bisect
import logging
import re
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np

from ..document_overview import Overview, OverviewProgress, OverviewSection
from ..errors import StorageError
from ..models.embedder import Embedder
from ..storage.overviews import OverviewVectors
from ..storage.store import Store
from .central import Passage, Span, candidates, heading_key, pick_central, sentences_per_section, unit, word_counts
from .outline import Outline, OutlineEntry, read_outline

log = logging.getLogger(__name__)


def starts_its_page(entry: OutlineEntry, text: str) -> bool:
    """Nothing but numbers and punctuation (a page number, a blanked running head) comes before the heading."""
    return not re.search(r"[^\W\d_]", text[: entry.start])


def last_pages(entries: tuple[OutlineEntry, ...], pages: dict[int, str]) -> list[int]:
    """Where each section ends, with its subsections: the page before the next section of its level or above,
    or that section's own page when it starts part way down it."""
    last_page = max(pages) if pages else 1
    out = []
    for i, entry in enumerate(entries):
        end = last_page
        for later in entries[i + 1 :]:
            if later.level <= entry.level:
                end = later.page - 1 if starts_its_page(later, pages.get(later.page, "")) else later.page
                break
        out.append(max(entry.page, end))
    return out


def build_overview(store: Store, embedder: Embedder, document_id: int) -> tuple[Overview, OverviewVectors] | None:
    """The overview of a stored document with its vectors (None: removed meanwhile)."""
    document = store.document(document_id)
    if document is None:
        return None
    stored = store.document_pages(document_id)
    pages = {number: text for number, text, _ in stored}
    outline: Outline = read_outline(Path(document.path), pages, {number: section for number, _, section in stored}, document.title)
    entries = outline.entries
    passages = [Passage(i, page, start, end, text, vector) for i, page, start, end, text, vector in store.document_chunks(document_id) if vector is not None]
    starts = [(e.page, e.start) for e in entries]
    own: list[list[Passage]] = [[] for _ in entries]
    for passage in passages:
        # Every section the passage overlaps (a passage may hold a chapter's heading and its first section);
        # before the first heading is front matter (a title page, the table of contents), in no section.
        first = max(0, bisect.bisect_right(starts, (passage.page, passage.start)) - 1)
        last = bisect.bisect_left(starts, (passage.page, passage.end)) - 1
        for at in range(first, last + 1):
            own[at].append(passage)
    spans = [Span(starts[i], starts[i + 1] if i + 1 < len(starts) else None) for i in range(len(entries))]
    means = [unit(np.vstack([p.vector for p in group])) if group else None for group in own]
    headings = {heading_key(e.title) for e in entries}  # a heading line is no sentence about its section
    everywhere = word_counts(passages)
    kept = sentences_per_section(len(entries))
    groups = [candidates(group, span, mean, headings, everywhere, kept) if mean is not None else [] for group, span, mean in zip(own, spans, means)]
    chosen = pick_central(groups, means, embedder, kept)
    ends = last_pages(entries, pages)
    labels = {number: section for number, _, section in stored}
    sections = tuple(
        OverviewSection(position, entry.level, entry.title, entry.page, end, sentences, labels.get(entry.page))
        for position, (entry, end, sentences) in enumerate(zip(entries, ends, chosen))
    )
    overview = Overview(document_id, document.path, document.title, outline.source, sections)
    document_vector = unit(np.vstack([p.vector for p in passages])) if passages else None
    return overview, OverviewVectors(document_vector, tuple(means))


def build_and_save(store: Store, embedder: Embedder, document_id: int) -> Overview | None:
    content_hash = store.document_content_hash(document_id)
    built = build_overview(store, embedder, document_id)
    if built is None or content_hash is None:
        return None
    overview, vectors = built
    return overview if store.save_overview(overview, content_hash, vectors) else None


class OverviewQueue:
    def __init__(self, store: Store, embedder: Embedder):
        self.store = store
        self.embedder = embedder
        self.paused = False  # the last run stopped because `should_pause` asked it to; work is left

    def run(self, cancel: threading.Event | None = None, should_pause: Callable[[], bool] | None = None) -> Iterator[OverviewProgress]:
        """Build until no ready document lacks an overview; yields progress after each document."""
        self.paused = False
        failed: set[int] = set()  # a document whose build failed is not retried in this run
        done, total = self.store.overview_backlog()
        if done < total:
            yield OverviewProgress(done, total)
        while True:
            waiting = [i for i in self.store.documents_without_overview() if i not in failed]
            if not waiting or (cancel is not None and cancel.is_set()):
                return
            if should_pause is not None and should_pause():
                self.paused = True
                return
            document_id = waiting[0]
            document = self.store.document(document_id)
            started = time.perf_counter()
            message = ""
            try:
                build_and_save(self.store, self.embedder, document_id)
            except StorageError:
                raise  # a full disk or a read-only folder: every later document would fail the same way
            except Exception as exc:  # one document's surprise must not stop the others' overviews
                failed.add(document_id)
                message = f"no overview for {Path(document.path).name if document else document_id}: {exc!r}"
                log.warning("overview failed: %s", message)
            done, total = self.store.overview_backlog()
            yield OverviewProgress(
                min(done + len(failed), total), total, document.path if document else "", time.perf_counter() - started, document.pages if document else 0, message
            )
