"""Documents and their pages: stored with their chunks in one transaction, replaced whole, removed whole.

A CSV or Excel document has no pages or chunks; its catalog rows (`data_tables`) say which tables in
tables.sqlite are its own (table_store.py).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence

import numpy as np

from ..types import ChunkDraft, Document, DocumentName, PageText, ParsedTable
from ..word_pieces import keyword_text
from .chunks import _IDS, bbox_text, id_list
from .database import Database

_COLUMNS = "id, path, title, pages, chunks, status, error"
# A document's kind, and for a CSV/Excel document its rows over all its tables.
_KIND_ROWS = "kind, (SELECT coalesce(sum(t.rows), 0) FROM data_tables t WHERE t.document_id = documents.id)"


def document_row(row: sqlite3.Row | tuple) -> Document:
    id_, path, title, pages, chunks, status, error, kind, rows = row
    return Document(id=id_, path=path, title=title, pages=pages, chunks=chunks, status=status, error=error, kind=kind, rows=rows)


def _delete_document_rows(conn: sqlite3.Connection, document_id: int) -> list[int]:
    """Everything a document owns in this database; returns its chunk ids (the vector index drops them too)."""
    ids = [r[0] for r in conn.execute("SELECT id FROM chunks WHERE document_id = ?", (document_id,))]
    conn.execute("DELETE FROM chunks WHERE document_id = ?", (document_id,))
    conn.execute("DELETE FROM pages WHERE document_id = ?", (document_id,))
    conn.execute("DELETE FROM data_tables WHERE document_id = ?", (document_id,))
    conn.execute("DELETE FROM documents WHERE id = ?", (document_id,))
    return ids


class DocumentStore(Database):
    def documents(self) -> list[Document]:
        rows = self.conn.execute(f"SELECT {_COLUMNS}, {_KIND_ROWS} FROM documents ORDER BY title COLLATE NOCASE, id").fetchall()
        return [document_row(r) for r in rows]

    def document_names(self) -> list[DocumentName]:
        """Every document's id, path, title and when it was added: what a question's filters are matched against."""
        return [DocumentName(*r) for r in self.conn.execute("SELECT id, path, title, added_at FROM documents ORDER BY id")]

    def document(self, document_id: int) -> Document | None:
        row = self.conn.execute(f"SELECT {_COLUMNS}, {_KIND_ROWS} FROM documents WHERE id = ?", (document_id,)).fetchone()
        return document_row(row) if row else None

    def document_by_path(self, path: str) -> tuple[Document, str] | None:
        """The document stored for a path, with its content hash (an unchanged file is not imported again)."""
        row = self.conn.execute(f"SELECT {_COLUMNS}, {_KIND_ROWS}, content_hash FROM documents WHERE path = ?", (path,)).fetchone()
        return (document_row(row[:9]), row[9]) if row else None

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
        language: str | None = None,
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
            old_chunk_ids = _delete_document_rows(conn, old[0]) if old else []
            document_id = conn.execute(
                "INSERT INTO documents(path, title, content_hash, pages, chunks, status, notices, language) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (path, title, content_hash, page_count, len(chunks), status, json.dumps(list(notices)), language),
            ).lastrowid
            conn.executemany(
                "INSERT INTO pages(document_id, number, text, ocr, section) VALUES (?, ?, ?, ?, ?)",
                [(document_id, p.number, p.text, int(p.ocr), p.section) for p in pages],
            )
            # One INSERT per chunk: each new id is needed (it is the chunk's vector-index label).
            headings = {p.number: p.section for p in pages}  # a section's passages are found by its heading too
            chunk_ids = [
                conn.execute(
                    'INSERT INTO chunks(document_id, page, start, "end", text, keyword_text, embedding, kind, bbox, navigation) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
                    (document_id, draft.page, draft.start, draft.end, draft.text, keyword_text(draft.text, headings.get(draft.page)), vector, draft.kind, bbox_text(draft.bbox), int(draft.navigation)),
                ).lastrowid
                for draft, vector in zip(chunks, vectors)
            ]
        return document_id, chunk_ids, old_chunk_ids

    def save_table_document(self, path: str, title: str, content_hash: str, tables: Sequence[ParsedTable], names: Sequence[str]) -> tuple[int, list[str], list[int]]:
        """Record a CSV/Excel document and its catalog of tables in one transaction, replacing an older version.

        Returns (document id, table names of the replaced version, chunk ids of the replaced version).
        """
        with self.transaction() as conn:
            old = conn.execute("SELECT id FROM documents WHERE path = ?", (path,)).fetchone()
            old_tables = [r[0] for r in conn.execute("SELECT name FROM data_tables WHERE document_id = ?", (old[0],))] if old else []
            old_chunks = _delete_document_rows(conn, old[0]) if old else []
            document_id = conn.execute(
                "INSERT INTO documents(path, title, content_hash, pages, chunks, status, notices, kind) VALUES (?, ?, ?, ?, 0, 'ready', '[]', 'table')",
                (path, title, content_hash, len(tables)),
            ).lastrowid
            conn.executemany(
                "INSERT INTO data_tables(document_id, name, source_name, rows, columns) VALUES (?, ?, ?, ?, ?)",
                [(document_id, n, t.source_name, len(t.rows), json.dumps(list(t.columns))) for n, t in zip(names, tables)],
            )
        return document_id, old_tables, old_chunks

    def mark_ready(self, document_id: int) -> None:
        with self.transaction() as conn:
            conn.execute("UPDATE documents SET status = 'ready' WHERE id = ?", (document_id,))

    def delete_document(self, document_id: int) -> list[int]:
        """Remove a document; returns its chunk ids so the vector index can drop them too."""
        with self.transaction() as conn:
            return _delete_document_rows(conn, document_id)

    def document_notices(self, document_id: int) -> list[str]:
        row = self.conn.execute("SELECT notices FROM documents WHERE id = ?", (document_id,)).fetchone()
        return json.loads(row[0]) if row and row[0] else []

    def page_text(self, document_id: int, number: int) -> str | None:
        row = self.conn.execute("SELECT text FROM pages WHERE document_id = ? AND number = ?", (document_id, number)).fetchone()
        return row[0] if row else None

    def pages_between(self, document_id: int, first: int, last: int) -> list[PageText]:
        """The stored pages (or sections) numbered first..last, in order; those without text are left out."""
        rows = self.conn.execute(
            "SELECT number, text, ocr, section FROM pages WHERE document_id = ? AND number BETWEEN ? AND ? AND text != '' ORDER BY number",
            (document_id, first, last),
        )
        return [PageText(number, text, bool(ocr), section) for number, text, ocr, section in rows]

    def languages_held(self, document_ids: Iterable[int] | None = None) -> dict[str | None, tuple[int, int]]:
        """How many documents and passages the library (or these of its documents) holds in each language (None:
        documents whose language is not read yet)."""
        sql, args = "SELECT language, count(*), sum(chunks) FROM documents WHERE chunks > 0", ()
        if document_ids is not None:
            sql += f" AND id IN {_IDS}"
            args = (id_list(document_ids),)
        return {language: (documents, passages) for language, documents, passages in self.conn.execute(sql + " GROUP BY language", args)}

    def documents_without_language(self, limit: int) -> list[tuple[int, str]]:
        """(id, the start of its text) of documents with passages whose language is not read yet (older libraries)."""
        rows = self.conn.execute(
            "SELECT d.id, (SELECT group_concat(text, ' ') FROM (SELECT text FROM chunks c WHERE c.document_id = d.id ORDER BY c.id LIMIT 8)) "
            "FROM documents d WHERE d.language IS NULL AND d.chunks > 0 LIMIT ?",
            (limit,),
        )
        return [(document_id, text or "") for document_id, text in rows]

    def set_document_languages(self, languages: dict[int, str]) -> None:
        with self.transaction() as conn:
            conn.executemany("UPDATE documents SET language = ? WHERE id = ?", [(language, i) for i, language in languages.items()])

    def data_table_rows(self, document_ids: Iterable[int] | None = None) -> list[tuple]:
        """(document id, name, source name, rows, columns JSON) of the catalogued tables, of these documents or all."""
        sql, args = "SELECT document_id, name, source_name, rows, columns FROM data_tables", ()
        if document_ids is not None:
            sql += f" WHERE document_id IN {_IDS}"
            args = (id_list(document_ids),)
        return self.conn.execute(sql + " ORDER BY document_id, id", args).fetchall()

    def table_names(self) -> set[str]:
        """Every catalogued CSV/Excel table name, in lower case (a new table gets another name)."""
        return {r[0].lower() for r in self.conn.execute("SELECT name FROM data_tables")}
