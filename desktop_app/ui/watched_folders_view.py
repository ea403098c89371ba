"""The folders kept in sync with the library, under the import rows: each listed, one button to stop keeping it."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QListWidget, QVBoxLayout, QWidget

from .parts import Pixmap, tool_button


class WatchedFoldersView(QWidget):
    stop_requested = Signal(str)  # the folder to stop keeping in sync

    def __init__(self, parent=None):
        super().__init__(parent)
        title = QLabel("Kept in sync:")
        title.setToolTip("New files in these folders are imported, changed ones re-imported, deleted ones removed")
        self.stop = tool_button(self, Pixmap.SP_DialogCancelButton, "Stop keeping the selected folder in sync (its documents stay)", self._stop_selected)
        self.stop.setAutoRaise(True)
        self.list = QListWidget()
        self.list.setMaximumHeight(64)
        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(title, 1)
        top.addWidget(self.stop)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 2, 0, 2)
        layout.setSpacing(2)
        layout.addLayout(top)
        layout.addWidget(self.list)
        self.hide()

    def set_folders(self, folders: list[str]) -> None:
        self.list.clear()
        self.list.addItems(folders)
        if folders:
            self.list.setCurrentRow(0)
        self.setVisible(bool(folders))

    def folders(self) -> list[str]:
        return [self.list.item(i).text() for i in range(self.list.count())]

    def _stop_selected(self) -> None:
        item = self.list.currentItem()
        if item is not None:
            self.stop_requested.emit(item.text())
