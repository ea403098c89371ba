"""Documents, their pages, and CSV/Excel tables' catalog rows, in PostgreSQL (the SQLite twin: ../documents.py).

Saving a path takes an advisory lock on it for the transaction: two processes importing the same file at once
take turns, and the second replaces the first's version instead of adding a second document.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

import numpy as np

from ...types import ChunkDraft, Document, DocumentName, PageText, ParsedTable
from ...word_pieces import keyword_text
from ..chunks import bbox_text
from ..documents import document_row
from .database import PgDatabase

_COLUMNS = "id, path, title, pages, chunks, status, error"
_KIND_ROWS = "kind, (SELECT coalesce(sum(t.rows), 0) FROM data_tables t WHERE t.document_id = documents.id)::int"


def _replace_path(conn, path: str) -> tuple[int | None, list[int]]:
    """Lock the path for this transaction and delete its older version; returns (old id, its chunk ids)."""
    conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (path,))
    row = conn.execute("SELECT id FROM documents WHERE path = %s", (path,)).fetchone()
    if row is None:
        return None, []
    ids = [r[0] for r in conn.execute("SELECT id FROM chunks WHERE document_id = %s", (row[0],))]
    conn.execute("DELETE FROM documents WHERE id = %s", (row[0],))  # pages, chunks and table rows cascade
    return row[0], ids


class PgDocumentStore(PgDatabase):
    def documents(self) -> list[Document]:
        rows = self.rows(f"SELECT {_COLUMNS}, {_KIND_ROWS} FROM documents ORDER BY lower(title), id")
        return [document_row(r) for r in rows]

    def document_names(self) -> list[DocumentName]:
        """Every document's id, path, title and when it was added: what a question's filters are matched against."""
        return [DocumentName(i, path, title, added.strftime("%Y-%m-%d %H:%M:%S")) for i, path, title, added in self.rows(
            "SELECT id, path, title, added_at AT TIME ZONE 'UTC' FROM documents ORDER BY id")]

    def languages_held(self, document_ids: Iterable[int] | None = None) -> dict[str | None, tuple[int, int]]:
        """How many documents and passages the library (or these of its documents) holds in each language (None:
        documents whose language is not read yet)."""
        sql, args = "SELECT language, count(*), sum(chunks) FROM documents WHERE chunks > 0", ()
        if document_ids is not None:
            sql, args = sql + " AND id = ANY(%s)", ([int(i) for i in document_ids],)
        rows = self.rows(sql + " GROUP BY language", args)
        return {language: (int(documents), int(passages)) for language, documents, passages in rows}

    def documents_without_language(self, limit: int) -> list[tuple[int, str]]:
        """(id, the start of its text) of documents with passages whose language is not read yet."""
        rows = self.rows(
            "SELECT d.id, (SELECT string_agg(text, ' ') FROM (SELECT text FROM chunks c WHERE c.document_id = d.id ORDER BY c.id LIMIT 8) t) "
            "FROM documents d WHERE d.language IS NULL AND d.chunks > 0 LIMIT %s",
            (limit,),
        )
        return [(document_id, text or "") for document_id, text in rows]

    def set_document_languages(self, languages: dict[int, str]) -> None:
        with self.transaction() as conn, conn.cursor() as cur:
            cur.executemany("UPDATE documents SET language = %s WHERE id = %s", [(language, i) for i, language in languages.items()])

    def document(self, document_id: int) -> Document | None:
        rows = self.rows(f"SELECT {_COLUMNS}, {_KIND_ROWS} FROM documents WHERE id = %s", (document_id,))
        return document_row(rows[0]) if rows else None

    def document_by_path(self, path: str) -> tuple[Document, str] | None:
        rows = self.rows(f"SELECT {_COLUMNS}, {_KIND_ROWS}, content_hash FROM documents WHERE path = %s", (path,))
        return (document_row(rows[0][:9]), rows[0][9]) if rows else None

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
        vectors = [None] * len(chunks) if embeddings is None else list(np.asarray(embeddings, dtype=np.float32))
        status = "embedding" if embeddings is None and chunks else "ready"
        with self.transaction() as conn:
            _, old_chunk_ids = _replace_path(conn, path)
            document_id = conn.execute(
                "INSERT INTO documents(path, title, content_hash, pages, chunks, status, notices, language) VALUES (%s, %s, %s, %s, %s, %s, %s, %s) RETURNING id",
                (path, title, content_hash, page_count, len(chunks), status, json.dumps(list(notices)), language),
            ).fetchone()[0]
            with conn.cursor() as cur:
                cur.executemany(
                    "INSERT INTO pages(document_id, number, text, ocr, section) VALUES (%s, %s, %s, %s, %s)",
                    [(document_id, p.number, p.text, bool(p.ocr), p.section) for p in pages],
                )
                # One statement for all the chunks, their ids back in order (they are the passages' names); a section's
                # passages are found by its heading too (word_pieces.keyword_text).
                headings = {p.number: p.section for p in pages}
                cur.executemany(
                    'INSERT INTO chunks(document_id, page, start, "end", text, keyword_text, embedding, kind, bbox, navigation) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s) RETURNING id',
                    [(document_id, d.page, d.start, d.end, d.text, keyword_text(d.text, headings.get(d.page)), v, d.kind, bbox_text(d.bbox), bool(d.navigation)) for d, v in zip(chunks, vectors)],
                    returning=True,
                )
                chunk_ids = []
                if chunks:
                    while True:
                        chunk_ids.append(cur.fetchone()[0])
                        if not cur.nextset():
                            break
        return document_id, chunk_ids, old_chunk_ids

    def save_table_document(self, path: str, title: str, content_hash: str, tables: Sequence[ParsedTable], names: Sequence[str]) -> tuple[int, list[str], list[int]]:
        with self.transaction() as conn:
            old_id = conn.execute("SELECT id FROM documents WHERE path = %s", (path,)).fetchone()
            old_tables = [r[0] for r in conn.execute("SELECT name FROM data_tables WHERE document_id = %s", (old_id[0],))] if old_id else []
            _, old_chunks = _replace_path(conn, path)
            document_id = conn.execute(
                "INSERT INTO documents(path, title, content_hash, pages, chunks, status, notices, kind) VALUES (%s, %s, %s, %s, 0, 'ready', '[]', 'table') RETURNING id",
                (path, title, content_hash, len(tables)),
            ).fetchone()[0]
            with conn.cursor() as cur:
                cur.executemany(
                    "INSERT INTO data_tables(document_id, name, source_name, rows, columns) VALUES (%s, %s, %s, %s, %s)",
                    [(document_id, n, t.source_name, len(t.rows), json.dumps(list(t.columns))) for n, t in zip(names, tables)],
                )
        return document_id, old_tables, old_chunks

    def mark_ready(self, document_id: int) -> None:
        with self.transaction() as conn:
            conn.execute("UPDATE documents SET status = 'ready' WHERE id = %s", (document_id,))

    def delete_document(self, document_id: int) -> list[int]:
        with self.transaction() as conn:
            ids = [r[0] for r in conn.execute("SELECT id FROM chunks WHERE document_id = %s", (document_id,))]
            conn.execute("DELETE FROM documents WHERE id = %s", (document_id,))
            return ids

    def document_notices(self, document_id: int) -> list[str]:
        value = self.value("SELECT notices FROM documents WHERE id = %s", (document_id,))
        return json.loads(value) if value else []

    def page_text(self, document_id: int, number: int) -> str | None:
        return self.value("SELECT text FROM pages WHERE document_id = %s AND number = %s", (document_id, number))

    def pages_between(self, document_id: int, first: int, last: int) -> list[PageText]:
        rows = self.rows(
            "SELECT number, text, ocr, section FROM pages WHERE document_id = %s AND number BETWEEN %s AND %s AND text != '' ORDER BY number",
            (document_id, first, last),
        )
        return [PageText(number, text, bool(ocr), section) for number, text, ocr, section in rows]

    def table_names(self) -> set[str]:
        return {r[0].lower() for r in self.rows("SELECT name FROM data_tables")}

    def data_table_rows(self, document_ids: Iterable[int] | None = None) -> list[tuple]:
        sql, args = "SELECT document_id, name, source_name, rows, columns FROM data_tables", []
        if document_ids is not None:
            sql += " WHERE document_id = ANY(%s)"
            args.append([int(i) for i in document_ids])
        return self.rows(sql + " ORDER BY document_id, id", args)
