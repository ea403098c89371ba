"""The library's one meaning-index queue under the import rows: how many passages are still to embed, the time
left, a bar, and a button that cancels every import at once (each row cancels its own file)."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QLabel, QProgressBar, QWidget

from ..core.types import ImportProgress, IndexBacklog
from ..core.wording import counted
from .parts import Pixmap, button_block, tool_button


def backlog_text(pending: int, total: int, running: bool) -> str:
    """How much of the library the meaning index lacks, in words; "" when it lacks nothing."""
    if not pending:
        return ""
    share = f"{pending:,} of {counted(total, 'passage')}" if total else counted(pending, "passage")
    if running:
        return f"{share} not yet in the meaning index: questions find them by keyword until they are."
    return f"{share} not yet in the meaning index (found by keyword only); indexing resumes with the next import or start."


class IndexingStatus(QWidget):
    cancel_requested = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.text = QLabel()
        self.text.setObjectName("indexingText")
        self.text.setWordWrap(True)
        self.bar = QProgressBar()
        self.bar.setTextVisible(False)
        self.bar.setFixedHeight(8)
        self.cancel = tool_button(self, Pixmap.SP_DialogCancelButton, "Cancel every import (files already stored stay, found by keyword)", self.cancel_requested)
        self.note = QLabel()
        self.note.setObjectName("hint")
        self.note.setWordWrap(True)
        button_block(self, self.text, self.cancel, self.bar, self.note)
        self.running = False
        self.total_passages = 0  # in the whole library, from the last backlog
        self.hide()

    def show_reading(self, files: int) -> None:
        """Text first: files are being read and stored, before any embedding."""
        self.show_busy(f"Reading {counted(files, 'file')}: each is searchable by keyword once stored")

    def show_busy(self, text: str) -> None:
        self.running = True
        self.text.setText(text)
        self.bar.setRange(0, 0)
        self.bar.show()
        self.cancel.show()
        self.show()

    def show_progress(self, event: ImportProgress) -> None:
        """An "indexing" event of the embedding queue."""
        self.running = True
        self.text.setText(event.message[:1].upper() + event.message[1:])
        self.bar.setRange(0, max(event.total, 1))
        self.bar.setValue(event.done)
        self.bar.show()
        self.cancel.show()
        total = max(self.total_passages, event.total)
        self.note.setText(backlog_text(event.total - event.done, total, running=True))
        self.show()

    def show_backlog(self, backlog: IndexBacklog) -> None:
        """Nothing runs: what is still missing from the meaning index, if anything."""
        self.total_passages = backlog.total
        self.running = False
        text = backlog_text(backlog.pending, backlog.total, running=False)
        self.text.setText("Meaning index incomplete" if text else "")
        self.note.setText(text)
        self.bar.hide()
        self.cancel.hide()
        self.setVisible(bool(text))
