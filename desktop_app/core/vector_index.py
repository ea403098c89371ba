"""The hnswlib index on disk, with every hnswlib quirk kept in this one adapter.

Labels are chunk ids. The index is a cache of the vectors stored in SQLite: it records which
embedding model built it, and is rebuilt or repaired from SQLite when it is missing, damaged,
built by another model, or out of step after a crash.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .types import SearchHit

M = 16
EF_CONSTRUCTION = 200
EF_SEARCH = 128
_GROWTH = 1.5


@dataclass(frozen=True)
class IndexState:
    model: str
    dimension: int


class VectorIndex:
    def __init__(self, path: Path, state: IndexState):
        self.path = Path(path)
        self.meta_path = self.path.with_suffix(".json")
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

    def load(self) -> str | None:
        """Open the index file. Returns why it could not be used (then the index is empty), or None."""
        import hnswlib

        with self._lock:
            self._index = None
            self._deleted = set()
            if not self.path.exists() or not self.meta_path.exists():
                self._index = self._new(1000)
                return "missing" if not self.path.exists() else "its description file is missing"
            try:
                meta = json.loads(self.meta_path.read_text())
            except (OSError, ValueError):
                self._index = self._new(1000)
                return "its description file is damaged"
            if meta.get("model") != self.state.model or meta.get("dimension") != self.state.dimension:
                self._index = self._new(1000)
                return f"it was built with another embedding model ({meta.get('model')})"
            try:
                index = hnswlib.Index(space="cosine", dim=self.state.dimension)
                index.load_index(str(self.path), max_elements=int(meta.get("capacity", 1000)))
                index.set_ef(EF_SEARCH)
                if index.element_count != meta.get("elements", index.element_count):
                    raise ValueError("element count mismatch")
            except Exception:
                self._index = self._new(1000)
                return "it is damaged"
            self._index = index
            self._deleted = set(meta.get("deleted", []))
            return None

    def save(self) -> None:
        """Write to a temporary file and rename, so a crash never leaves half an index."""
        with self._lock:
            if self._index is None:
                return
            tmp = self.path.with_name(self.path.name + ".tmp")
            self._index.save_index(str(tmp))
            with open(tmp, "rb") as f:
                os.fsync(f.fileno())
            meta = {
                "model": self.state.model,
                "dimension": self.state.dimension,
                "capacity": self._index.get_max_elements(),
                "elements": self._index.element_count,
                "deleted": sorted(self._deleted),
            }
            meta_tmp = self.meta_path.with_name(self.meta_path.name + ".tmp")
            meta_tmp.write_text(json.dumps(meta))
            # The description goes last: an index without a matching description is treated as damaged.
            self.meta_path.unlink(missing_ok=True)
            os.replace(tmp, self.path)
            os.replace(meta_tmp, self.meta_path)
            self._dirty = False

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

    def search(self, vector: np.ndarray, k: int, allowed: Callable[[int], bool] | None = None) -> list[SearchHit]:
        with self._lock:
            live = self._index.element_count - len(self._deleted)
            k = min(k, live)
            if k <= 0:
                return []
            if k > EF_SEARCH:
                self._index.set_ef(k)  # hnswlib needs ef >= k
            kwargs = {"filter": allowed} if allowed is not None else {}
            try:
                labels, distances = self._index.knn_query(np.asarray(vector, dtype=np.float32).reshape(1, -1), k=k, num_threads=1, **kwargs)
            except RuntimeError:
                # hnswlib raises when fewer than k items pass the filter; ask again for what there is.
                if allowed is None:
                    raise
                return self._filtered_fallback(vector, k, allowed)
        return [
            SearchHit(chunk_id=int(label), rank=rank, score=float(1.0 - dist))
            for rank, (label, dist) in enumerate(zip(labels[0], distances[0]), start=1)
        ]

    def _filtered_fallback(self, vector: np.ndarray, k: int, allowed: Callable[[int], bool]) -> list[SearchHit]:
        while k > 1:
            k = max(1, k // 2)
            try:
                labels, distances = self._index.knn_query(np.asarray(vector, dtype=np.float32).reshape(1, -1), k=k, num_threads=1, filter=allowed)
                return [SearchHit(int(l), r, float(1.0 - d)) for r, (l, d) in enumerate(zip(labels[0], distances[0]), start=1)]
            except RuntimeError:
                continue
        return []

    def reset(self, capacity: int) -> None:
        with self._lock:
            self._index = self._new(capacity)
            self._deleted = set()
            self._dirty = True
