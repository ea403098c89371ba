"""Chats and their messages; an answer's message keeps its whole result as JSON (codec.py)."""

from __future__ import annotations

from .database import Database


class ChatStore(Database):
    def create_chat(self, title: str) -> int:
        with self.transaction() as conn:
            return conn.execute("INSERT INTO chats(title) VALUES (?)", (title,)).lastrowid

    def chats(self) -> list[tuple[int, str, str]]:
        """(id, title, last updated), the most recent first."""
        return self.conn.execute("SELECT id, title, updated_at FROM chats ORDER BY updated_at DESC, id DESC").fetchall()

    def chats_with_modes(self) -> list[tuple[int, str, str, str]]:
        """(id, title, last updated, the mode of its last answer or ""), the most recent first."""
        return self.conn.execute(
            """SELECT c.id, c.title, c.updated_at, COALESCE(json_extract(m.result_json, '$.mode'), '')
               FROM chats c LEFT JOIN messages m ON m.id = (
                   SELECT MAX(id) FROM messages WHERE chat_id = c.id AND result_json IS NOT NULL)
               ORDER BY c.updated_at DESC, c.id DESC"""
        ).fetchall()

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
        """(id, role, content, result JSON or None), in the order they were written."""
        return self.conn.execute(
            "SELECT id, role, content, result_json FROM messages WHERE chat_id = ? ORDER BY id", (chat_id,)
        ).fetchall()
