"""The SQLite database, the source of truth: documents, pages, chunks (with embeddings), chats.

Each thread gets its own connection (sqlite3 objects are not shared across threads);
WAL lets a question read while an import writes.
"""

from __future__ import annotations

import errno
import json
import re
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

try:
    import fcntl
except ImportError:  # Windows: SQLite's own locking still applies; only first-open migration is unguarded
    fcntl = None

from ..errors import StorageError
from ..types import ChunkDraft, Document, PageText, Passage, SearchHit
from .migrations import migrate

if TYPE_CHECKING:
    import sqlite_utils

BUSY_TIMEOUT_MS = 10_000
# A document's kind, and for a CSV/Excel document its rows over all its tables (tabular.py).
_KIND_ROWS = "kind, (SELECT coalesce(sum(t.rows), 0) FROM data_tables t WHERE t.document_id = documents.id)"
_STOPWORDS = frozenset(
    "a an and are as at be been but by can could did do does for from had has have how i if in into is it its "
    "me my of on or our she should so than that the their them then there these they this those to was we were "
    "what when where which who whom why will with would you your about also any all more most other some such "
    "tell give list name describe explain".split()
)


def _rollback(conn: sqlite3.Connection) -> None:
    # A rollback after a full disk can fail too; SQLite then rolls back on the next open.
    try:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
    except sqlite3.Error:
        pass


def _storage_error(exc: Exception, path: Path) -> StorageError:
    text = str(exc).lower()
    if isinstance(exc, OSError) and exc.errno == errno.ENOSPC:
        text = "disk full"
    elif isinstance(exc, OSError) and exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        text = "readonly"
    if "locked" in text or "busy" in text:
        return StorageError("The library is busy: another window or command is writing to it", hint="Wait a moment and try again.")
    if "readonly" in text or "read-only" in text or "unable to open" in text:
        return StorageError(f"The data folder {path.parent} is read-only or cannot be written", hint="Make it writable or set DESKTOP_APP_HOME to another folder.")
    if "full" in text or "no space" in text:
        return StorageError("The disk is full", hint="Free some disk space and try again; nothing was changed.")
    return StorageError(f"The library database failed: {exc}", hint="Nothing was changed; try again.")


class Store:
    def __init__(self, path: Path):
        self.path = Path(path)
        self._local = threading.local()
        conn = self.conn  # opens and migrates on this thread
        del conn

    # -- connections ---------------------------------------------------------------------------
    @property
    def conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            try:
                conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA foreign_keys=ON")
                conn.execute("PRAGMA synchronous=NORMAL")
                with self._migration_lock():
                    migrate(conn)
            except sqlite3.Error as exc:
                raise _storage_error(exc, self.path) from exc
            except OSError as exc:
                raise _storage_error(exc, self.path) from exc
            self._local.conn = conn
        return conn

    @contextmanager
    def _migration_lock(self) -> Iterator[None]:
        # Two processes opening a new library at once would both read user_version 0 and both create tables.
        if fcntl is None:
            yield
            return
        with open(self.path.with_name(self.path.name + ".lock"), "a+") as handle:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)

    @property
    def db(self) -> sqlite_utils.Database:
        db = getattr(self._local, "db", None)
        if db is None:
            import sqlite_utils  # late: it pulls click, dateutil and pluggy, slowing the window's start

            db = sqlite_utils.Database(self.conn)
            self._local.db = db
        return db

    def close(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None
            self._local.db = None

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        conn = self.conn
        try:
            conn.execute("BEGIN IMMEDIATE")
            yield conn
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            _rollback(conn)
            raise _storage_error(exc, self.path) from exc
        except BaseException:
            _rollback(conn)
            raise

    # -- meta ----------------------------------------------------------------------------------
    def get_meta(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        with self.transaction() as conn:
            conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, value))

    # -- documents -----------------------------------------------------------------------------
    def _document(self, row: sqlite3.Row | tuple) -> Document:
        id_, path, title, pages, chunks, status, error, kind, rows = row
        return Document(id=id_, path=path, title=title, pages=pages, chunks=chunks, status=status, error=error, kind=kind, rows=rows)

    def documents(self) -> list[Document]:
        rows = self.conn.execute(
            "SELECT id, path, title, pages, chunks, status, error, " + _KIND_ROWS + " FROM documents ORDER BY title COLLATE NOCASE, id"
        ).fetchall()
        return [self._document(r) for r in rows]

    def document(self, document_id: int) -> Document | None:
        row = self.conn.execute(
            "SELECT id, path, title, pages, chunks, status, error, " + _KIND_ROWS + " FROM documents WHERE id = ?", (document_id,)
        ).fetchone()
        return self._document(row) if row else None

    def document_by_path(self, path: str) -> tuple[Document, str] | None:
        row = self.conn.execute(
            "SELECT id, path, title, pages, chunks, status, error, " + _KIND_ROWS + ", content_hash FROM documents WHERE path = ?", (path,)
        ).fetchone()
        return (self._document(row[:9]), row[9]) if row else None

    def save_document(
        self,
        path: str,
        title: str,
        content_hash: str,
        pages: Sequence[PageText],
        page_count: int,
        chunks: Sequence[ChunkDraft],
        embeddings: np.ndarray | None,
        notices: Sequence[str] = (),
    ) -> tuple[int, list[int], list[int]]:
        """Store a document and its chunks in one transaction, replacing an older version of the same path.

        Without embeddings the chunks are stored with none and the document's status is 'embedding':
        it is listed and found by keyword at once, and `set_embeddings` completes it.
        Returns (document id, new chunk ids, chunk ids of the replaced version).
        """
        vectors = [None] * len(chunks) if embeddings is None else [v.tobytes() for v in np.asarray(embeddings, dtype=np.float32)]
        status = "embedding" if embeddings is None and chunks else "ready"
        with self.transaction() as conn:
            old = conn.execute("SELECT id FROM documents WHERE path = ?", (path,)).fetchone()
            old_chunk_ids: list[int] = []
            if old:
                old_chunk_ids = [r[0] for r in conn.execute("SELECT id FROM chunks WHERE document_id = ?", (old[0],))]
                conn.execute("DELETE FROM chunks WHERE document_id = ?", (old[0],))
                conn.execute("DELETE FROM documents WHERE id = ?", (old[0],))
            cur = conn.execute(
                "INSERT INTO documents(path, title, content_hash, pages, chunks, status, notices) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (path, title, content_hash, page_count, len(chunks), status, json.dumps(list(notices))),
            )
            document_id = cur.lastrowid
            conn.executemany(
                "INSERT INTO pages(document_id, number, text, ocr) VALUES (?, ?, ?, ?)",
                [(document_id, p.number, p.text, int(p.ocr)) for p in pages],
            )
            chunk_ids = []
            for draft, vector in zip(chunks, vectors):
                cur = conn.execute(
                    'INSERT INTO chunks(document_id, page, start, "end", text, embedding, kind, bbox) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
                    (document_id, draft.page, draft.start, draft.end, draft.text, vector, draft.kind, _bbox_text(draft.bbox)),
                )
                chunk_ids.append(cur.lastrowid)
        return document_id, chunk_ids, old_chunk_ids

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
        ids = list(chunk_ids)
        if not ids:
            return set()
        marks = ",".join("?" * len(ids))
        return {r[0] for r in self.conn.execute(f"SELECT id FROM chunks WHERE embedding IS NULL AND id IN ({marks})", ids)}

    def embeddings_of(self, chunk_ids: Iterable[int]) -> dict[int, np.ndarray]:
        """Stored vectors by chunk id; chunks still waiting for theirs are left out."""
        ids = list(chunk_ids)
        out: dict[int, np.ndarray] = {}
        for start in range(0, len(ids), 500):  # SQLite's host-parameter limit
            part = ids[start : start + 500]
            marks = ",".join("?" * len(part))
            for chunk_id, blob in self.conn.execute(f"SELECT id, embedding FROM chunks WHERE embedding IS NOT NULL AND id IN ({marks})", part):
                out[chunk_id] = np.frombuffer(blob, dtype=np.float32)
        return out

    def set_embeddings(self, chunk_ids: Sequence[int], embeddings: np.ndarray) -> list[int]:
        """Store vectors for chunks (one transaction); returns the ids of the chunks that still exist.

        A chunk deleted meanwhile (its document removed or replaced) matches no row and is left out,
        so it is not put back into the vector index. A document whose last chunk got its vector is 'ready'.
        """
        if not chunk_ids:
            return []
        vectors = np.asarray(embeddings, dtype=np.float32)
        with self.transaction() as conn:
            marks = ",".join("?" * len(chunk_ids))
            rows = conn.execute(f"SELECT id, document_id FROM chunks WHERE id IN ({marks})", list(chunk_ids)).fetchall()
            conn.executemany("UPDATE chunks SET embedding = ? WHERE id = ?", [(v.tobytes(), i) for i, v in zip(chunk_ids, vectors)])
            for document_id in {r[1] for r in rows}:
                if conn.execute("SELECT 1 FROM chunks WHERE document_id = ? AND embedding IS NULL LIMIT 1", (document_id,)).fetchone() is None:
                    conn.execute("UPDATE documents SET status = 'ready' WHERE id = ? AND status = 'embedding'", (document_id,))
        return [r[0] for r in rows]

    def mark_ready(self, document_id: int) -> None:
        with self.transaction() as conn:
            conn.execute("UPDATE documents SET status = 'ready' WHERE id = ?", (document_id,))

    def delete_document(self, document_id: int) -> list[int]:
        """Remove a document; returns its chunk ids so the vector index can drop them too."""
        with self.transaction() as conn:
            ids = [r[0] for r in conn.execute("SELECT id FROM chunks WHERE document_id = ?", (document_id,))]
            conn.execute("DELETE FROM chunks WHERE document_id = ?", (document_id,))
            conn.execute("DELETE FROM pages WHERE document_id = ?", (document_id,))
            conn.execute("DELETE FROM data_tables WHERE document_id = ?", (document_id,))
            conn.execute("DELETE FROM documents WHERE id = ?", (document_id,))
        return ids

    def document_notices(self, document_id: int) -> list[str]:
        row = self.conn.execute("SELECT notices FROM documents WHERE id = ?", (document_id,)).fetchone()
        return json.loads(row[0]) if row and row[0] else []

    def page_text(self, document_id: int, number: int) -> str | None:
        row = self.conn.execute("SELECT text FROM pages WHERE document_id = ? AND number = ?", (document_id, number)).fetchone()
        return row[0] if row else None

    # -- chunks --------------------------------------------------------------------------------
    def chunk_ids(self) -> list[int]:
        return [r[0] for r in self.conn.execute("SELECT id FROM chunks ORDER BY id")]

    def embedded_chunk_ids(self) -> list[int]:
        """The chunks the vector index should hold: those with an embedding."""
        return [r[0] for r in self.conn.execute("SELECT id FROM chunks WHERE embedding IS NOT NULL ORDER BY id")]

    def chunks_fingerprint(self) -> tuple[int, int, int]:
        """Changes whenever any connection (this process or another) adds or removes chunks.

        Chunk ids come from AUTOINCREMENT and are never reused, so (count, last id handed out)
        differs after every insert or delete.
        """
        count = self.conn.execute("SELECT count(*) FROM chunks").fetchone()[0]
        row = self.conn.execute("SELECT seq FROM sqlite_sequence WHERE name = 'chunks'").fetchone()
        # Embeddings arrive after the chunks (an UPDATE): the pending count moves when they do.
        return count, (row[0] if row else 0), self.pending_count()

    def integrity_problems(self) -> list[str]:
        rows = self.conn.execute("PRAGMA integrity_check").fetchall()
        return [] if rows == [("ok",)] else [r[0] for r in rows]

    def chunk_count(self) -> int:
        return self.conn.execute("SELECT count(*) FROM chunks").fetchone()[0]

    def chunk_ids_of_documents(self, document_ids: Iterable[int]) -> set[int]:
        ids = list(document_ids)
        if not ids:
            return set()
        marks = ",".join("?" * len(ids))
        return {r[0] for r in self.conn.execute(f"SELECT id FROM chunks WHERE document_id IN ({marks})", ids)}

    def embeddings(self, chunk_ids: Sequence[int] | None = None, batch: int = 10_000) -> Iterator[tuple[list[int], np.ndarray]]:
        """Stored vectors in batches, for rebuilding the index without re-embedding."""
        if chunk_ids is None:
            last = 0
            while True:
                rows = self.conn.execute(
                    "SELECT id, embedding FROM chunks WHERE id > ? AND embedding IS NOT NULL ORDER BY id LIMIT ?", (last, batch)
                ).fetchall()
                if not rows:
                    return
                last = rows[-1][0]
                yield [r[0] for r in rows], np.vstack([np.frombuffer(r[1], dtype=np.float32) for r in rows])
        else:
            ids = list(chunk_ids)
            for i in range(0, len(ids), 900):
                part = ids[i : i + 900]
                marks = ",".join("?" * len(part))
                rows = self.conn.execute(f"SELECT id, embedding FROM chunks WHERE id IN ({marks}) AND embedding IS NOT NULL", part).fetchall()
                if rows:
                    yield [r[0] for r in rows], np.vstack([np.frombuffer(r[1], dtype=np.float32) for r in rows])

    def passages(self, chunk_ids: Sequence[int]) -> dict[int, Passage]:
        out: dict[int, Passage] = {}
        ids = list(chunk_ids)
        for i in range(0, len(ids), 900):
            part = ids[i : i + 900]
            marks = ",".join("?" * len(part))
            rows = self.conn.execute(
                f'SELECT c.id, c.document_id, d.path, d.title, c.page, c.start, c."end", c.text, coalesce(p.ocr, 0), c.kind, c.bbox '
                f"FROM chunks c JOIN documents d ON d.id = c.document_id "
                f"LEFT JOIN pages p ON p.document_id = c.document_id AND p.number = c.page WHERE c.id IN ({marks})",
                part,
            ).fetchall()
            for r in rows:
                out[r[0]] = Passage(*r[:8], ocr=bool(r[8]), kind=r[9], bbox=_bbox_value(r[10]))
        return out

    def keyword_search(self, query: str, limit: int, allowed: set[int] | None = None) -> list[SearchHit]:
        """FTS5 search over chunks with the query's content words OR-ed (stopwords out)."""
        expression = fts_expression(query)
        if not expression:
            return []
        fetch = limit if allowed is None else limit * 20
        rows = self.conn.execute(
            "SELECT rowid, bm25(chunks_fts) FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY bm25(chunks_fts) LIMIT ?",
            (expression, fetch),
        ).fetchall()
        hits = []
        for chunk_id, score in rows:
            if allowed is not None and chunk_id not in allowed:
                continue
            hits.append(SearchHit(chunk_id=chunk_id, rank=len(hits) + 1, score=-float(score)))
            if len(hits) >= limit:
                break
        return hits

    # -- chats ---------------------------------------------------------------------------------
    def create_chat(self, title: str) -> int:
        with self.transaction() as conn:
            return conn.execute("INSERT INTO chats(title) VALUES (?)", (title,)).lastrowid

    def chats(self) -> list[tuple[int, str, str]]:
        return self.conn.execute("SELECT id, title, updated_at FROM chats ORDER BY updated_at DESC, id DESC").fetchall()

    def rename_chat(self, chat_id: int, title: str) -> None:
        with self.transaction() as conn:
            conn.execute("UPDATE chats SET title = ? WHERE id = ?", (title, chat_id))

    def delete_chat(self, chat_id: int) -> None:
        with self.transaction() as conn:
            conn.execute("DELETE FROM messages WHERE chat_id = ?", (chat_id,))
            conn.execute("DELETE FROM chats WHERE id = ?", (chat_id,))

    def add_message(self, chat_id: int, role: str, content: str, result_json: str | None = None) -> int:
        with self.transaction() as conn:
            cur = conn.execute(
                "INSERT INTO messages(chat_id, role, content, result_json) VALUES (?, ?, ?, ?)", (chat_id, role, content, result_json)
            )
            conn.execute("UPDATE chats SET updated_at = datetime('now') WHERE id = ?", (chat_id,))
            return cur.lastrowid

    def messages(self, chat_id: int) -> list[tuple[int, str, str, str | None]]:
        return self.conn.execute(
            "SELECT id, role, content, result_json FROM messages WHERE chat_id = ? ORDER BY id", (chat_id,)
        ).fetchall()

    # -- collections ---------------------------------------------------------------------------
    def collections(self) -> list[tuple[int, str, int]]:
        """(id, name, number of documents in the library that belong to it)."""
        return self.conn.execute(
            "SELECT c.id, c.name, count(d.id) FROM collections c LEFT JOIN collection_documents cd ON cd.collection_id = c.id "
            "LEFT JOIN documents d ON d.path = cd.path GROUP BY c.id ORDER BY c.name COLLATE NOCASE"
        ).fetchall()

    def add_to_collection(self, name: str, paths: Sequence[str]) -> int:
        with self.transaction() as conn:
            conn.execute("INSERT OR IGNORE INTO collections(name) VALUES (?)", (name,))
            collection_id = conn.execute("SELECT id FROM collections WHERE name = ?", (name,)).fetchone()[0]
            conn.executemany(
                "INSERT OR IGNORE INTO collection_documents(collection_id, path) VALUES (?, ?)", [(collection_id, p) for p in paths]
            )
        return collection_id

    def remove_from_collection(self, name: str, paths: Sequence[str]) -> None:
        with self.transaction() as conn:
            conn.executemany(
                "DELETE FROM collection_documents WHERE path = ? AND collection_id = (SELECT id FROM collections WHERE name = ?)",
                [(p, name) for p in paths],
            )

    def delete_collection(self, name: str) -> None:
        with self.transaction() as conn:
            conn.execute("DELETE FROM collections WHERE name = ?", (name,))

    def collection_document_ids(self, name: str) -> list[int] | None:
        """Ids of the collection's documents, or None when no collection has that name."""
        row = self.conn.execute("SELECT id FROM collections WHERE name = ?", (name,)).fetchone()
        if row is None:
            return None
        return [
            r[0]
            for r in self.conn.execute(
                "SELECT d.id FROM collection_documents cd JOIN documents d ON d.path = cd.path WHERE cd.collection_id = ? ORDER BY d.id",
                (row[0],),
            )
        ]


def _bbox_text(bbox: tuple[float, float, float, float] | None) -> str | None:
    return None if bbox is None else ",".join(f"{v:.2f}" for v in bbox)


def _bbox_value(text: str | None) -> tuple[float, float, float, float] | None:
    return None if not text else tuple(float(v) for v in text.split(","))


def fts_expression(query: str) -> str:
    words = [w for w in re.findall(r"\w+", query.lower()) if w not in _STOPWORDS and len(w) > 1]
    unique = list(dict.fromkeys(words))
    return " OR ".join(f'"{w}"' for w in unique)
