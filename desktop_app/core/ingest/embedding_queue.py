"""The meaning index's one queue: every passage still without a vector, embedded in batches, oldest document first.

An import stores every file's text first (listed and found by keyword at once, importer.py); this queue then
fills in the vectors for all of them, for documents of earlier batches, and for those an earlier session left
unfinished (a crash, a cancel, the window closed). MiniLM reads ~20 passages/s on two cores against pymupdf's
~1,000 pages/s, so this is where an import's time goes: it reports one "indexing n of N passages" with a time
estimate for the whole queue, besides each document's own progress.

Each batch is committed to SQLite and then added to the vector index, so an interruption loses at most one
batch; a question asked meanwhile finds the passages not yet embedded by keyword (pipeline.py).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Container, Iterator, Sequence
from pathlib import Path

from ..errors import StorageError
from ..models.embedder import Embedder
from ..storage.store import Store
from ..storage.vector_index import VectorIndex
from ..types import Document, ImportProgress
from ..wording import counted

INDEX_SAVE_INTERVAL_S = 30.0
LATER = "its meaning index is finished the next time you add documents or open the app"


class VectorsNotStored(StorageError):
    """The text of a file was committed, its embeddings could not be (a full disk, a read-only folder)."""

    def __init__(self, cause: StorageError, file_name: str):
        super().__init__(
            f"{cause}. {file_name} was stored and is found by keyword search; its meaning index is completed by the next import",
            hint="Free some disk space, then import again.",
        )
        self.cause = cause


def duration_words(seconds: float) -> str:
    """A time estimate as a person says it: "about 40 s", "about 12 min", "about 1 h 20 min"."""
    if seconds < 60:
        return f"about {max(5, round(seconds / 5) * 5):.0f} s"
    minutes = round(seconds / 60)
    if minutes < 60:
        return f"about {minutes} min"
    return f"about {minutes // 60} h {minutes % 60:02d} min"


def indexing_text(done: int, total: int, seconds_left: float | None) -> str:
    """ "indexing 1,234 of 6,724 passages, about 12 min left": what the window and the CLI both show."""
    text = f"indexing {done:,} of {counted(total, 'passage')}"
    return f"{text}, {duration_words(seconds_left)} left" if seconds_left is not None else text


class EmbeddingQueue:
    def __init__(self, store: Store, index: VectorIndex, embedder: Embedder, batch_size: int):
        self.store = store
        self.index = index
        self.embedder = embedder
        self.batch_size = batch_size
        self.paused = False  # the last run stopped because `should_pause` asked it to; work is left

    def run(
        self,
        cancel: threading.Event | None = None,
        cancelled_files: Container[str] = (),
        should_pause: Callable[[], bool] | None = None,
        reported: Container[str] = (),
    ) -> Iterator[ImportProgress]:
        """Embed until nothing waits. Yields each document's "embedding" and "ready", and the queue's "indexing".

        `cancelled_files` (paths, shared with the thread that cancels) are left waiting, each told "cancelled"
        once, unless it is in `reported` (it already had its last word). `cancel` stops the run: every document
        still waiting is told "cancelled". `should_pause` is asked between batches: True ends the run quietly
        (`self.paused`), so other work (a new import) goes first and the queue resumes after it.
        """
        for event in self._run(cancel, cancelled_files, should_pause):
            # A path that already had its last word in this import (it failed, say, while an older version of
            # it waited here) is still embedded, but not reported twice.
            if event.file not in reported:
                yield event

    def _run(self, cancel: threading.Event | None, cancelled_files: Container[str], should_pause: Callable[[], bool] | None) -> Iterator[ImportProgress]:
        self.paused = False
        done, busy_s = 0, 0.0
        told: set[str] = set()
        begun: dict[int, Document] = {}  # documents this run embedded some of, until their last word
        warned = False
        last_save = time.monotonic()
        while True:
            waiting = sorted((d for d in self.store.documents() if d.status == "embedding"), key=lambda d: d.id)
            for gone in [d for i, d in begun.items() if i not in {w.id for w in waiting}]:
                del begun[gone.id]  # removed meanwhile (or finished by another window)
                yield self._finished(gone)
            for document in waiting:
                if document.path in cancelled_files and document.path not in told:
                    told.add(document.path)
                    yield ImportProgress(document.path, "cancelled", message=f"Cancelled: {Path(document.path).name} is searchable by keyword; {LATER}")
            queued = [d for d in waiting if d.path not in cancelled_files]
            if cancel is not None and cancel.is_set():
                for document in queued:
                    yield ImportProgress(document.path, "cancelled", message=f"Import cancelled: {Path(document.path).name} is searchable by keyword; {LATER}")
                break
            if not queued:
                break
            if should_pause is not None and should_pause():
                self.paused = True
                break
            document = queued[0]
            batch = self.store.pending_chunks(self.batch_size, document.id)
            if not batch:  # e.g. a document with no chunks left 'embedding'
                self.store.mark_ready(document.id)
                yield self._finished(document)
                continue
            started = time.perf_counter()
            try:
                self._embed_batch(batch)
            except StorageError as exc:
                # Every waiting document is stored and found by keyword; only the vectors could not be written.
                for waiting_document in queued:
                    yield ImportProgress(waiting_document.path, "failed", message=VectorsNotStored(exc, Path(waiting_document.path).name).user_message())
                break
            busy_s += time.perf_counter() - started
            done += len(batch)
            begun[document.id] = document
            left = self.store.pending_count(document.id)
            set_aside = sum(self.store.pending_count(d.id) for d in waiting if d.path in cancelled_files)
            remaining = self.store.pending_count() - set_aside
            seconds_left = remaining * busy_s / done if remaining else 0.0
            # The whole queue first, then the document: a consumer showing one bar (the CLI) keeps the queue's.
            yield ImportProgress("", "indexing", done, done + remaining, indexing_text(done, done + remaining, seconds_left), seconds_left=seconds_left)
            yield ImportProgress(document.path, "embedding", document.chunks - left, document.chunks, document_id=document.id)
            if left == 0:
                del begun[document.id]
                yield self._finished(document)
            if self.index.dirty and time.monotonic() - last_save > INDEX_SAVE_INTERVAL_S:
                warning = self._save()
                last_save = time.monotonic()
                if warning is not None and not warned:
                    warned = True
                    yield warning
        warning = self._save()
        if warning is not None and not warned:
            yield warning

    def _finished(self, document: Document) -> ImportProgress:
        now = self.store.document(document.id)
        if now is None:
            return ImportProgress(document.path, "cancelled", message=f"{Path(document.path).name} was removed while it was being indexed")
        notices = "; ".join(self.store.document_notices(document.id))
        return ImportProgress(document.path, "ready", now.pages, now.pages, notices, document.id, f"{now.unit}s")

    def _embed_batch(self, batch: Sequence[tuple[int, int, str]]) -> None:
        ids = [row[0] for row in batch]
        vectors = self.embedder.embed([row[2] for row in batch])
        stored = set(self.store.set_embeddings(ids, vectors))
        keep = [i for i, chunk_id in enumerate(ids) if chunk_id in stored]  # not those removed meanwhile
        # One batch per call: the index lock is held per call, so a question asked meanwhile never
        # waits for a 2,000-page manual's vectors to be inserted.
        self.index.add([ids[i] for i in keep], vectors[keep])

    def _save(self) -> ImportProgress | None:
        """Saves the index file; a failure is a warning about the library, not a failed file."""
        if not self.index.dirty:
            return None
        try:
            self.index.save()
        except StorageError as exc:
            # The documents are committed in SQLite and searchable now; only the index file lags,
            # and it is repaired from SQLite on the next open.
            return ImportProgress(str(self.index.path.parent), "warning", message=exc.user_message())
        return None
