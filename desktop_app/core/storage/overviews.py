"""Document overviews (core/document_overview.py): one row per document, its sections in outline order.

Each overview is written in one transaction, so a build interrupted half way leaves the documents before it
done and the rest waiting (`documents_without_overview`): the queue resumes where it stopped. A document
re-imported after its file changed has a new id; the old overview goes with the old row (ON DELETE CASCADE).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from ..document_overview import CentralSentence, Overview, OverviewSection
from .database import Database


@dataclass(frozen=True)
class OverviewVectors:
    document: np.ndarray | None  # the mean of its passages' vectors
    sections: tuple[np.ndarray | None, ...]  # each section's passages' mean, in outline order (None: no text of its own)


def _blob(vector: np.ndarray | None) -> bytes | None:
    return None if vector is None else np.asarray(vector, dtype=np.float32).tobytes()


def _vector(blob: bytes | None) -> np.ndarray | None:
    return None if blob is None else np.frombuffer(blob, dtype=np.float32)


def assemble_vectors(overview_rows: Iterable[tuple], section_rows: Iterable[tuple]) -> dict[int, OverviewVectors]:
    """OverviewVectors from (document id, vector) rows and (document id, vector) rows in outline order."""
    found = {r[0]: (_vector(r[1]), []) for r in overview_rows}
    for document_id, blob in section_rows:
        if document_id in found:
            found[document_id][1].append(_vector(blob))
    return {i: OverviewVectors(document, tuple(sections)) for i, (document, sections) in found.items()}


class OverviewStore(Database):
    def documents_without_overview(self) -> list[int]:
        """Text documents whose meaning index is complete and which have no overview yet, oldest first."""
        rows = self.conn.execute(
            "SELECT d.id FROM documents d LEFT JOIN overviews o ON o.document_id = d.id "
            "WHERE d.kind = 'text' AND d.status = 'ready' AND d.chunks > 0 AND o.document_id IS NULL ORDER BY d.id"
        )
        return [r[0] for r in rows]

    def overview_backlog(self) -> tuple[int, int]:
        """(text documents with an overview, text documents with passages)."""
        done = self.conn.execute("SELECT count(*) FROM overviews o JOIN documents d ON d.id = o.document_id").fetchone()[0]
        total = self.conn.execute("SELECT count(*) FROM documents WHERE kind = 'text' AND chunks > 0").fetchone()[0]
        return done, total

    def save_overview(
        self, overview: Overview, content_hash: str, vectors: OverviewVectors
    ) -> bool:
        """Store an overview in one transaction, replacing any older one; False when the document was removed meanwhile."""
        with self.transaction() as conn:
            row = conn.execute("SELECT content_hash FROM documents WHERE id = ?", (overview.document_id,)).fetchone()
            if row is None or row[0] != content_hash:
                return False
            conn.execute("DELETE FROM overviews WHERE document_id = ?", (overview.document_id,))
            conn.execute(
                "INSERT INTO overviews(document_id, content_hash, title, outline_source, vector, title_vector) VALUES (?, ?, ?, ?, ?, ?)",
                (overview.document_id, content_hash, overview.title, overview.outline_source, _blob(vectors.document), None),  # title_vector: unused since names are matched by their words (selection.name_share)
            )
            conn.executemany(
                "INSERT INTO overview_sections(document_id, position, level, title, page, last_page, sentences, vector, cited_section) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (overview.document_id, s.position, s.level, s.title, s.page, s.last_page, json.dumps([list(_sentence_row(c)) for c in s.sentences]), _blob(v), s.cited_section)
                    for s, v in zip(overview.sections, vectors.sections)
                ],
            )
        return True

    def overview(self, document_id: int) -> Overview | None:
        row = self.conn.execute(
            "SELECT o.title, o.outline_source, coalesce(o.abstract, ''), d.path FROM overviews o JOIN documents d ON d.id = o.document_id WHERE o.document_id = ?",
            (document_id,),
        ).fetchone()
        if row is None:
            return None
        title, source, abstract, path = row
        sections = tuple(
            OverviewSection(position, level, section_title, page, last_page, tuple(CentralSentence(*c) for c in json.loads(sentences)), cited)
            for position, level, section_title, page, last_page, sentences, cited in self.conn.execute(
                "SELECT position, level, title, page, last_page, sentences, cited_section FROM overview_sections WHERE document_id = ? ORDER BY position", (document_id,)
            )
        )
        return Overview(document_id, path, title, source, sections, abstract)

    def overview_vectors(self, document_ids: Sequence[int] | None = None) -> dict[int, OverviewVectors]:
        """Each overview's vectors (the document's mean, its sections'): what "which file covers Z" ranks."""
        sql = "SELECT document_id, vector FROM overviews"
        args: tuple = ()
        if document_ids is not None:
            sql += " WHERE document_id IN (SELECT value FROM json_each(?))"
            args = (json.dumps(list(document_ids)),)
        return assemble_vectors(self.conn.execute(sql, args), self.conn.execute("SELECT document_id, vector FROM overview_sections ORDER BY document_id, position"))

    def drop_overviews(self) -> None:
        """Every overview goes (the embedding model changed: their vectors are another model's); the queue rebuilds them."""
        with self.transaction() as conn:
            conn.execute("DELETE FROM overviews")

    def save_abstract(self, document_id: int, abstract: str, model: str) -> None:
        with self.transaction() as conn:
            conn.execute("UPDATE overviews SET abstract = ?, abstract_model = ? WHERE document_id = ?", (abstract, model, document_id))

    def document_content_hash(self, document_id: int) -> str | None:
        row = self.conn.execute("SELECT content_hash FROM documents WHERE id = ?", (document_id,)).fetchone()
        return row[0] if row else None

    def document_pages(self, document_id: int) -> list[tuple[int, str, str | None]]:
        """(number, text, Word/HTML section label or None) of every stored page of a document."""
        return [tuple(r) for r in self.conn.execute("SELECT number, text, section FROM pages WHERE document_id = ? ORDER BY number", (document_id,))]

    def document_chunks(self, document_id: int) -> list[tuple[int, int, int, int, str, np.ndarray | None]]:
        """(chunk id, page, start, end, text, vector) of a document's text passages, in page order."""
        rows = self.conn.execute(
            'SELECT id, page, start, "end", text, embedding FROM chunks WHERE document_id = ? AND kind = \'text\' ORDER BY page, start', (document_id,)
        )
        return [(i, page, start, end, text, _vector(blob)) for i, page, start, end, text, blob in rows]


def _sentence_row(sentence: CentralSentence) -> tuple:
    return (sentence.text, sentence.page, sentence.start, sentence.end, sentence.chunk_id, round(sentence.score, 4))
