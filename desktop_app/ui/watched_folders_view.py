"""The folders kept in sync with the library, under the import rows: each listed, one button to stop keeping it."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QLabel, QListWidget, QWidget

from .parts import Pixmap, button_block, tool_button


class WatchedFoldersView(QWidget):
    stop_requested = Signal(str)  # the folder to stop keeping in sync

    def __init__(self, parent=None):
        super().__init__(parent)
        title = QLabel("Kept in sync:")
        title.setToolTip("New files in these folders are imported, changed ones re-imported, deleted ones removed")
        self.stop = tool_button(self, Pixmap.SP_DialogCancelButton, "Stop keeping the selected folder in sync (its documents stay)", self._stop_selected)
        self.list = QListWidget()
        self.list.setMaximumHeight(64)
        button_block(self, title, self.stop, self.list, margin=0)
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
