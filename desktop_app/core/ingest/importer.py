"""Importing files and folders: extract, chunk, store, then embed and index — one file at a time.

`import_paths` yields ImportProgress events and checks for cancellation between steps.
A file that fails is reported and the batch goes on.

Two phases per file, because embedding is the slow part (MiniLM reads ~20 passages/s on two cores,
pymupdf ~1,000 pages/s): first the pages and chunks are committed in one SQLite transaction, and the
document is listed, readable and found by keyword search at once ("searchable"); then its chunks are
embedded in batches, each batch committed and added to the vector index ("embedding" ... "ready").
An interruption in the first phase leaves the file fully present or absent; in the second, the
document stays searchable and the next import (or the next start of the window) embeds the rest.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

import numpy as np

from ..errors import (
    AppError,
    ImportCancelled,
    ImportFailed,
    StorageError,
    UnsupportedFormat,
)
from ..formats import is_hidden_or_temporary, is_importable, unsupported_message
from ..models.embedder import Embedder
from ..storage.store import Store
from ..storage.table_store import TableStore
from ..storage.vector_index import VectorIndex
from ..types import ImportProgress, PageText
from .chunking import chunk_pages
from .extraction import extract, is_supported
from .pdf_tables import chunk_pages_around_tables
from .table_files import is_table_file, read_table_file

EMBED_BATCH = 64
INDEX_SAVE_INTERVAL_S = 30.0


class VectorsNotStored(StorageError):
    """The text of a file was committed, its embeddings could not be (a full disk, a read-only folder)."""

    def __init__(self, cause: StorageError, file_name: str):
        super().__init__(
            f"{cause}. {file_name} was stored and is found by keyword search; its meaning index is completed by the next import",
            hint="Free some disk space, then import again.",
        )
        self.cause = cause


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

    def import_paths(
        self,
        paths: Iterable[Path | str],
        passwords: dict[str, str] | None = None,
        cancel: threading.Event | None = None,
    ) -> Iterator[ImportProgress]:
        passwords = passwords or {}
        # "*" is the password to try for any protected file (the CLI's --password over a folder).
        fallback_password = passwords.get("*")
        files = collect_files(paths)
        for file in files:
            yield ImportProgress(str(file), "queued")
        last_save = time.monotonic()
        try:
            # Leftovers first: documents whose embedding an earlier run did not finish (a crash, a cancel).
            try:
                yield from self.embed_pending(cancel, skip={str(f) for f in files})
            except ImportCancelled:
                for rest in files:
                    yield ImportProgress(str(rest), "cancelled", message="Import cancelled")
                return
            for position, file in enumerate(files):
                if cancel is not None and cancel.is_set():
                    for rest in files[position:]:
                        yield ImportProgress(str(rest), "cancelled", message="Import cancelled")
                    return
                try:
                    password = passwords.get(str(file)) or passwords.get(file.name) or fallback_password
                    yield from self._import_file(file, password, cancel)
                except ImportCancelled as exc:
                    yield ImportProgress(str(file), "cancelled", message=str(exc))
                    for rest in files[position + 1 :]:
                        yield ImportProgress(str(rest), "cancelled", message="Import cancelled")
                    return
                except StorageError as exc:
                    # A full disk or read-only folder fails every later file the same way: stop and say so once.
                    yield ImportProgress(str(file), "failed", message=exc.user_message())
                    cause = exc.cause if isinstance(exc, VectorsNotStored) else exc
                    for rest in files[position + 1 :]:
                        yield ImportProgress(str(rest), "failed", message=f"not imported: {cause}")
                    return
                except AppError as exc:
                    yield ImportProgress(str(file), "failed", message=exc.user_message())
                except Exception as exc:  # one file's surprise must not stop the batch
                    yield ImportProgress(str(file), "failed", message=f"{file.name} could not be imported: unexpected error ({exc!r})")
                if self.index.dirty and time.monotonic() - last_save > INDEX_SAVE_INTERVAL_S:
                    try:
                        self.index.save()
                    except StorageError as exc:
                        yield ImportProgress(str(self.index.path.parent), "warning", message=exc.user_message())
                        for rest in files[position + 1 :]:
                            yield ImportProgress(str(rest), "failed", message=f"not imported: {exc}")
                        return
                    last_save = time.monotonic()
            if self.index.dirty:
                try:
                    self.index.save()
                except StorageError as exc:
                    # The documents are committed in SQLite and searchable now; only the index file lags,
                    # and it is repaired from SQLite on the next open. A warning, not a failed file.
                    yield ImportProgress(str(self.index.path.parent), "warning", message=exc.user_message())
        finally:
            if self.index.dirty:
                try:
                    self.index.save()
                except StorageError:
                    pass  # the consumer stopped early; the next open repairs the index from SQLite

    def _import_file(self, file: Path, password: str | None, cancel: threading.Event | None) -> Iterator[ImportProgress]:
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
            document = existing[0]  # stored by an earlier run that stopped while embedding: finish it
            yield ImportProgress(name, "searchable", document.pages, document.pages, "", document.id, f"{document.unit}s")
            yield from self._embed_document(name, document.id, document.chunks, cancel)
            yield self._finished(name, document.id, document.pages, "", f"{document.unit}s")
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
        if cancel is not None and cancel.is_set():
            raise ImportCancelled("Import cancelled")
        document_id, _, old_ids = self.store.save_document(
            name, extracted.title, content_hash, extracted.pages, pages_total, drafts, None, extracted.notices
        )
        # SQLite is committed first; the index catches up, and is repaired from SQLite after a crash.
        self.index.remove(old_ids)
        message = "; ".join(extracted.notices)
        yield ImportProgress(name, "searchable", pages_total, pages_total, message, document_id, unit)
        try:
            yield from self._embed_document(name, document_id, len(drafts), cancel)
        except StorageError as exc:
            # Its text is committed and stays found by keyword; only the vectors could not be written.
            raise VectorsNotStored(exc, file.name) from exc
        yield self._finished(name, document_id, pages_total, message, unit)

    def _finished(self, name: str, document_id: int, pages: int, message: str, unit: str = "pages") -> ImportProgress:
        if self.store.document(document_id) is None:
            return ImportProgress(name, "cancelled", message=f"{Path(name).name} was removed while it was being indexed")
        return ImportProgress(name, "ready", pages, pages, message, document_id, unit)

    def _embed_document(self, name: str, document_id: int, total: int, cancel: threading.Event | None) -> Iterator[ImportProgress]:
        done = total - self.store.pending_count(document_id)
        while True:
            if cancel is not None and cancel.is_set():
                raise ImportCancelled(
                    f"Import cancelled: {Path(name).name} is searchable by keyword; its meaning search is finished on the next import"
                )
            batch = self.store.pending_chunks(self.embed_batch, document_id)
            if not batch:
                return
            self._embed_batch(batch)
            done += len(batch)
            yield ImportProgress(name, "embedding", done, total, document_id=document_id)

    def _embed_batch(self, batch: Sequence[tuple[int, int, str]]) -> None:
        ids = [row[0] for row in batch]
        vectors = self.embedder.embed([row[2] for row in batch])
        stored = set(self.store.set_embeddings(ids, vectors))
        keep = [i for i, chunk_id in enumerate(ids) if chunk_id in stored]  # not those removed meanwhile
        # One batch per call: the index lock is held per call, so a question asked meanwhile never
        # waits for a 2,000-page manual's vectors to be inserted.
        self.index.add([ids[i] for i in keep], vectors[keep])

    def embed_pending(self, cancel: threading.Event | None = None, skip: set[str] = frozenset()) -> Iterator[ImportProgress]:
        """Embed every chunk still without a vector (documents an earlier run left 'embedding').

        Paths in `skip` are about to be imported again: an unchanged one resumes there, a changed one
        is replaced, so embedding its old version would be wasted.
        """
        while True:
            pending = [d for d in self.store.documents() if d.status == "embedding" and d.path not in skip]
            if not pending:
                return
            document = pending[0]
            if self.store.pending_count(document.id) == 0:  # e.g. a document with no chunks left 'embedding'
                self.store.mark_ready(document.id)
                continue
            yield from self._embed_document(document.path, document.id, document.chunks, cancel)
            yield self._finished(document.path, document.id, document.pages, "", f"{document.unit}s")

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
            described = "SQL tables " + ", ".join(f"{n} ({len(t.rows)} row{'s' if len(t.rows) != 1 else ''})" for n, t in zip(names, tables))
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
            document_id, chunk_ids, old_ids = self.store.save_document(name, title, content_hash, pages, 1, drafts, vectors)
            self.index.remove(old_ids)
            self.index.add(chunk_ids, vectors)
            yield ImportProgress(name, "ready", 1, 1, "", document_id)
