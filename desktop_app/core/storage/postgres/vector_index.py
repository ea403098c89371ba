"""The vector index of a PostgreSQL library: pgvector's HNSW index on the chunks' vectors.

It has VectorIndex's interface (../vector_index.py) for the search and the embedding queue; there is no
file to load, save or keep level with the database, because the vectors stored are the index.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from pathlib import Path

import numpy as np

from ...types import SearchHit
from .chunks import scope_filter
from .store import PgStore

# A scope this small is searched exactly (every passage in it can be found), as the hnswlib index does.
EXACT_SCOPE_LIMIT = 2000
# Candidates the graph walk keeps; at least k. pgvector's default is 40. At 1,000,000 synthetic chunks (the graph
# of chunks.HNSW_OPTIONS; bench/vector_scale.py, docs/large-libraries.md) recall@10 was 0.65 at 40, 0.87 at 100,
# 0.95 at 200 and 0.98 at 400, at p95 21, 32, 47 and 79 ms: 400 keeps the target (0.95) with room to spare.
EF_SEARCH = 400


class PgVectorIndex:
    in_database = True  # Library: nothing to load, save, mirror or compact
    dirty = False

    def __init__(self, store: PgStore, dimension: int):
        self.store = store
        self.dimension = dimension
        self.path = Path(".")  # the embedding queue names the index's folder only when a file cannot be saved

    def load(self) -> str | None:
        return None

    def built_with(self) -> str | None:
        return None

    def save(self) -> None:
        """Nothing to write: each batch of vectors was committed with its chunks."""

    def add(self, ids: Iterable[int], vectors: np.ndarray) -> None:
        """Nothing to add: set_embeddings stored the vectors, and the HNSW index took them in."""

    def remove(self, ids: Iterable[int]) -> None:
        """Nothing to remove: deleted chunks leave the index with their rows."""

    def deleted_share(self) -> float:
        return 0.0

    def __len__(self) -> int:
        return self.store.chunk_count() - self.store.pending_count()

    def search(self, vector: np.ndarray, k: int, allowed: AbstractSet[int] | None = None) -> list[SearchHit]:
        """The k nearest chunks by cosine distance; with `allowed`, among those chunks only."""
        query = np.asarray(vector, dtype=np.float32).reshape(-1)
        if k <= 0 or (allowed is not None and not allowed):
            return []
        with self.store.transaction() as conn:
            # SET LOCAL: for this transaction only, on this thread's connection.
            conn.execute(f"SET LOCAL hnsw.ef_search = {max(EF_SEARCH, int(k))}")
            if allowed is None:
                rows = conn.execute(
                    "SELECT id, 1 - (embedding <=> %s) FROM chunks WHERE embedding IS NOT NULL AND NOT navigation ORDER BY embedding <=> %s LIMIT %s", (query, query, k)
                ).fetchall()
            elif len(allowed) <= EXACT_SCOPE_LIMIT:
                # Exact: the scope's rows by their ids, then sorted by distance (no graph walk to miss one).
                rows = conn.execute(
                    "SELECT id, 1 - (embedding <=> %s) AS score FROM chunks WHERE id = ANY(%s) AND embedding IS NOT NULL AND NOT navigation ORDER BY score DESC, id LIMIT %s",
                    (query, sorted(int(i) for i in allowed), k),
                ).fetchall()
            else:
                # A large scope: the graph walk with the filter, going on past the first candidates until k pass it
                # (pgvector's iterative scan); relaxed order is put back in order here.
                conn.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
                condition, value = scope_filter(allowed)  # by documents when the scope knows them: a short list
                rows = conn.execute(
                    f"WITH found AS MATERIALIZED (SELECT id, embedding <=> %s AS distance FROM chunks WHERE {condition} AND embedding IS NOT NULL AND NOT navigation "
                    "ORDER BY embedding <=> %s LIMIT %s) SELECT id, 1 - distance FROM found ORDER BY distance, id",
                    (query, value, query, k),
                ).fetchall()
        return [SearchHit(chunk_id=int(chunk_id), rank=rank, score=float(score)) for rank, (chunk_id, score) in enumerate(rows, start=1)]
