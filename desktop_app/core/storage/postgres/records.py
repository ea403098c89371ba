"""Chats, collections and watched folders in PostgreSQL (the SQLite twins: ../chats.py, ../collections.py,
../watched_folders.py). Times are text as SQLite gives them ("YYYY-MM-DD HH:MM:SS", UTC), for the same callers."""

from __future__ import annotations

from collections.abc import Sequence

from .database import PgDatabase

_TIME = "to_char(%s AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')"


class PgChatStore(PgDatabase):
    def create_chat(self, title: str) -> int:
        with self.transaction() as conn:
            return conn.execute("INSERT INTO chats(title) VALUES (%s) RETURNING id", (title,)).fetchone()[0]

    def chats(self) -> list[tuple[int, str, str]]:
        return self.rows(f"SELECT id, title, {_TIME % 'updated_at'} FROM chats ORDER BY updated_at DESC, id DESC")

    def chats_with_modes(self) -> list[tuple[int, str, str, str]]:
        return self.rows(
            f"""SELECT c.id, c.title, {_TIME % 'c.updated_at'}, COALESCE(m.result_json::jsonb ->> 'mode', '')
               FROM chats c LEFT JOIN messages m ON m.id = (
                   SELECT MAX(id) FROM messages WHERE chat_id = c.id AND result_json IS NOT NULL)
               ORDER BY c.updated_at DESC, c.id DESC"""
        )

    def rename_chat(self, chat_id: int, title: str) -> None:
        with self.transaction() as conn:
            conn.execute("UPDATE chats SET title = %s WHERE id = %s", (title, chat_id))

    def delete_chat(self, chat_id: int) -> None:
        with self.transaction() as conn:
            conn.execute("DELETE FROM chats WHERE id = %s", (chat_id,))  # its messages cascade

    def add_message(self, chat_id: int, role: str, content: str, result_json: str | None = None) -> int:
        with self.transaction() as conn:
            message_id = conn.execute(
                "INSERT INTO messages(chat_id, role, content, result_json) VALUES (%s, %s, %s, %s) RETURNING id", (chat_id, role, content, result_json)
            ).fetchone()[0]
            conn.execute("UPDATE chats SET updated_at = now() WHERE id = %s", (chat_id,))
            return message_id

    def messages(self, chat_id: int) -> list[tuple[int, str, str, str | None]]:
        return self.rows("SELECT id, role, content, result_json FROM messages WHERE chat_id = %s ORDER BY id", (chat_id,))


class PgCollectionStore(PgDatabase):
    def collections(self) -> list[tuple[int, str, int]]:
        return self.rows(
            "SELECT c.id, c.name, count(d.id)::int FROM collections c LEFT JOIN collection_documents cd ON cd.collection_id = c.id "
            "LEFT JOIN documents d ON d.path = cd.path GROUP BY c.id ORDER BY lower(c.name)"
        )

    def add_to_collection(self, name: str, paths: Sequence[str]) -> int:
        with self.transaction() as conn:
            conn.execute("INSERT INTO collections(name) VALUES (%s) ON CONFLICT (lower(name)) DO NOTHING", (name,))
            collection_id = conn.execute("SELECT id FROM collections WHERE lower(name) = lower(%s)", (name,)).fetchone()[0]
            with conn.cursor() as cur:
                cur.executemany(
                    "INSERT INTO collection_documents(collection_id, path) VALUES (%s, %s) ON CONFLICT DO NOTHING", [(collection_id, p) for p in paths]
                )
        return collection_id

    def remove_from_collection(self, name: str, paths: Sequence[str]) -> None:
        with self.transaction() as conn:
            conn.execute(
                "DELETE FROM collection_documents WHERE path = ANY(%s) AND collection_id = (SELECT id FROM collections WHERE lower(name) = lower(%s))",
                (list(paths), name),
            )

    def delete_collection(self, name: str) -> None:
        with self.transaction() as conn:
            conn.execute("DELETE FROM collections WHERE lower(name) = lower(%s)", (name,))

    def collection_document_ids(self, name: str) -> list[int] | None:
        collection_id = self.value("SELECT id FROM collections WHERE lower(name) = lower(%s)", (name,))
        if collection_id is None:
            return None
        rows = self.rows("SELECT d.id FROM collection_documents cd JOIN documents d ON d.path = cd.path WHERE cd.collection_id = %s ORDER BY d.id", (collection_id,))
        return [r[0] for r in rows]


class PgWatchedFolderStore(PgDatabase):
    def watched_folders(self) -> list[str]:
        return [r[0] for r in self.rows("SELECT path FROM watched_folders ORDER BY path")]

    def add_watched_folder(self, path: str) -> bool:
        with self.transaction() as conn:
            return conn.execute("INSERT INTO watched_folders(path) VALUES (%s) ON CONFLICT DO NOTHING", (path,)).rowcount > 0

    def remove_watched_folder(self, path: str) -> bool:
        with self.transaction() as conn:
            return conn.execute("DELETE FROM watched_folders WHERE path = %s", (path,)).rowcount > 0
