"""Importing files and folders: every file's text first, for the whole batch; then one embedding queue for all.

`import_paths` yields ImportProgress events and checks for cancellation (of the batch, or of single files)
between steps. A file that fails is reported at once and the batch goes on.

Two phases, because embedding is the slow part (MiniLM reads ~20 passages/s on two cores, pymupdf ~1,000
pages/s). Phase 1 (`store_paths`), file after file: the pages and chunks are committed in one SQLite
transaction, and the document is listed, readable and found by keyword search at once ("searchable"); a
broken file says why within seconds of the drop, however big the good files beside it. Phase 2
(embedding_queue.py) embeds what every file of the batch stored, in batches, each committed and added to the
vector index ("embedding" ... "ready"), with one "indexing n of N passages" for the whole queue.
An interruption in phase 1 leaves each file fully present or absent; in phase 2, the documents stay
searchable and the next import (or the next start of the window) embeds the rest.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Container, Iterable, Iterator, Sequence
from pathlib import Path

import numpy as np

from ..errors import AppError, ImportCancelled, ImportFailed, StorageError, UnsupportedFormat
from ..formats import is_hidden_or_temporary, is_importable, unsupported_message
from ..languages import detect_language, sample
from ..models.embedder import Embedder
from ..repeated_text import mark_boilerplate
from ..storage.store import Store
from ..storage.table_store import TableStore
from ..storage.vector_index import VectorIndex
from ..types import ImportProgress, PageText
from ..wording import counted
from .chunking import chunk_pages
from .embedding_queue import LATER, EmbeddingQueue, VectorsNotStored
from .extraction import extract, is_supported
from .pdf_tables import chunk_pages_around_tables
from .table_files import is_table_file, read_table_file

EMBED_BATCH = 64
FINAL_STAGES = ("ready", "skipped", "failed", "cancelled")  # a file's last word in an import
__all__ = ["EMBED_BATCH", "FINAL_STAGES", "Importer", "VectorsNotStored", "collect_files", "file_hash"]


def collect_files(paths: Iterable[Path | str]) -> list[Path]:
    """Supported files under the given files and folders (recursively), each once, in a stable order."""
    out: dict[str, Path] = {}
    for raw in paths:
        path = Path(raw).expanduser()
        if path.is_dir():
            for file in sorted(path.rglob("*")):
                if file.is_file() and is_importable(file) and not is_hidden_or_temporary(file):
                    out.setdefault(str(file.resolve()), file.resolve())
        else:
            # Files are kept even when unsupported or missing, so the user hears why they were not imported.
            out.setdefault(str(path.resolve()), path.resolve())
    return list(out.values())


def file_hash(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(1024 * 1024):
            digest.update(block)
    return digest.hexdigest()


class Importer:
    def __init__(self, store: Store, index: VectorIndex, embedder: Embedder, embed_batch: int = EMBED_BATCH, tables: TableStore | None = None):
        self.store = store
        self.index = index
        self.embedder = embedder
        self.embed_batch = embed_batch
        self.tables = tables  # where CSV/Excel files go; None: they are refused like any unsupported file

    def embedding_queue(self) -> EmbeddingQueue:
        return EmbeddingQueue(self.store, self.index, self.embedder, self.embed_batch)

    def import_paths(
        self,
        paths: Iterable[Path | str],
        passwords: dict[str, str] | None = None,
        cancel: threading.Event | None = None,
        cancelled_files: Container[str] = (),
    ) -> Iterator[ImportProgress]:
        """Both phases: every file stored (searchable by keyword), then the embedding queue until nothing waits.

        `cancel` stops the batch; a path added to `cancelled_files` (by another thread) stops that file alone.
        """
        finished: set[str] = set()  # files that had their last word in phase 1
        try:
            for event in self.store_paths(paths, passwords, cancel, cancelled_files):
                if event.stage in FINAL_STAGES:
                    finished.add(event.file)
                yield event
            if cancel is not None and cancel.is_set():
                return  # store_paths told every file
            yield from self.embedding_queue().run(cancel, cancelled_files, reported=finished)
        finally:
            if self.index.dirty:
                try:
                    self.index.save()
                except StorageError:
                    pass  # the consumer stopped early; the next open repairs the index from SQLite

    def store_paths(
        self,
        paths: Iterable[Path | str],
        passwords: dict[str, str] | None = None,
        cancel: threading.Event | None = None,
        cancelled_files: Container[str] = (),
    ) -> Iterator[ImportProgress]:
        """Phase 1 for every file: "queued" for all at once, then each one's text stored ("searchable"), or its
        last word ("ready" for a table, "skipped", "failed", "cancelled"). Nothing is embedded here."""
        passwords = passwords or {}
        # "*" is the password to try for any protected file (the CLI's --password over a folder).
        fallback_password = passwords.get("*")
        files = collect_files(paths)
        for file in files:
            yield ImportProgress(str(file), "queued")
        stored: list[str] = []  # searchable, waiting for the embedding queue
        for position, file in enumerate(files):
            name = str(file)
            if cancel is not None and cancel.is_set():
                for done in stored:
                    yield ImportProgress(done, "cancelled", message=f"Import cancelled: {Path(done).name} is searchable by keyword; {LATER}")
                for rest in files[position:]:
                    yield ImportProgress(str(rest), "cancelled", message="Import cancelled")
                return
            if name in cancelled_files:
                yield ImportProgress(name, "cancelled", message="Import cancelled")
                continue
            try:
                password = passwords.get(name) or passwords.get(file.name) or fallback_password
                cancelled = lambda name=name: (cancel is not None and cancel.is_set()) or name in cancelled_files
                for event in self._store_file(file, password, cancelled):
                    if event.stage == "searchable":
                        stored.append(name)
                    yield event
            except ImportCancelled as exc:
                yield ImportProgress(name, "cancelled", message=str(exc))
            except StorageError as exc:
                # A full disk or read-only folder fails every later file the same way: stop and say so once.
                # The files stored before it still go to the embedding queue.
                yield ImportProgress(name, "failed", message=exc.user_message())
                for rest in files[position + 1 :]:
                    yield ImportProgress(str(rest), "failed", message=f"not imported: {exc}")
                return
            except AppError as exc:
                yield ImportProgress(name, "failed", message=exc.user_message())
            except Exception as exc:  # one file's surprise must not stop the batch
                yield ImportProgress(name, "failed", message=f"{file.name} could not be imported: unexpected error ({exc!r})")

    def _store_file(self, file: Path, password: str | None, cancelled: Callable[[], bool]) -> Iterator[ImportProgress]:
        name = str(file)
        if not file.exists():
            yield ImportProgress(name, "failed", message=f"{file.name} no longer exists. Check the path and import it again.")
            return
        is_table = is_table_file(file) and self.tables is not None
        if not is_supported(file) and not is_table:
            yield ImportProgress(name, "failed", message=UnsupportedFormat(*unsupported_message(file)).user_message())
            return
        try:
            content_hash = file_hash(file)
        except OSError as exc:
            # The file vanished or became unreadable after it was listed.
            raise ImportFailed(f"{file.name} could not be read ({exc.strerror or exc})", hint="Check that the file still exists and you may read it, then import it again.") from exc
        existing = self.store.document_by_path(name)
        if existing and existing[1] == content_hash and existing[0].status == "ready":
            count = existing[0].rows if existing[0].kind == "table" else existing[0].pages
            yield ImportProgress(name, "skipped", count, count, "unchanged, already in the library", existing[0].id, f"{existing[0].unit}s")
            return
        if is_table:
            yield from self._import_table(file, content_hash)
            return
        if existing and existing[1] == content_hash and existing[0].status == "embedding":
            document = existing[0]  # stored by an earlier run that stopped while embedding: the queue finishes it
            yield ImportProgress(name, "searchable", document.pages, document.pages, "", document.id, f"{document.unit}s")
            return
        yield ImportProgress(name, "extracting", 0, 0)
        extracted = extract(file, password)
        pages_total = extracted.page_count
        unit = f"{extracted.unit}s"  # "pages", or "sections" for Word and HTML files
        yield ImportProgress(name, "extracting", pages_total, pages_total, unit=unit)
        # A page's tables are chunks of their own, cut out of its text chunks (tables.chunk_pages_around_tables).
        if extracted.tables:
            drafts = chunk_pages_around_tables([p for p in extracted.pages if p.text.strip()], extracted.tables)
        else:
            drafts = chunk_pages(p for p in extracted.pages if p.text.strip())
        drafts = mark_boilerplate(extracted.pages, drafts)  # a notice or footer block on many pages: keyword only
        if cancelled():
            raise ImportCancelled("Import cancelled")
        language = detect_language(sample(p.text for p in extracted.pages))
        document_id, _, old_ids = self.store.save_document(
            name, extracted.title, content_hash, extracted.pages, pages_total, drafts, None, extracted.notices, language
        )
        # SQLite is committed first; the index catches up, and is repaired from SQLite after a crash.
        self.index.remove(old_ids)
        message = "; ".join(extracted.notices)
        if not drafts:  # nothing to embed: the document is complete now
            yield ImportProgress(name, "ready", pages_total, pages_total, message, document_id, unit)
            return
        yield ImportProgress(name, "searchable", pages_total, pages_total, message, document_id, unit)

    def _import_table(self, file: Path, content_hash: str) -> Iterator[ImportProgress]:
        """A CSV file or an Excel workbook becomes SQLite tables (one per sheet), asked with SQL, not embedded."""
        name = str(file)
        yield ImportProgress(name, "extracting", 0, 0)
        tables = read_table_file(file)
        rows = sum(len(t.rows) for t in tables)
        yield ImportProgress(name, "extracting", rows, rows, unit="rows")
        names = self.tables.create(tables, self.store.table_names())
        try:
            document_id, old_tables, old_chunks = self.store.save_table_document(name, file.name, content_hash, tables, names)
        except BaseException:
            self.tables.drop(names)  # not catalogued: no question could reach them
            raise
        self.tables.drop(old_tables)
        self.index.remove(old_chunks)
        if len(names) == 1:
            described = f"SQL table {names[0]}"
        else:
            described = "SQL tables " + ", ".join(f"{n} ({counted(len(t.rows), 'row')})" for n, t in zip(names, tables))
        yield ImportProgress(name, "ready", rows, rows, described, document_id, unit="rows")

    def import_texts(self, records: Sequence[tuple[str, str, str]], cancel: threading.Event | None = None) -> Iterator[ImportProgress]:
        """Import in-memory texts, each `(name, title, text)` one single-page document (the eval's corpus records).

        Same chunking, store and index as files, but the embedding batches span records: embedding
        10,000 short articles one by one is hours on two cores, in batches it is minutes.
        """
        pending: list[tuple[str, str, str, str, list]] = []  # name, title, hash, text, chunk drafts
        try:
            for name, title, text in records:
                if cancel is not None and cancel.is_set():
                    raise ImportCancelled("Import cancelled")
                content_hash = hashlib.sha256(text.encode("utf-8")).hexdigest()
                existing = self.store.document_by_path(name)
                if existing and existing[1] == content_hash and existing[0].status == "ready":
                    yield ImportProgress(name, "skipped", 1, 1, "unchanged, already in the library", existing[0].id)
                    continue
                drafts = chunk_pages([PageText(1, text)] if text.strip() else [])
                pending.append((name, title, content_hash, text, drafts))
                if sum(len(p[4]) for p in pending) >= EMBED_BATCH:
                    yield from self._save_texts(pending)
                    pending = []
            yield from self._save_texts(pending)
        finally:
            if self.index.dirty:
                self.index.save()

    def _save_texts(self, pending: list[tuple[str, str, str, str, list]]) -> Iterator[ImportProgress]:
        if not pending:
            return
        texts = [d.text for p in pending for d in p[4]]
        matrix = self.embedder.embed(texts) if texts else np.zeros((0, self.embedder.dimension), dtype=np.float32)
        row = 0
        for name, title, content_hash, text, drafts in pending:
            vectors = matrix[row : row + len(drafts)]
            row += len(drafts)
            pages = [PageText(1, text)]
            document_id, chunk_ids, old_ids = self.store.save_document(name, title, content_hash, pages, 1, drafts, vectors, language=detect_language(text))
            self.index.remove(old_ids)
            searchable = [i for i, draft in enumerate(drafts) if not draft.navigation]  # index and contents: keyword only
            self.index.add([chunk_ids[i] for i in searchable], vectors[searchable])
            yield ImportProgress(name, "ready", 1, 1, "", document_id)
