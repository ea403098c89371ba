"""The saved chats, newest first, each with its date and mode: a search box over them, New chat, Rename, Delete."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QSortFilterProxyModel, Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QAbstractItemView, QLineEdit, QListView, QVBoxLayout, QWidget

from .chat_list_model import SEARCH_ROLE, ChatsModel
from .parts import Pixmap, push_button, title_row, tool_button


class ChatListPanel(QWidget):
    new_requested = Signal()
    delete_requested = Signal(int)  # chat id
    open_requested = Signal(int)  # chat id
    rename_requested = Signal(int, str)  # chat id, new title

    def __init__(self, model: ChatsModel, parent=None):
        super().__init__(parent)
        self.model = model
        self.new_button = push_button(self, Pixmap.SP_FileIcon, "New chat", "Start a new conversation (Ctrl+N)", self.new_requested)
        self.rename_button = tool_button(self, Pixmap.SP_FileDialogDetailedView, "Rename the selected chat (F2)", self.rename_selected)
        self.delete_button = tool_button(self, Pixmap.SP_TrashIcon, "Delete the selected chat", self._delete_selected)
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search chats by name, date or mode")
        self.search.setClearButtonEnabled(True)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(model)
        self.proxy.setFilterRole(SEARCH_ROLE)
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.search.textChanged.connect(self.proxy.setFilterFixedString)
        self.list = QListView()
        self.list.setModel(self.proxy)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.list.setSpacing(1)
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked | QAbstractItemView.EditTrigger.EditKeyPressed)
        self.list.clicked.connect(lambda index: self.open_requested.emit(self.chat_id_at(index)))
        rename = QShortcut(QKeySequence(Qt.Key.Key_F2), self.list)
        rename.setContext(Qt.ShortcutContext.WidgetShortcut)
        rename.setWhatsThis("Rename the selected chat")
        rename.activated.connect(self.rename_selected)
        # Queued: the chats are listed again after the edit has closed, not while the model is still taking it.
        model.renamed.connect(self.rename_requested, Qt.ConnectionType.QueuedConnection)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 8)
        layout.addLayout(title_row("Chats", self.new_button, self.rename_button, self.delete_button))
        layout.addWidget(self.search)
        layout.addWidget(self.list)

    def chat_id_at(self, index: QModelIndex) -> int:
        """The chat of a row of the list (a row of the filtered view, or of the model itself)."""
        if index.model() is self.proxy:
            index = self.proxy.mapToSource(index)
        return self.model.chat_id(index.row())

    def select(self, chat_id: int) -> None:
        """Marks the open chat in the list (when it is listed)."""
        row = self.model.row_of(chat_id)
        if row >= 0:
            self.list.setCurrentIndex(self.proxy.mapFromSource(self.model.index(row)))

    def rename_selected(self) -> None:
        """Edits the selected chat's title in place; Enter keeps it, Esc leaves it as it was."""
        index = self.list.currentIndex()
        if index.isValid():
            self.list.edit(index)

    def _delete_selected(self) -> None:
        index = self.list.currentIndex()
        if index.isValid():
            self.delete_requested.emit(self.chat_id_at(index))
