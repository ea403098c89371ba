"""Importing files and folders: extract, chunk, embed, store, index — one file at a time.

`import_paths` yields ImportProgress events and checks for cancellation between steps.
A file that fails is reported and the batch goes on; a file is committed in one SQLite
transaction, so an interruption leaves it either fully present or absent.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

from .chunking import chunk_pages
from .embedder import Embedder
from .errors import AppError, ImportCancelled
from .extraction import extract, is_supported
from .store import Store
from .types import ImportProgress
from .vector_index import VectorIndex

EMBED_BATCH = 64
INDEX_SAVE_INTERVAL_S = 30.0
INDEX_ADD_SLICE = 256


def collect_files(paths: Iterable[Path | str]) -> list[Path]:
    """Supported files under the given files and folders (recursively), each once, in a stable order."""
    out: dict[str, Path] = {}
    for raw in paths:
        path = Path(raw).expanduser()
        if path.is_dir():
            for file in sorted(path.rglob("*")):
                if file.is_file() and is_supported(file) and not file.name.startswith("."):
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
    def __init__(self, store: Store, index: VectorIndex, embedder: Embedder, embed_batch: int = EMBED_BATCH, extraction_workers: int = 1):
        self.store = store
        self.index = index
        self.embedder = embedder
        self.embed_batch = embed_batch
        self.extraction_workers = extraction_workers

    def import_paths(
        self,
        paths: Iterable[Path | str],
        passwords: dict[str, str] | None = None,
        cancel: threading.Event | None = None,
    ) -> Iterator[ImportProgress]:
        passwords = passwords or {}
        files = collect_files(paths)
        for file in files:
            yield ImportProgress(str(file), "queued")
        last_save = time.monotonic()
        try:
            for position, file in enumerate(files):
                if cancel is not None and cancel.is_set():
                    for rest in files[position:]:
                        yield ImportProgress(str(rest), "cancelled", message="Import cancelled")
                    return
                try:
                    yield from self._import_file(file, passwords.get(str(file)) or passwords.get(file.name), cancel)
                except ImportCancelled:
                    for rest in files[position:]:
                        yield ImportProgress(str(rest), "cancelled", message="Import cancelled")
                    return
                except AppError as exc:
                    yield ImportProgress(str(file), "failed", message=exc.user_message())
                except Exception as exc:  # one file's surprise must not stop the batch
                    yield ImportProgress(str(file), "failed", message=f"{file.name} could not be imported: unexpected error ({exc!r})")
                if self.index.dirty and time.monotonic() - last_save > INDEX_SAVE_INTERVAL_S:
                    self.index.save()
                    last_save = time.monotonic()
        finally:
            if self.index.dirty:
                self.index.save()

    def _import_file(self, file: Path, password: str | None, cancel: threading.Event | None) -> Iterator[ImportProgress]:
        name = str(file)
        if not file.exists():
            yield ImportProgress(name, "failed", message=f"{file.name} no longer exists. Check the path and import it again.")
            return
        if not is_supported(file):
            yield ImportProgress(name, "failed", message=f"{file.name} is not a PDF, .txt or .md file. Only those can be imported.")
            return
        content_hash = file_hash(file)
        existing = self.store.document_by_path(name)
        if existing and existing[1] == content_hash and existing[0].status == "ready":
            yield ImportProgress(name, "skipped", existing[0].pages, existing[0].pages, "unchanged, already in the library", existing[0].id)
            return
        yield ImportProgress(name, "extracting", 0, 0)
        extracted = extract(file, password, self.extraction_workers)
        pages_total = extracted.page_count
        yield ImportProgress(name, "extracting", pages_total, pages_total)
        drafts = chunk_pages(p for p in extracted.pages if p.text.strip())
        vectors = []
        for start in range(0, len(drafts), self.embed_batch):
            if cancel is not None and cancel.is_set():
                raise ImportCancelled("Import cancelled")
            batch = drafts[start : start + self.embed_batch]
            vectors.append(self.embedder.embed([d.text for d in batch]))
            yield ImportProgress(name, "embedding", start + len(batch), len(drafts))
        if cancel is not None and cancel.is_set():
            raise ImportCancelled("Import cancelled")
        import numpy as np

        matrix = np.vstack(vectors) if vectors else np.zeros((0, self.embedder.dimension), dtype=np.float32)
        document_id, chunk_ids, old_ids = self.store.save_document(
            name, extracted.title, content_hash, extracted.pages, pages_total, drafts, matrix, extracted.notices
        )
        # SQLite is committed first; the index catches up, and is repaired from SQLite after a crash.
        self.index.remove(old_ids)
        # In slices: the index lock is held per call, and a question asked meanwhile must not wait
        # for all of a 2,000-page manual's vectors to be inserted.
        for start in range(0, len(chunk_ids), INDEX_ADD_SLICE):
            self.index.add(chunk_ids[start : start + INDEX_ADD_SLICE], matrix[start : start + INDEX_ADD_SLICE])
        message = "; ".join(extracted.notices)
        yield ImportProgress(name, "ready", pages_total, pages_total, message, document_id)
