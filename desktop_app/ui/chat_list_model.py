"""The saved chats as the chat list shows them: each its title over its date and the mode of its last answer."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timezone
from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt, Signal

from .mode_names import MODE_NAMES

_Index = QModelIndex | QPersistentModelIndex
ID_ROLE = Qt.ItemDataRole.UserRole + 2  # as models.ID_ROLE
SEARCH_ROLE = Qt.ItemDataRole.UserRole + 3  # the text the chat filter matches


class ChatsModel(QAbstractListModel):
    """Saved conversations, newest first: each its title over its date and mode; a title is edited in place."""

    renamed = Signal(int, str)  # chat id, the new title as typed

    def __init__(self, parent=None):
        super().__init__(parent)
        self._chats: list[tuple[int, str, str, str]] = []

    def set_chats(self, chats: Sequence[tuple]) -> None:
        """(id, title, last updated[, mode of its last answer]) each."""
        self.beginResetModel()
        self._chats = [(c[0], c[1], c[2], c[3] if len(c) > 3 else "") for c in chats]
        self.endResetModel()

    def chat_id(self, row: int) -> int:
        return self._chats[row][0]

    def row_of(self, chat_id: int) -> int:
        for row, chat in enumerate(self._chats):
            if chat[0] == chat_id:
                return row
        return -1

    def title(self, chat_id: int) -> str | None:
        row = self.row_of(chat_id)
        return self._chats[row][1] if row >= 0 else None

    def rowCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._chats)

    def flags(self, index: _Index) -> Qt.ItemFlag:
        return super().flags(index) | Qt.ItemFlag.ItemIsEditable if index.isValid() else Qt.ItemFlag.NoItemFlags

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._chats):
            return None
        chat_id, title, updated, mode = self._chats[index.row()]
        when = chat_date(updated)
        about = " · ".join(part for part in (when, MODE_NAMES.get(mode, mode)) if part)
        if role == Qt.ItemDataRole.DisplayRole:
            return f"{title}\n{about}"
        if role == Qt.ItemDataRole.EditRole:
            return title
        if role == SEARCH_ROLE:
            return f"{title} {about} {updated}"
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{title}\nlast message {when}" + (f", answered with {MODE_NAMES.get(mode, mode)}" if mode else "") + "\nDouble-click or F2 to rename"
        if role == ID_ROLE:
            return chat_id
        return None

    def setData(self, index: _Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or not index.isValid() or not str(value).strip():
            return False
        chat_id, title, updated, mode = self._chats[index.row()]
        if str(value).strip() != title:
            self.renamed.emit(chat_id, str(value).strip())  # the controller stores it and lists the chats again
        return True


def chat_date(updated_utc: str, now: datetime | None = None) -> str:
    """SQLite's UTC "YYYY-MM-DD HH:MM:SS" as a person reads it, in local time: "today 14:05", "Mar 3, 09:12", "2025-03-03"."""
    try:
        moment = datetime.fromisoformat(updated_utc).replace(tzinfo=timezone.utc).astimezone()
    except ValueError:
        return updated_utc
    now = now or datetime.now(moment.tzinfo)
    if moment.date() == now.date():
        return f"today {moment:%H:%M}"
    if moment.year == now.year:
        return f"{moment:%b} {moment.day}, {moment:%H:%M}"
    return f"{moment:%Y-%m-%d}"
