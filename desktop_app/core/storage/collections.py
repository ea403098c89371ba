"""Collections: user-named groups of documents, by path, so a re-imported file stays in its collections."""

from __future__ import annotations

from collections.abc import Sequence

from .database import Database


class CollectionStore(Database):
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
