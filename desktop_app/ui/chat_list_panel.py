"""The saved chats, newest first, with New chat and Delete."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QListView, QVBoxLayout, QWidget

from .models import ChatsModel
from .parts import Pixmap, push_button, title_row, tool_button


class ChatListPanel(QWidget):
    new_requested = Signal()
    delete_requested = Signal(int)  # chat id
    open_requested = Signal(int)  # chat id

    def __init__(self, model: ChatsModel, parent=None):
        super().__init__(parent)
        self.model = model
        self.new_button = push_button(self, Pixmap.SP_FileIcon, "New chat", "Start a new conversation (Ctrl+N)", self.new_requested)
        self.delete_button = tool_button(self, Pixmap.SP_TrashIcon, "Delete the selected chat", self._delete_selected)
        self.list = QListView()
        self.list.setModel(model)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.list.clicked.connect(lambda index: self.open_requested.emit(self.model.chat_id(index.row())))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 8)
        layout.addLayout(title_row("Chats", self.new_button, self.delete_button))
        layout.addWidget(self.list)

    def select(self, chat_id: int) -> None:
        """Marks the open chat in the list (when it is listed)."""
        row = self.model.row_of(chat_id)
        if row >= 0:
            self.list.setCurrentIndex(self.model.index(row))

    def _delete_selected(self) -> None:
        index = self.list.currentIndex()
        if index.isValid():
            self.delete_requested.emit(self.model.chat_id(index.row()))
