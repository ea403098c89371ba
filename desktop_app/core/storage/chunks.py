"""Chunks: their embeddings (stored with them, the source the vector index is rebuilt from), passages, keyword search."""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable, Iterable, Iterator, Sequence

import numpy as np

from ..stopwords import FUNCTION_WORDS
from ..types import Passage, SearchHit
from ..word_pieces import is_spaceless, plain_letters, spaced
from ..words import DASHES, OPTION, heading_names
from .database import Database

# Besides the function words: more pronouns and auxiliaries, and the verbs of a request ("tell", "list"), which no passage needs to contain.
_STOPWORDS = FUNCTION_WORDS | frozenset("but had has have i if me my our she whom why more most other describe explain give list name tell".split())
# Ids go to SQLite as one JSON array (json_each) instead of one host parameter each: no batching by
# SQLite's parameter limit, whatever the number of ids.
_IDS = "(SELECT value FROM json_each(?))"


def id_list(ids: Iterable[int]) -> str:
    return json.dumps([int(i) for i in ids])


def bbox_text(bbox: tuple[float, float, float, float] | None) -> str | None:
    return None if bbox is None else ",".join(f"{v:.2f}" for v in bbox)


def _bbox_value(text: str | None) -> tuple[float, float, float, float] | None:
    return None if not text else tuple(float(v) for v in text.split(","))


def _vectors(rows: Sequence[tuple[int, bytes]]) -> np.ndarray:
    return np.vstack([np.frombuffer(r[1], dtype=np.float32) for r in rows])


def content_words(query: str) -> list[str]:
    """The query's words that say what it is about: stopwords and single letters out (but a letter written as an option,
    "-k": the line of a manual it names), each once. A run of a script written without spaces (Chinese, Japanese, Thai ...)
    gives its pairs, the tokens the index holds (word_pieces.keyword_text)."""
    found = re.findall(rf"{OPTION.pattern}|\w+", spaced(plain_letters(query).translate(DASHES)).lower())
    words = [w.lstrip("-") for w in found if w.startswith("-") or w not in _STOPWORDS and (len(w) > 1 or is_spaceless(w))]
    return list(dict.fromkeys(words))


# A compound of letters and digits joined by hyphens ("SHA-256", "RS-485", "e-mail"), and a word that runs letters and
# digits together ("SHA256", "IP67", "utf8"): a manual writes one way what a question writes the other.
_HYPHENED = re.compile(r"\w+(?:-\w+)+")
_LETTERS_OR_DIGITS = re.compile(r"[^\W\d_]+|\d+")


def hyphened(query: str) -> list[str]:
    """The query's hyphened compounds as written ("sha-256"): PostgreSQL's parser reads "SHA-256" as "sha" and the signed
    number "-256", so the query's "256" alone never matches it; the compound, parsed the same way, does."""
    found = _HYPHENED.findall(plain_letters(query).translate(DASHES).lower())
    return [compound for compound in dict.fromkeys(found) if not is_spaceless(compound)]


def other_spellings(query: str) -> list[str]:
    """The query's compounds as a passage may write them instead, for keyword search beside its words: a hyphened
    compound joined ("SHA-256" -> "sha256"), a word running letters and digits together as the phrase of its parts
    ("SHA256" -> "sha 256", which the index holds for "SHA-256" and "SHA 256"). Not for scripts written without spaces,
    whose pieces are pairs of characters."""
    found = [compound.replace("-", "") for compound in hyphened(query) if re.search(r"[^\W\d_]", compound)]
    for word in re.findall(r"\w+", plain_letters(query).lower()):
        parts = _LETTERS_OR_DIGITS.findall(word)
        if 1 < len(parts) <= 4 and not parts[0][0].isdigit() and "_" not in word and not is_spaceless(word):
            found.append(" ".join(parts))
    return [spelling for spelling in dict.fromkeys(found) if spelling not in _STOPWORDS]


def any_passage_holds(holds_all: Callable[[Sequence[str]], bool], words: Sequence[str], least: int) -> bool:
    """Some passage holds at least `least` of `words`: `holds_all(some)` asks the index about one choice of them at a time
    (a handful of queries for a name of a few words)."""
    return any(holds_all(some) for some in itertools.combinations(dict.fromkeys(words), max(least, 1)))


EMBEDDING_MODEL_KEY = "embedding_model"
# Another embedding model: every vector goes, and each document that had passages waits for the embedding queue again.
DROP_VECTORS = "UPDATE chunks SET embedding = NULL WHERE embedding IS NOT NULL"
REQUEUE_DOCUMENTS = (
    "UPDATE documents SET status = 'embedding' WHERE status = 'ready' AND EXISTS (SELECT 1 FROM chunks WHERE chunks.document_id = documents.id)"
)


class ChunkStore(Database):
    # -- embeddings ----------------------------------------------------------------------------
    def pending_chunks(self, limit: int, document_id: int | None = None) -> list[tuple[int, int, str]]:
        """(chunk id, document id, text) of chunks still waiting for an embedding, oldest first."""
        if document_id is None:
            sql, args = "SELECT id, document_id, text FROM chunks WHERE embedding IS NULL ORDER BY id LIMIT ?", (limit,)
        else:
            sql = "SELECT id, document_id, text FROM chunks WHERE embedding IS NULL AND document_id = ? ORDER BY id LIMIT ?"
            args = (document_id, limit)
        return [tuple(r) for r in self.conn.execute(sql, args)]

    def pending_count(self, document_id: int | None = None) -> int:
        if document_id is None:
            return self.conn.execute("SELECT count(*) FROM chunks WHERE embedding IS NULL").fetchone()[0]
        return self.conn.execute("SELECT count(*) FROM chunks WHERE embedding IS NULL AND document_id = ?", (document_id,)).fetchone()[0]

    def pending_among(self, chunk_ids: Iterable[int]) -> set[int]:
        return {r[0] for r in self.conn.execute(f"SELECT id FROM chunks WHERE embedding IS NULL AND id IN {_IDS}", (id_list(chunk_ids),))}

    def embeddings_of(self, chunk_ids: Iterable[int]) -> dict[int, np.ndarray]:
        """Stored vectors by chunk id; chunks still waiting for theirs are left out."""
        rows = self.conn.execute(f"SELECT id, embedding FROM chunks WHERE embedding IS NOT NULL AND id IN {_IDS}", (id_list(chunk_ids),))
        return {chunk_id: np.frombuffer(blob, dtype=np.float32) for chunk_id, blob in rows}

    def set_embeddings(self, chunk_ids: Sequence[int], embeddings: np.ndarray) -> list[int]:
        """Store vectors for chunks (one transaction); returns the ids the vector index should take.

        A chunk deleted meanwhile (its document removed or replaced) matches no row and is left out,
        so it is not put back into the vector index; so is a navigation chunk (index or contents entries),
        which keeps its vector (the "not found" gate compares it with the question) but is found by keyword only.
        A document whose last chunk got its vector is 'ready'.
        """
        if not chunk_ids:
            return []
        vectors = np.asarray(embeddings, dtype=np.float32)
        with self.transaction() as conn:
            rows = conn.execute(f"SELECT id, document_id, navigation FROM chunks WHERE id IN {_IDS}", (id_list(chunk_ids),)).fetchall()
            conn.executemany("UPDATE chunks SET embedding = ? WHERE id = ?", [(v.tobytes(), i) for i, v in zip(chunk_ids, vectors)])
            for document_id in {r[1] for r in rows}:
                if conn.execute("SELECT 1 FROM chunks WHERE document_id = ? AND embedding IS NULL LIMIT 1", (document_id,)).fetchone() is None:
                    conn.execute("UPDATE documents SET status = 'ready' WHERE id = ? AND status = 'embedding'", (document_id,))
        return [r[0] for r in rows if not r[2]]

    def embeddings(self, chunk_ids: Sequence[int] | None = None, batch: int = 10_000) -> Iterator[tuple[list[int], np.ndarray]]:
        """Stored vectors in batches, for rebuilding the index without re-embedding (all: those it should hold)."""
        if chunk_ids is None:
            last = 0
            while True:
                rows = self.conn.execute(
                    "SELECT id, embedding FROM chunks WHERE id > ? AND embedding IS NOT NULL AND navigation = 0 ORDER BY id LIMIT ?", (last, batch)
                ).fetchall()
                if not rows:
                    return
                last = rows[-1][0]
                yield [r[0] for r in rows], _vectors(rows)
        else:
            ids = list(chunk_ids)
            for start in range(0, len(ids), batch):
                rows = self.conn.execute(
                    f"SELECT id, embedding FROM chunks WHERE id IN {_IDS} AND embedding IS NOT NULL", (id_list(ids[start : start + batch]),)
                ).fetchall()
                if rows:
                    yield [r[0] for r in rows], _vectors(rows)

    # -- which model made the vectors ----------------------------------------------------------
    def embedding_model(self) -> str | None:
        """The embedding model (name/dimension) that made the stored vectors; None in a library made before it was kept."""
        return self.get_meta(EMBEDDING_MODEL_KEY)

    def use_embedding_model(self, model: str) -> int:
        """Record `model` as the one making the vectors; vectors another model made are dropped for re-embedding.

        One transaction: the chunks lose their vectors and their documents go back to 'embedding', so the
        pending-embedding mechanism re-embeds them in the background and keyword search finds them meanwhile.
        Returns how many chunks wait for a new vector.
        """
        with self.transaction() as conn:
            row = conn.execute("SELECT value FROM meta WHERE key = ?", (EMBEDDING_MODEL_KEY,)).fetchone()
            if row is not None and row[0] == model:
                return 0
            dropped = 0
            if row is not None:
                dropped = conn.execute(DROP_VECTORS).rowcount
                conn.execute(REQUEUE_DOCUMENTS)
            conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (EMBEDDING_MODEL_KEY, model))
            return dropped

    # -- chunks --------------------------------------------------------------------------------
    def chunk_ids(self) -> list[int]:
        return [r[0] for r in self.conn.execute("SELECT id FROM chunks ORDER BY id")]

    def embedded_chunk_ids(self) -> list[int]:
        """The chunks the vector index should hold: those with an embedding, but for navigation (index, contents)."""
        return [r[0] for r in self.conn.execute("SELECT id FROM chunks WHERE embedding IS NOT NULL AND navigation = 0 ORDER BY id")]

    def chunks_fingerprint(self) -> tuple[int, int, int]:
        """Changes whenever any connection (this process or another) adds or removes chunks.

        Chunk ids come from AUTOINCREMENT and are never reused, so (count, last id handed out)
        differs after every insert or delete.
        """
        count = self.conn.execute("SELECT count(*) FROM chunks").fetchone()[0]
        row = self.conn.execute("SELECT seq FROM sqlite_sequence WHERE name = 'chunks'").fetchone()
        # Embeddings arrive after the chunks (an UPDATE): the pending count moves when they do.
        return count, (row[0] if row else 0), self.pending_count()

    def chunk_count(self) -> int:
        return self.conn.execute("SELECT count(*) FROM chunks").fetchone()[0]

    def chunk_ids_of_documents(self, document_ids: Iterable[int]) -> set[int]:
        return self.chunk_ids_in(document_ids)

    def chunk_ids_in(self, document_ids: Iterable[int] | None, pages: Sequence[tuple[int, int]] = ()) -> set[int]:
        """The chunks of these documents (None: of every document) on these pages (first, last; none: on any)."""
        sql, args = "SELECT id FROM chunks WHERE 1", []
        if document_ids is not None:
            sql += f" AND document_id IN {_IDS}"
            args.append(id_list(document_ids))
        if pages:
            sql += " AND (" + " OR ".join("page BETWEEN ? AND ?" for _ in pages) + ")"
            args += [n for span in pages for n in span]
        return {r[0] for r in self.conn.execute(sql, args)}

    def passages(self, chunk_ids: Iterable[int]) -> dict[int, Passage]:
        rows = self.conn.execute(
            'SELECT c.id, c.document_id, d.path, d.title, c.page, c.start, c."end", c.text, coalesce(p.ocr, 0), c.kind, c.bbox, p.section '
            "FROM chunks c JOIN documents d ON d.id = c.document_id "
            f"LEFT JOIN pages p ON p.document_id = c.document_id AND p.number = c.page WHERE c.id IN {_IDS}",
            (id_list(chunk_ids),),
        )
        return {r[0]: Passage(*r[:8], ocr=bool(r[8]), kind=r[9], bbox=_bbox_value(r[10]), section=r[11]) for r in rows}

    # -- keyword search ------------------------------------------------------------------------
    def mentioned_words(self, words: Iterable[str]) -> set[str]:
        """Those of `words` that some passage of the library holds (as keyword search matches them)."""
        return {w for w in words if self.holds_together([w], 1)}

    def heading_names(self, words: Iterable[str]) -> set[str]:
        """Those of `words` that a section heading of the library writes as a code's last part (words.heading_names)."""
        words = [w for w in words if w.isalnum()]  # a word holds none of LIKE's wildcards
        if not words:
            return set()
        rows = self.conn.execute("SELECT DISTINCT section FROM pages WHERE " + " OR ".join("section LIKE ?" for _ in words), [f"%.{w}%" for w in words])
        return heading_names(words, (r[0] for r in rows))

    def holds_together(self, words: Sequence[str], least: int, anchors: Sequence[str] = ()) -> bool:
        """Some passage holds at least `least` of `words` (as keyword search matches them) and, given `anchors`, one of them."""
        either = [f"({' OR '.join(self.db.quote_fts(spaced(a)) for a in anchors)})"] if anchors else []

        def holds_all(some: Sequence[str]) -> bool:
            expression = " AND ".join([*(self.db.quote_fts(spaced(w)) for w in some), *either])
            return self.conn.execute("SELECT 1 FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT 1", (expression,)).fetchone() is not None

        return any_passage_holds(holds_all, words, least)

    def keyword_search(self, query: str, limit: int, allowed: Iterable[int] | None = None, navigation: bool = True) -> list[SearchHit]:
        """FTS5 search over chunks with the query's content words OR-ed, best bm25 first.

        `allowed` (chunk ids) limits the search inside the SQL, so a chosen document's chunks are all
        found however many stronger matches the rest of the library holds. `navigation` False leaves out
        index and contents passages (chunks.navigation), which share a question's words and say nothing.
        """
        words = content_words(query)
        if not words:
            return []
        # sqlite-utils' quoting makes every word a plain term ("or", "not", "near" are no operators).
        # A spelling of several words is one phrase: in double quotes, which quote_fts keeps as they are.
        expression = " OR ".join([*(self.db.quote_fts(w) for w in words), *(self.db.quote_fts(f'"{s}"') for s in other_spellings(query))])
        # Raw SQL, not sqlite-utils' Table.search: its detect_fts looks for content="chunks" in double
        # quotes, and this table (migration 0002) says content='chunks'; the FTS index alone also has the
        # rowid and bm25 this needs, without joining every match back to the chunks table.
        sql = "SELECT rowid, bm25(chunks_fts) FROM chunks_fts WHERE chunks_fts MATCH ?"
        args: list[object] = [expression]
        if allowed is not None:
            sql += f" AND rowid IN {_IDS}"
            args.append(id_list(allowed))
        if not navigation:
            sql += " AND rowid NOT IN (SELECT id FROM chunks WHERE navigation = 1)"  # the partial index chunks_navigation
        rows = self.conn.execute(sql + " ORDER BY bm25(chunks_fts) LIMIT ?", [*args, limit]).fetchall()
        return [SearchHit(chunk_id=chunk_id, rank=rank, score=-float(score)) for rank, (chunk_id, score) in enumerate(rows, start=1)]
