"""The folders kept in sync with the library, under the import rows: one line ("Kept in sync: 3 folders") that
opens a short scrolling list, with one button to stop keeping the selected folder."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QListWidget, QVBoxLayout, QWidget

from .fold import Fold
from .import_list import plural
from .parts import Pixmap, tool_button

ROWS_SHOWN = 3  # folders listed at once; more scroll


class WatchedFoldersView(QWidget):
    stop_requested = Signal(str)  # the folder to stop keeping in sync

    def __init__(self, parent=None):
        super().__init__(parent)
        self.stop = tool_button(self, Pixmap.SP_DialogCancelButton, "Stop keeping the selected folder in sync (its documents stay)", self._stop_selected)
        self.stop.setAutoRaise(True)
        self.list = QListWidget()
        # A long path is cut in its middle (the folder's own name stays), never scrolled sideways.
        self.list.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setFixedHeight(ROWS_SHOWN * self.list.fontMetrics().lineSpacing() + 12)
        self.fold = Fold(self.list, self.stop, is_open=True)
        self.fold.toggled.connect(self.stop.setVisible)  # it stops the folder selected in the list
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 0, 4, 0)
        layout.addWidget(self.fold)
        self.hide()

    def set_folders(self, folders: list[str]) -> None:
        self.list.clear()
        self.list.addItems(folders)
        for row, folder in enumerate(folders):
            self.list.item(row).setToolTip(folder)
        if folders:
            self.list.setCurrentRow(0)
        tip = "New files in these folders are imported, changed ones re-imported, deleted ones removed"
        self.fold.set_summary(f"Kept in sync: {plural(len(folders), 'folder')}", tip + ":\n" + "\n".join(folders))
        self.setVisible(bool(folders))

    def folders(self) -> list[str]:
        return [self.list.item(i).text() for i in range(self.list.count())]

    def _stop_selected(self) -> None:
        item = self.list.currentItem()
        if item is not None:
            self.stop_requested.emit(item.text())
