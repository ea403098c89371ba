"""One importing file in the library panel: its name, a progress bar, what is happening, a cancel button."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QProgressBar, QSizePolicy, QStyle, QWidget

from ..core.types import ImportProgress
<<<<<<< HEAD
from .parts import OneLineLabel, Pixmap, button_block, tool_button
=======
from ..core.wording import counted, counted_units
from .parts import Pixmap, button_block, tool_button
>>>>>>> h-fresh

_STAGE_TEXT = {
    "queued": "waiting",
    "extracting": "reading pages",
    "searchable": "searchable by keyword; waiting for the meaning index",
    "embedding": "indexing",
    "ready": "ready",
    "skipped": "already in the library",
    "failed": "failed",
    "cancelled": "cancelled",
    "removed": "removed from the library",
}
FINISHED_STAGES = ("ready", "skipped", "failed", "cancelled", "removed")


class ImportRow(QWidget):
    """One importing file: its name, a bar, what is happening, and a cancel button."""

    cancel_requested = Signal()
    dismissed = Signal()

    def __init__(self, file: str, parent=None):
        super().__init__(parent)
        self.file = file
        self.stage = "queued"
        # One line each, whatever the panel's width: the whole name and status are in their tooltips.
        self.name = OneLineLabel(Path(file).name)
        self.name.setToolTip(file)
        self.bar = QProgressBar()
        self.bar.setRange(0, 0)
        self.bar.setTextVisible(False)
        self.bar.setFixedHeight(8)
        self.status = OneLineLabel(_STAGE_TEXT["queued"])
        self.status.setObjectName("importStatus")
        self.button = tool_button(self, Pixmap.SP_DialogCancelButton, "Cancel this import", self._clicked)
        button_block(self, self.name, self.button, self.bar, self.status)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

    @property
    def finished(self) -> bool:
        return self.stage in FINISHED_STAGES

    def _clicked(self) -> None:
        if self.finished:
            self.dismissed.emit()
        else:
            self.cancel_requested.emit()

    def update_progress(self, event: ImportProgress) -> None:
        self.stage = event.stage
        text = _STAGE_TEXT.get(event.stage, event.stage)
        if event.stage == "extracting" and event.total:
            text = f"read {event.done} of {counted_units(event.total, event.unit)}"
        elif event.stage == "embedding" and event.total:
            text = f"indexing: {event.done} of {counted(event.total, 'passage')}"
        elif event.stage == "ready":
            text = f"ready: {counted_units(event.total, event.unit)}" + (f" ({event.message})" if event.message else "")
        elif event.stage in ("failed", "skipped", "removed") and event.message:
            text = f"{text}: {event.message}"
        elif event.stage == "cancelled" and "searchable by keyword" in event.message:
            text = event.message  # "Cancelled: ... searchable by keyword; ..." says what is kept
        self.status.setText(text)
        if event.stage in FINISHED_STAGES:
            self.bar.setRange(0, 1)
            self.bar.setValue(1 if event.stage in ("ready", "skipped") else 0)
            self.bar.setVisible(event.stage in ("ready", "skipped"))
            self.button.setIcon(self.style().standardIcon(QStyle.StandardPixmap.SP_TitleBarCloseButton))
            self.button.setToolTip("Dismiss")
            color = {"failed": "#b3261e", "cancelled": "#7a5d00"}.get(event.stage, "#1b6e2b")
            self.status.setStyleSheet(f"color: {color};")
        elif event.stage == "searchable":
            self.bar.setRange(0, 1)  # stored; its meaning index has not begun
            self.bar.setValue(0)
        elif event.total:
            self.bar.setRange(0, event.total)
            self.bar.setValue(event.done)
