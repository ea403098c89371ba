"""The cited page as an image, with the passage highlighted, and a button to open the file itself."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtGui import QDesktopServices, QPixmap
from PySide6.QtWidgets import (
    QLabel,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from ..core.errors import AppError
from ..core.page_render import render_page
from .parts import caption_row


class PageView(QWidget):
    failed = Signal(object)  # an AppError for the status bar

    def __init__(self, parent=None):
        super().__init__(parent)
        self.file: str | None = None
        self.page: int | None = None
        self.highlighted = 0
        self._pixmap: QPixmap | None = None
        self._highlight_top: float | None = None
        self.caption, self.open_button, header = caption_row(
            self, "Click a citation or a passage to see it on its page.", "Open PDF", "Open the file in your PDF viewer", self.open_file
        )
        self.image = QLabel()
        self.image.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
        self.image.setObjectName("pageImage")
        self.scroll = QScrollArea()
        self.scroll.setWidget(self.image)
        self.scroll.setWidgetResizable(True)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 8)
        layout.addLayout(header)
        layout.addWidget(self.scroll, 1)

    def show_passage(self, file: str, page: int, start: int | None, end: int | None, label: str = "", bbox=None) -> bool:
        """bbox (a table chunk's area) is highlighted whole instead of the words of [start, end)."""
        try:
            rendered = render_page(file, page, start, end, bbox=tuple(bbox) if bbox else None)
        except AppError as exc:
            self.failed.emit(exc)
            return False
        self.file, self.page, self.highlighted = file, page, rendered.highlighted
        self._pixmap = QPixmap()
        self._pixmap.loadFromData(rendered.png, "PNG")
        self._highlight_top = rendered.highlight_top
        prefix = f"{label} " if label else ""
        self.caption.setText(f"{prefix}<b>{Path(file).name}</b>, page {page} of {rendered.page_count}")
        self.open_button.setEnabled(True)
        self._fit()
        return True

    def _fit(self) -> None:
        if self._pixmap is None or self._pixmap.isNull():
            return
        width = max(200, self.scroll.viewport().width() - self.scroll.verticalScrollBar().sizeHint().width() - 4)
        scaled = self._pixmap.scaledToWidth(width, Qt.TransformationMode.SmoothTransformation)
        self.image.setPixmap(scaled)
        if self._highlight_top is not None:
            self.scroll.verticalScrollBar().setValue(max(0, int(self._highlight_top * scaled.height()) - 40))

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit()

    def open_file(self) -> None:
        if self.file:
            QDesktopServices.openUrl(QUrl.fromLocalFile(self.file))
