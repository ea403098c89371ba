"""Watched folders: the folders kept in sync with the library (by path, resolved)."""

from __future__ import annotations

from .database import Database


class WatchedFolderStore(Database):
    def watched_folders(self) -> list[str]:
        return [r[0] for r in self.conn.execute("SELECT path FROM watched_folders ORDER BY path")]

    def add_watched_folder(self, path: str) -> bool:
        """False when it was watched already."""
        with self.transaction() as conn:
            return conn.execute("INSERT OR IGNORE INTO watched_folders(path) VALUES (?)", (path,)).rowcount > 0

    def remove_watched_folder(self, path: str) -> bool:
        """False when it was not watched."""
        with self.transaction() as conn:
            return conn.execute("DELETE FROM watched_folders WHERE path = ?", (path,)).rowcount > 0
