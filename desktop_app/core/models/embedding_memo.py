"""An embedder that keeps the vectors of the texts it embedded last, for one pipeline.

An answer's review compares each claim with the sentences of the passages the model read (answers/review.py),
most of which the evidence stage embedded a few seconds before (retrieval/evidence.py). Embedding them again cost
the review about 90 ms of its median 670 ms on the R manuals, on 2 cores (docs/performance.md). Vectors are kept by
the text as the embedders read it (whitespace collapsed), so the same sentence cut from two line breaks is one
text; a bounded number of texts is kept, the least recently used dropped first.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from .embedder import Embedder

CAPACITY = 2048  # texts: about 3 MB of 384-number vectors, many questions' evidence and answers


class EmbeddingMemo:
    def __init__(self, embedder: Embedder, capacity: int = CAPACITY):
        self.embedder = embedder
        self.name, self.dimension = embedder.name, embedder.dimension
        self.capacity = capacity
        self._vectors: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    @classmethod
    def around(cls, embedder: Embedder | None) -> EmbeddingMemo | None:
        """`embedder` with a memo; one that has one already is returned as it is (its memo shared), None as None."""
        return embedder if embedder is None or isinstance(embedder, EmbeddingMemo) else cls(embedder)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        keys = [" ".join(t.split()) for t in texts]
        with self._lock:  # the vectors held now: another thread may drop them from the memo while these are embedded
            found = {k: self._vectors[k] for k in keys if k in self._vectors}
        missing = list(dict.fromkeys(k for k in keys if k not in found))
        found.update(zip(missing, self.embedder.embed(missing)) if missing else ())  # unlocked: other threads need not wait
        with self._lock:
            for key in dict.fromkeys(keys):
                self._vectors[key] = found[key]
                self._vectors.move_to_end(key)
            while len(self._vectors) > self.capacity:
                self._vectors.popitem(last=False)
        return np.stack([found[k] for k in keys]).astype(np.float32, copy=False)

    def __getattr__(self, name: str):  # load(), loaded, batch_size ...: the wrapped embedder's
        return getattr(self.embedder, name)
