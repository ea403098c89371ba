"""Help > Keyboard shortcuts (F1): every key the window answers to, read from the window itself when the list is
opened (its actions and shortcuts, with what each does, and the keys a widget handles on its own, its KEYS), so
the list cannot fall behind the app."""

from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QHeaderView, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget


def _keys(sequence: QKeySequence) -> str:
    return sequence.toString(QKeySequence.SequenceFormat.NativeText)


def shortcut_rows(window: QWidget) -> list[tuple[str, str]]:
    """(keys, what they do) for every action and shortcut of the window with a key, and every widget's KEYS: the
    keys a person types (a standard key's first binding: "Ctrl++", not also the keyboard's own zoom key)."""
    rows: list[tuple[str, str]] = []
    for widget in window.findChildren(QWidget):
        rows.extend(getattr(type(widget), "KEYS", ()))
    for action in window.findChildren(QAction):
        if not action.shortcut().isEmpty():
            rows.append((_keys(action.shortcut()), action.text().replace("&", "").rstrip(".")))  # as the menu names it
    for shortcut in window.findChildren(QShortcut):
        if not shortcut.key().isEmpty():
            rows.append((_keys(shortcut.key()), shortcut.whatsThis() or "(no description)"))
    return list(dict.fromkeys(rows))  # a widget class shown twice lists its keys once


class ShortcutsDialog(QDialog):
    def __init__(self, window: QWidget):
        super().__init__(window)
        self.setWindowTitle("Keyboard shortcuts")
        rows = shortcut_rows(window)
        self.table = QTableWidget(len(rows), 2, self)
        self.table.setHorizontalHeaderLabels(["Keys", "What they do"])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        for row, (keys, what) in enumerate(rows):
            self.table.setItem(row, 0, QTableWidgetItem(keys))
            self.table.setItem(row, 1, QTableWidgetItem(what))
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(buttons)
        self.resize(560, min(640, 90 + 30 * len(rows)))
