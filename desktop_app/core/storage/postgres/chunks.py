"""Chunks in PostgreSQL: their vectors (a pgvector column with an HNSW index), passages, and full-text keyword search.

The SQLite twin is ../chunks.py. Here the vectors are the index: there is no separate file to keep level,
so what the embedding queue stores is searchable by every process at once.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

import numpy as np

from ...types import Passage, SearchHit
from ...word_pieces import spaced
from ...words import heading_names
from ..chunks import DROP_VECTORS, EMBEDDING_MODEL_KEY, REQUEUE_DOCUMENTS, _bbox_value, any_passage_holds, content_words, hyphened, other_spellings
from .database import PgDatabase

# The graph of the laptop's hnswlib index (../vector_index.py: M 16, ef_construction 200), not pgvector's default
# ef_construction 64: at 1,000,000 chunks that graph found 0.87 of the true top 10 even at ef_search 800, this one
# 0.98 at ef_search 400 (bench/vector_scale.py, docs/large-libraries.md). Each insert costs about 3 times more.
HNSW_OPTIONS = "m = 16, ef_construction = 200"


class ChunkScope(set):
    """The chunk ids of some documents, remembering the documents: a search filters by those (a short list)
    rather than sending tens of thousands of chunk ids with every query."""

    def __init__(self, chunk_ids: Iterable[int], documents: Iterable[int]):
        super().__init__(chunk_ids)
        self.documents = sorted({int(d) for d in documents})


def scope_filter(allowed: set[int]) -> tuple[str, list[int]]:
    """The SQL condition and its argument that keep a search inside `allowed`."""
    documents = getattr(allowed, "documents", None)
    if documents is not None:
        return "document_id = ANY(%s)", documents
    return "id = ANY(%s)", sorted(int(i) for i in allowed)


def _array(vector) -> np.ndarray:
    """pgvector's Vector (its Python package's type for the column) as float32."""
    return np.asarray(vector.to_numpy() if hasattr(vector, "to_numpy") else vector, dtype=np.float32)


def model_dimension(model: str) -> int | None:
    """The vectors' length in a recorded "name/dimension"."""
    _, _, dimension = model.rpartition("/")
    return int(dimension) if dimension.isdigit() else None


class PgChunkStore(PgDatabase):
    # -- embeddings ----------------------------------------------------------------------------
    def pending_chunks(self, limit: int, document_id: int | None = None) -> list[tuple[int, int, str]]:
        if document_id is None:
            return self.rows("SELECT id, document_id, text FROM chunks WHERE embedding IS NULL ORDER BY id LIMIT %s", (limit,))
        return self.rows("SELECT id, document_id, text FROM chunks WHERE embedding IS NULL AND document_id = %s ORDER BY id LIMIT %s", (document_id, limit))

    def pending_count(self, document_id: int | None = None) -> int:
        if document_id is None:
            return self.value("SELECT count(*) FROM chunks WHERE embedding IS NULL")
        return self.value("SELECT count(*) FROM chunks WHERE embedding IS NULL AND document_id = %s", (document_id,))

    def pending_among(self, chunk_ids: Iterable[int]) -> set[int]:
        return {r[0] for r in self.rows("SELECT id FROM chunks WHERE embedding IS NULL AND id = ANY(%s)", ([int(i) for i in chunk_ids],))}

    def embeddings_of(self, chunk_ids: Iterable[int]) -> dict[int, np.ndarray]:
        rows = self.rows("SELECT id, embedding FROM chunks WHERE embedding IS NOT NULL AND id = ANY(%s)", ([int(i) for i in chunk_ids],))
        return {chunk_id: _array(vector) for chunk_id, vector in rows}

    def set_embeddings(self, chunk_ids: Sequence[int], embeddings: np.ndarray) -> list[int]:
        if not chunk_ids:
            return []
        vectors = np.asarray(embeddings, dtype=np.float32)
        with self.transaction() as conn:
            # Rows locked in id order: two processes embedding the same waiting chunks never deadlock.
            rows = conn.execute("SELECT id, document_id, navigation FROM chunks WHERE id = ANY(%s) ORDER BY id FOR UPDATE", ([int(i) for i in chunk_ids],)).fetchall()
            with conn.cursor() as cur:
                cur.executemany("UPDATE chunks SET embedding = %s WHERE id = %s", [(v, int(i)) for i, v in zip(chunk_ids, vectors)])
            for document_id in sorted({r[1] for r in rows}):
                conn.execute(
                    "UPDATE documents SET status = 'ready' WHERE id = %s AND status = 'embedding' "
                    "AND NOT EXISTS (SELECT 1 FROM chunks WHERE document_id = %s AND embedding IS NULL)",
                    (document_id, document_id),
                )
        return [r[0] for r in rows if not r[2]]  # index and contents passages are found by keyword only

    def embeddings(self, chunk_ids: Sequence[int] | None = None, batch: int = 10_000) -> Iterator[tuple[list[int], np.ndarray]]:
        last = 0
        while True:
            if chunk_ids is None:
                rows = self.rows("SELECT id, embedding FROM chunks WHERE id > %s AND embedding IS NOT NULL AND NOT navigation ORDER BY id LIMIT %s", (last, batch))
            else:
                ids = [int(i) for i in chunk_ids if int(i) > last][:batch]
                rows = self.rows("SELECT id, embedding FROM chunks WHERE id = ANY(%s) AND embedding IS NOT NULL ORDER BY id", (ids,)) if ids else []
            if not rows:
                return
            last = rows[-1][0]
            yield [r[0] for r in rows], np.vstack([_array(r[1]) for r in rows])

    # -- which model made the vectors ----------------------------------------------------------
    def embedding_model(self) -> str | None:
        return self.get_meta(EMBEDDING_MODEL_KEY)

    def use_embedding_model(self, model: str) -> int:
        """As in SQLite, and the vector column takes the model's length, with a new HNSW index for it."""
        dimension = model_dimension(model)
        with self.transaction() as conn:
            conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (EMBEDDING_MODEL_KEY,))
            row = conn.execute("SELECT value FROM meta WHERE key = %s", (EMBEDDING_MODEL_KEY,)).fetchone()
            if row is not None and row[0] == model:
                return 0
            dropped = 0
            if row is not None:
                dropped = conn.execute(DROP_VECTORS).rowcount
                conn.execute(REQUEUE_DOCUMENTS)
            conn.execute("DROP INDEX IF EXISTS chunks_embedding_hnsw")
            if dimension:
                # Every vector is NULL now (or there were none): the type changes without converting any.
                conn.execute(f"ALTER TABLE chunks ALTER COLUMN embedding TYPE vector({dimension})")
                conn.execute(f"CREATE INDEX chunks_embedding_hnsw ON chunks USING hnsw (embedding vector_cosine_ops) WITH ({HNSW_OPTIONS})")
            conn.execute(
                "INSERT INTO meta(key, value) VALUES (%s, %s) ON CONFLICT (key) DO UPDATE SET value = excluded.value", (EMBEDDING_MODEL_KEY, model)
            )
            return dropped

    # -- chunks --------------------------------------------------------------------------------
    def chunk_ids(self) -> list[int]:
        return [r[0] for r in self.rows("SELECT id FROM chunks ORDER BY id")]

    def embedded_chunk_ids(self) -> list[int]:
        return [r[0] for r in self.rows("SELECT id FROM chunks WHERE embedding IS NOT NULL AND NOT navigation ORDER BY id")]

    def chunks_fingerprint(self) -> tuple[int, int, int]:
        count, last = self.rows("SELECT count(*), coalesce(max(id), 0) FROM chunks")[0]
        return count, last, self.pending_count()

    def chunk_count(self) -> int:
        return self.value("SELECT count(*) FROM chunks")

    def chunk_ids_in(self, document_ids: Iterable[int] | None, pages: Sequence[tuple[int, int]] = ()) -> set[int]:
        """The chunks of these documents (None: of every document) on these pages (first, last; none: on any).
        Whole documents come back as a ChunkScope, so the search filters by the documents (a short list)."""
        if not pages:
            return self.chunk_ids_of_documents(document_ids) if document_ids is not None else set(self.chunk_ids())
        sql, args = "SELECT id FROM chunks WHERE (" + " OR ".join("page BETWEEN %s AND %s" for _ in pages) + ")", [n for span in pages for n in span]
        if document_ids is not None:
            sql += " AND document_id = ANY(%s)"
            args.append([int(i) for i in document_ids])
        return {r[0] for r in self.rows(sql, args)}

    def chunk_ids_of_documents(self, document_ids: Iterable[int]) -> ChunkScope:
        documents = [int(i) for i in document_ids]
        return ChunkScope((r[0] for r in self.rows("SELECT id FROM chunks WHERE document_id = ANY(%s)", (documents,))), documents)

    def passages(self, chunk_ids: Iterable[int]) -> dict[int, Passage]:
        rows = self.rows(
            'SELECT c.id, c.document_id, d.path, d.title, c.page, c.start, c."end", c.text, coalesce(p.ocr, false), c.kind, c.bbox, p.section '
            "FROM chunks c JOIN documents d ON d.id = c.document_id "
            "LEFT JOIN pages p ON p.document_id = c.document_id AND p.number = c.page WHERE c.id = ANY(%s)",
            ([int(i) for i in chunk_ids],),
        )
        return {r[0]: Passage(*r[:8], ocr=bool(r[8]), kind=r[9], bbox=_bbox_value(r[10]), section=r[11]) for r in rows}

    # -- keyword search ------------------------------------------------------------------------
    def mentioned_words(self, words: Iterable[str]) -> set[str]:
        """Those of `words` that some passage of the library holds (as keyword search matches them)."""
        return {w for w in words if self.holds_together([w], 1)}

    def heading_names(self, words: Iterable[str]) -> set[str]:
        """Those of `words` that a section heading of the library writes as a code's last part (words.heading_names)."""
        words = [w for w in words if w.isalnum()]  # a word holds none of ILIKE's wildcards
        if not words:
            return set()
        rows = self.rows("SELECT DISTINCT section FROM pages WHERE " + " OR ".join("section ILIKE %s" for _ in words), [f"%.{w}%" for w in words])
        return heading_names(words, (r[0] for r in rows))

    def holds_together(self, words: Sequence[str], least: int, anchors: Sequence[str] = ()) -> bool:
        """Some passage holds at least `least` of `words` and, given `anchors`, one of them (plainto_tsquery ANDs words)."""
        either = " AND words @@ (" + " || ".join(["plainto_tsquery('simple', %s)"] * len(anchors)) + ")" if anchors else ""

        def holds_all(some: Sequence[str]) -> bool:
            sql = "SELECT 1 FROM chunks WHERE words @@ plainto_tsquery('simple', %s)" + either + " LIMIT 1"
            return bool(self.rows(sql, [" ".join(spaced(w) for w in some), *(spaced(a) for a in anchors)]))

        return any_passage_holds(holds_all, words, least)

    def keyword_search(self, query: str, limit: int, allowed: Iterable[int] | None = None, navigation: bool = True) -> list[SearchHit]:
        """Full-text search with the query's content words OR-ed, best ts_rank_cd first.

        Each word becomes a tsquery of its own (plainto_tsquery: no operators, any script), joined by OR.
        """
        words = content_words(query)
        if not words:
            return []
        # Each spelling is a phrase. The parser reads "RS-485" as "rs" and the signed number "-485": a phrase of a code's
        # parts is looked for both with a space and with a hyphen, and the query's own hyphened compounds as written.
        spellings = list(dict.fromkeys([*(p for s in other_spellings(query) for p in (s, s.replace(" ", "-"))), *hyphened(query)]))
        terms = " || ".join(["plainto_tsquery('simple', %s)"] * len(words) + ["phraseto_tsquery('simple', %s)"] * len(spellings))
        sql = f"SELECT id, ts_rank_cd(words, q) FROM chunks, ({'SELECT ' + terms}) AS t(q) WHERE words @@ q"
        args: list[object] = [*words, *spellings]
        if allowed is not None:
            condition, value = scope_filter(allowed)
            sql += " AND " + condition
            args.append(value)
        if not navigation:  # index and contents passages (chunks.navigation) share a question's words and say nothing
            sql += " AND NOT navigation"
        rows = self.rows(sql + " ORDER BY 2 DESC, id LIMIT %s", [*args, limit])
        return [SearchHit(chunk_id=chunk_id, rank=rank, score=float(score)) for rank, (chunk_id, score) in enumerate(rows, start=1)]
