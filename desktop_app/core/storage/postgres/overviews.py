"""Document overviews in PostgreSQL: the SQLite OverviewStore's methods (../overviews.py) with PostgreSQL's SQL.

Vectors are kept as float32 bytes (BYTEA), as in SQLite: they are read whole for ranking, never searched by the index.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import numpy as np

from ...document_overview import CentralSentence, Overview, OverviewSection
from ..overviews import OverviewVectors, _blob, _sentence_row, assemble_vectors
from .chunks import _array
from .database import PgDatabase


class PgOverviewStore(PgDatabase):
    def documents_without_overview(self) -> list[int]:
        """Text documents whose meaning index is complete and which have no overview yet, oldest first."""
        return [r[0] for r in self.rows(
            "SELECT d.id FROM documents d LEFT JOIN overviews o ON o.document_id = d.id "
            "WHERE d.kind = 'text' AND d.status = 'ready' AND d.chunks > 0 AND o.document_id IS NULL ORDER BY d.id"
        )]  # fmt: skip

    def overview_backlog(self) -> tuple[int, int]:
        """(text documents with an overview, text documents with passages)."""
        done = self.value("SELECT count(*) FROM overviews o JOIN documents d ON d.id = o.document_id")
        return int(done), int(self.value("SELECT count(*) FROM documents WHERE kind = 'text' AND chunks > 0"))

    def save_overview(self, overview: Overview, content_hash: str, vectors: OverviewVectors) -> bool:
        """Store an overview in one transaction, replacing any older one; False when the document was removed or changed meanwhile."""
        with self.transaction() as conn:
            # The document's row locked: two laptops building the same overview at once save one after the other.
            row = conn.execute("SELECT content_hash FROM documents WHERE id = %s FOR UPDATE", (overview.document_id,)).fetchone()
            if row is None or row[0] != content_hash:
                return False
            conn.execute("DELETE FROM overviews WHERE document_id = %s", (overview.document_id,))
            conn.execute(
                "INSERT INTO overviews(document_id, content_hash, title, outline_source, vector, title_vector) VALUES (%s, %s, %s, %s, %s, %s)",
                (overview.document_id, content_hash, overview.title, overview.outline_source, _blob(vectors.document), None),  # title_vector: unused since names are matched by their words (selection.name_share)
            )
            with conn.cursor() as cur:
                cur.executemany(
                    "INSERT INTO overview_sections(document_id, position, level, title, page, last_page, sentences, vector, cited_section) "
                    "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
                    [
                        (overview.document_id, s.position, s.level, s.title, s.page, s.last_page, json.dumps([list(_sentence_row(c)) for c in s.sentences]), _blob(v), s.cited_section)
                        for s, v in zip(overview.sections, vectors.sections)
                    ],
                )
        return True

    def overview(self, document_id: int) -> Overview | None:
        rows = self.rows(
            "SELECT o.title, o.outline_source, coalesce(o.abstract, ''), d.path FROM overviews o JOIN documents d ON d.id = o.document_id WHERE o.document_id = %s",
            (document_id,),
        )
        if not rows:
            return None
        title, source, abstract, path = rows[0]
        sections = tuple(
            OverviewSection(position, level, section_title, page, last_page, tuple(CentralSentence(*c) for c in json.loads(sentences)), cited)
            for position, level, section_title, page, last_page, sentences, cited in self.rows(
                "SELECT position, level, title, page, last_page, sentences, cited_section FROM overview_sections WHERE document_id = %s ORDER BY position", (document_id,)
            )
        )
        return Overview(document_id, path, title, source, sections, abstract)

    def overview_vectors(self, document_ids: Sequence[int] | None = None) -> dict[int, OverviewVectors]:
        """Each overview's vectors (the document's mean, its sections'): what "which file covers Z" ranks."""
        sql, args = "SELECT document_id, vector FROM overviews", []
        if document_ids is not None:
            sql, args = sql + " WHERE document_id = ANY(%s)", [[int(i) for i in document_ids]]
        return assemble_vectors(self.rows(sql, args), self.rows("SELECT document_id, vector FROM overview_sections ORDER BY document_id, position"))

    def drop_overviews(self) -> None:
        """Every overview goes (the embedding model changed: their vectors are another model's); the queue rebuilds them."""
        with self.transaction() as conn:
            conn.execute("DELETE FROM overviews")

    def save_abstract(self, document_id: int, abstract: str, model: str) -> None:
        with self.transaction() as conn:
            conn.execute("UPDATE overviews SET abstract = %s, abstract_model = %s WHERE document_id = %s", (abstract, model, document_id))

    def document_content_hash(self, document_id: int) -> str | None:
        return self.value("SELECT content_hash FROM documents WHERE id = %s", (document_id,))

    def document_pages(self, document_id: int) -> list[tuple[int, str, str | None]]:
        """(number, text, Word/HTML section label or None) of every stored page of a document."""
        return [tuple(r) for r in self.rows("SELECT number, text, section FROM pages WHERE document_id = %s ORDER BY number", (document_id,))]

    def document_chunks(self, document_id: int) -> list[tuple[int, int, int, int, str, np.ndarray | None]]:
        """(chunk id, page, start, end, text, vector) of a document's text passages, in page order."""
        rows = self.rows('SELECT id, page, start, "end", text, embedding FROM chunks WHERE document_id = %s AND kind = \'text\' ORDER BY page, start', (document_id,))
        return [(i, page, start, end, text, None if v is None else _array(v)) for i, page, start, end, text, v in rows]
