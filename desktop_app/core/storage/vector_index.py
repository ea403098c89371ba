"""The hnswlib index on disk, with every hnswlib quirk kept in this one adapter.

Labels are chunk ids. The index is a cache of the vectors stored in SQLite: it records which
embedding model built it, and is rebuilt or repaired from SQLite when it is missing, damaged,
built by another model, or out of step after a crash.

On disk: `chunks.json` (the description) names the data file it describes (`chunks.<stamp>.hnsw`).
A save writes a new data file, fsyncs it, then atomically replaces the description: that rename is
the commit point, so a crash at any moment leaves the old pair or the new pair, never a mix.
Writers and readers in several processes (two windows, a window and the CLI) take a lock file
(filelock: flock on Unix, msvcrt on Windows) around saving and loading, so nobody deletes a data file
another process is reading. Loads take it exclusively too: they are rare and short, and an exclusive
lock is what every platform has.
"""

from __future__ import annotations

import errno
import json
import os
import threading
import time
from collections.abc import Iterable, Iterator
from collections.abc import Set as AbstractSet
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from filelock import FileLock

from ..errors import StorageError
from ..types import SearchHit

M = 16
EF_CONSTRUCTION = 200
# Candidates a search keeps. At 1,000,000 synthetic chunks (bench/vector_scale.py, docs/large-libraries.md)
# recall@10 was 0.86 at 128, 0.95 at 200 and 0.97 at 400, at p95 1.6, 2.3 and 3.4 ms: a library that big
# should find its top 10, and a few milliseconds are nothing beside the answer.
EF_SEARCH = 400
_GROWTH = 1.5
# Scopes up to this many chunks are searched exactly (brute force), larger ones by the filtered graph walk.
# Measured on a 30,000-vector, 384-dimension index (2 cores, k=20): exact 21 ms vs filtered 27 ms at
# 500 allowed, 167 ms vs 22 ms at 2,000; the filtered walk's recall fell to 0.65 at 5,000 random allowed.
EXACT_SCOPE_LIMIT = 1000


@dataclass(frozen=True)
class IndexState:
    model: str
    dimension: int


class VectorIndex:
    def __init__(self, path: Path, state: IndexState):
        self.path = Path(path)
        self.meta_path = self.path.with_suffix(".json")
        self.lock_path = self.path.with_suffix(".lock")
        self._process_lock = FileLock(self.lock_path)
        self.state = state
        self._lock = threading.RLock()  # hnswlib resize/add/mark_deleted must not race a query
        self._index = None
        self._deleted: set[int] = set()  # hnswlib keeps deleted labels in get_ids_list; we track them
        self._dirty = False

    # -- life cycle ----------------------------------------------------------------------------
    def _new(self, capacity: int):
        import hnswlib

        index = hnswlib.Index(space="cosine", dim=self.state.dimension)
        index.init_index(max_elements=max(capacity, 1000), ef_construction=EF_CONSTRUCTION, M=M, allow_replace_deleted=False)
        index.set_ef(EF_SEARCH)
        return index

    @contextmanager
    def _file_lock(self) -> Iterator[None]:
        """Between processes: one saver at a time, and no loader while a saver swaps files."""
        try:
            self._process_lock.acquire()
        except OSError:
            yield  # a read-only folder: loading still works, saving reports the real error
            return
        try:
            yield
        finally:
            self._process_lock.release()

    def _data_path(self, meta: dict) -> Path:
        # Older descriptions have no "file": their data sits at self.path.
        return self.path.with_name(meta.get("file") or self.path.name)

    def load(self) -> str | None:
        """Open the index file. Returns why it could not be used (then the index is empty), or None."""
        with self._lock, self._file_lock():
            return self._load()

    def _load(self) -> str | None:
        import hnswlib

        self._index = None
        self._deleted = set()
        self._dirty = False
        if not self.meta_path.exists():
            self._index = self._new(1000)
            return "missing" if not self._data_files() else "its description file is missing"
        try:
            meta = json.loads(self.meta_path.read_text())
            if not isinstance(meta, dict):
                raise ValueError("not an object")
        except (OSError, ValueError):
            self._index = self._new(1000)
            return "its description file is damaged"
        if meta.get("model") != self.state.model or meta.get("dimension") != self.state.dimension:
            self._index = self._new(1000)
            return f"it was built with another embedding model ({meta.get('model')})"
        data = self._data_path(meta)
        if not data.exists():
            self._index = self._new(1000)
            return "its data file is missing"
        try:
            index = hnswlib.Index(space="cosine", dim=self.state.dimension)
            index.load_index(str(data), max_elements=int(meta.get("capacity", 1000)))
            index.set_ef(EF_SEARCH)
            if index.element_count != meta.get("elements", index.element_count):
                raise ValueError("element count mismatch")
        except Exception:
            self._index = self._new(1000)
            return "it is damaged"
        self._index = index
        self._deleted = set(meta.get("deleted", []))
        return None

    def built_with(self) -> str | None:
        """The embedding model (name/dimension) the index on disk was built with, or None without a readable description."""
        try:
            meta = json.loads(self.meta_path.read_text())
            return f"{meta['model']}/{meta['dimension']}"
        except (OSError, ValueError, KeyError, TypeError):
            return None

    @property
    def data_path(self) -> Path | None:
        """The data file the description currently names (None when there is none)."""
        try:
            path = self._data_path(json.loads(self.meta_path.read_text()))
        except (OSError, ValueError, AttributeError):
            return None
        return path if path.exists() else None

    def _data_files(self) -> list[Path]:
        stem = self.path.stem
        return [p for p in self.path.parent.glob(f"{stem}*{self.path.suffix}") if p.is_file()]

    def save(self) -> None:
        """Write a new data file, then switch the description to it: a crash never leaves half an index.

        A full disk or read-only folder raises StorageError and leaves the previous index in place.
        """
        with self._lock:
            if self._index is None:
                return
            with self._file_lock():
                data = self.path.with_name(f"{self.path.stem}.{time.time_ns():x}{self.path.suffix}")
                meta_tmp = self.meta_path.with_name(self.meta_path.name + ".tmp")
                meta = {
                    "model": self.state.model,
                    "dimension": self.state.dimension,
                    "capacity": self._index.get_max_elements(),
                    "elements": self._index.element_count,
                    "deleted": sorted(self._deleted),
                    "file": data.name,
                }
                try:
                    # hnswlib writes with an unchecked C++ stream: a full disk would leave a short file
                    # silently, so check room first and the size after.
                    need = self._min_file_size()
                    _check_writable(self.path.parent, need)
                    self._index.save_index(str(data))
                    if not data.exists() or data.stat().st_size < need:
                        raise OSError(errno.ENOSPC, "the index file was written short")
                    _fsync_file(data)
                    with open(meta_tmp, "w") as f:
                        f.write(json.dumps(meta))
                        f.flush()
                        os.fsync(f.fileno())
                    os.replace(meta_tmp, self.meta_path)  # the commit point
                    _fsync_dir(self.path.parent)
                except (OSError, RuntimeError) as exc:
                    for leftover in (data, meta_tmp):
                        try:
                            leftover.unlink(missing_ok=True)
                        except OSError:
                            pass
                    raise _save_error(exc, self.path.parent) from exc
                for old in self._data_files():
                    if old != data:
                        try:
                            old.unlink()
                        except OSError:
                            pass  # a stale file wastes space but is never read
            self._dirty = False

    def _min_file_size(self) -> int:
        # Every stored element holds at least its float32 vector and its label.
        return self._index.element_count * (self.state.dimension * 4 + 8)

    @property
    def dirty(self) -> bool:
        return self._dirty

    # -- contents ------------------------------------------------------------------------------
    def ids(self) -> set[int]:
        """Labels present and not deleted."""
        with self._lock:
            if self._index is None or self._index.element_count == 0:
                return set()
            return set(int(x) for x in self._index.get_ids_list()) - self._deleted

    def __len__(self) -> int:
        return len(self.ids())

    def add(self, ids: Iterable[int], vectors: np.ndarray) -> None:
        ids = np.asarray(list(ids), dtype=np.int64)
        if len(ids) == 0:
            return
        vectors = np.asarray(vectors, dtype=np.float32)
        with self._lock:
            needed = self._index.element_count + len(ids)
            if needed > self._index.get_max_elements():
                self._index.resize_index(int(needed * _GROWTH))
            for label in ids.tolist():
                if label in self._deleted:
                    self._index.unmark_deleted(label)
                    self._deleted.discard(label)
            self._index.add_items(vectors, ids, num_threads=1)
            self._dirty = True

    def remove(self, ids: Iterable[int]) -> None:
        with self._lock:
            present = set(int(x) for x in self._index.get_ids_list()) if self._index.element_count else set()
            for label in ids:
                if label in present and label not in self._deleted:
                    self._index.mark_deleted(int(label))
                    self._deleted.add(int(label))
                    self._dirty = True

    def search(self, vector: np.ndarray, k: int, allowed: AbstractSet[int] | None = None) -> list[SearchHit]:
        """The k nearest chunks; with `allowed` (chunk ids, the chosen documents' scope) only among those.

        A small scope is searched exactly, so every chunk in it can be found and k is capped at its size;
        a large one by hnswlib's filtered graph walk, which is fast when many items pass the filter.
        """
        query = np.asarray(vector, dtype=np.float32).reshape(1, -1)
        with self._lock:
            if allowed is not None and len(allowed) <= EXACT_SCOPE_LIMIT:
                return self._exact(query[0], k, allowed)
            live = self._index.element_count - len(self._deleted)
            k = min(k, live)
            if k <= 0:
                return []
            if k > EF_SEARCH:
                self._index.set_ef(k)  # hnswlib needs ef >= k
            kwargs = {"filter": allowed.__contains__} if allowed is not None else {}
            try:
                labels, distances = self._index.knn_query(query, k=k, num_threads=1, **kwargs)
            except RuntimeError:
                # hnswlib raises when its walk finds fewer than k items passing the filter: search exactly.
                if allowed is None:
                    raise
                return self._exact(query[0], k, allowed)
        return [
            SearchHit(chunk_id=int(label), rank=rank, score=float(1.0 - dist))
            for rank, (label, dist) in enumerate(zip(labels[0], distances[0]), start=1)
        ]

    def _exact(self, vector: np.ndarray, k: int, allowed: AbstractSet[int]) -> list[SearchHit]:
        """Brute force over the allowed chunks' vectors as the index holds them (cosine: stored normalised)."""
        labels = self._live_labels(allowed)
        if not labels or k <= 0:
            return []
        vectors = self._index.get_items(labels)
        norm = float(np.linalg.norm(vector)) or 1.0
        scores = np.asarray(vectors, dtype=np.float32) @ (vector / norm)
        order = np.argsort(-scores, kind="stable")[:k]
        return [SearchHit(chunk_id=int(labels[i]), rank=rank, score=float(scores[i])) for rank, i in enumerate(order, start=1)]

    def _live_labels(self, allowed: AbstractSet[int]) -> list[int]:
        """The allowed labels the index holds and has not deleted (a chunk still being embedded is not there yet)."""
        candidates = sorted(int(x) for x in allowed if int(x) not in self._deleted)
        if not candidates:
            return []
        try:
            self._index.get_items(candidates)
            return candidates
        except RuntimeError:  # "Label not found": some are not indexed; keep those that are
            present = {int(x) for x in self._index.get_ids_list()}
            return [x for x in candidates if x in present]

    # -- compaction: hnswlib never frees a deleted label's slot ------------------------------------
    def deleted_share(self) -> float:
        """The share of the index's slots held by deleted labels (re-imports and removals leave them)."""
        with self._lock:
            count = self._index.element_count if self._index is not None else 0
            return len(self._deleted) / count if count else 0.0

    def build(self, batches: Iterable[tuple[list[int], np.ndarray]], capacity: int):
        """A new hnswlib index holding `batches`, built without the lock: questions keep using this one meanwhile."""
        fresh = self._new(capacity)
        for ids, vectors in batches:
            needed = fresh.element_count + len(ids)
            if needed > fresh.get_max_elements():
                fresh.resize_index(int(needed * _GROWTH))
            fresh.add_items(np.asarray(vectors, dtype=np.float32), np.asarray(ids, dtype=np.int64), num_threads=1)
        return fresh

    def swap(self, fresh) -> None:
        """Use an index made by `build` from now on (it has no deleted labels); saving it is the caller's next step."""
        with self._lock:
            self._index = fresh
            self._deleted = set()
            self._dirty = True

    def reset(self, capacity: int) -> None:
        with self._lock:
            self._index = self._new(capacity)
            self._deleted = set()
            self._dirty = True


def _check_writable(folder: Path, need: int) -> None:
    if not os.access(folder, os.W_OK):
        raise OSError(errno.EROFS, "read-only data folder")
    try:
        stats = os.statvfs(folder)
    except (OSError, AttributeError):
        return
    if stats.f_bavail * stats.f_frsize < need + 1_000_000:
        raise OSError(errno.ENOSPC, "no space left for the search index")


def _fsync_file(path: Path) -> None:
    with open(path, "rb") as f:
        os.fsync(f.fileno())


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return  # not possible on every platform; the rename is still atomic
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _save_error(exc: Exception, folder: Path) -> StorageError:
    code = getattr(exc, "errno", None)
    text = str(exc).lower()
    if code == errno.ENOSPC or "no space" in text:
        return StorageError("The disk is full: the search index could not be saved", hint="Free some disk space; your documents are safe and the index is rebuilt from them.")
    if code in (errno.EROFS, errno.EACCES, errno.EPERM) or "read-only" in text:
        return StorageError(f"The data folder {folder} is read-only: the search index could not be saved", hint="Make it writable or set DESKTOP_APP_HOME to another folder.")
    return StorageError(f"The search index could not be saved ({exc})", hint="Your documents are safe; the index is rebuilt from them next time.")
