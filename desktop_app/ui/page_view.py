"""The cited page as an image, with the passage highlighted: zoom (fit width, in, out), open it large in its
own window, open the file itself; cleared when the chat changes."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtGui import QDesktopServices, QGuiApplication, QKeySequence, QPixmap, QShortcut
from PySide6.QtWidgets import QDialog, QHBoxLayout, QLabel, QScrollArea, QToolButton, QVBoxLayout, QWidget

from ..core.errors import AppError
from ..core.page_render import RenderedPage, render_page
from .parts import Pixmap, caption_row, push_button

HINT = "Click a citation or a passage to see it on its page."
# Pages are drawn at 1.5x their size in points (108 dpi): sharp up to about 150 % on screen.
RENDER_ZOOM = 1.5
ZOOM_STEP = 1.25
MIN_ZOOM, MAX_ZOOM = 0.25, 4.0


class PageView(QWidget):
    failed = Signal(object)  # an AppError for the status bar

    def __init__(self, parent=None, can_open_large: bool = True):
        super().__init__(parent)
        self.file: str | None = None
        self.page: int | None = None
        self.highlighted = 0
        self.zoom: float | None = None  # the page's size on screen, 1.0 = its size in points; None = fit the width
        self._pixmap: QPixmap | None = None
        self._highlight_top: float | None = None
        self._large: PageWindow | None = None
        self.caption, self.open_button, header = caption_row(self, HINT, "Open PDF", "Open the file in your PDF viewer", self.open_file)
        self.fit_button = self._zoom_button("Fit width", "Fit the page to the width of the view", self.fit_width)
        self.fit_button.setCheckable(True)
        self.zoom_out_button = self._zoom_button("-", "Zoom out (Ctrl+-)", self.zoom_out)
        self.zoom_in_button = self._zoom_button("+", "Zoom in (Ctrl++)", self.zoom_in)
        self.zoom_label = QLabel("")
        self.zoom_label.setObjectName("hint")
        self.zoom_label.setMinimumWidth(44)
        self.zoom_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        tools = QHBoxLayout()
        tools.addWidget(self.fit_button)
        tools.addWidget(self.zoom_out_button)
        tools.addWidget(self.zoom_label)
        tools.addWidget(self.zoom_in_button)
        tools.addStretch(1)
        self.large_button = None
        if can_open_large:
            self.large_button = push_button(self, Pixmap.SP_TitleBarMaxButton, "Open large", "Show the page in its own window", self.open_large)
            tools.addWidget(self.large_button)
        self.image = QLabel()
        self.image.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
        self.image.setObjectName("pageImage")
        self.scroll = QScrollArea()
        self.scroll.setWidget(self.image)
        self.scroll.setWidgetResizable(True)
        self.scroll.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 8)
        layout.addLayout(header)
        layout.addLayout(tools)
        layout.addWidget(self.scroll, 1)
        for keys, slot, what in ((QKeySequence.StandardKey.ZoomIn, self.zoom_in, "Zoom in on the cited page"), (QKeySequence.StandardKey.ZoomOut, self.zoom_out, "Zoom out of the cited page")):
            shortcut = QShortcut(keys, self)
            shortcut.setWhatsThis(what)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(slot)
        self._enable_tools()

    def _zoom_button(self, text: str, tip: str, slot) -> QToolButton:
        button = QToolButton()
        button.setText(text)
        button.setToolTip(tip)
        button.clicked.connect(slot)
        return button

    def show_passage(self, file: str, page: int, start: int | None, end: int | None, label: str = "", bbox=None) -> bool:
        """bbox (a table chunk's area) is highlighted whole instead of the words of [start, end)."""
        try:
            rendered = render_page(file, page, start, end, zoom=RENDER_ZOOM, bbox=tuple(bbox) if bbox else None)
        except AppError as exc:
            self.failed.emit(exc)
            return False
        self.show_rendered(file, page, rendered, label)
        return True

    def show_rendered(self, file: str, page: int, rendered: RenderedPage, label: str = "") -> None:
        """A page rendered elsewhere (the window renders on a worker thread, EvidenceController)."""
        pixmap = QPixmap()
        pixmap.loadFromData(rendered.png, "PNG")
        prefix = f"{label} " if label else ""
        caption = f"{prefix}<b>{Path(file).name}</b>, page {page} of {rendered.page_count}"
        self.show_pixmap(file, page, pixmap, rendered.highlight_top, caption, rendered.highlighted)
        if self._large is not None and self._large.isVisible():
            self._large.view.show_pixmap(file, page, pixmap, rendered.highlight_top, caption, rendered.highlighted)

    def show_pixmap(self, file: str, page: int, pixmap: QPixmap, highlight_top: float | None, caption: str, highlighted: int = 0) -> None:
        self.file, self.page, self.highlighted = file, page, highlighted
        self._pixmap, self._highlight_top = pixmap, highlight_top
        self.caption.setText(caption)
        self.open_button.setEnabled(True)
        self._enable_tools()
        self._fit(scroll_to_highlight=True)

    def clear(self) -> None:
        """Nothing shown: a new or another chat does not keep the last chat's page."""
        self.file, self.page, self.highlighted = None, None, 0
        self._pixmap, self._highlight_top = None, None
        self.zoom = None
        self.image.clear()
        self.caption.setText(HINT)
        self.open_button.setEnabled(False)
        self._enable_tools()
        if self._large is not None:
            self._large.close()

    # -- zoom -----------------------------------------------------------------------------------
    def fit_width(self) -> None:
        self.zoom = None
        self._fit()

    def zoom_in(self) -> None:
        self._set_zoom(self.current_zoom() * ZOOM_STEP)

    def zoom_out(self) -> None:
        self._set_zoom(self.current_zoom() / ZOOM_STEP)

    def current_zoom(self) -> float:
        """The page's size on screen relative to its size in points (what "100 %" means in a PDF viewer)."""
        if self._pixmap is None or self._pixmap.isNull():
            return 1.0
        return self.image.pixmap().width() / (self._pixmap.width() / RENDER_ZOOM) if not self.image.pixmap().isNull() else 1.0

    def _set_zoom(self, zoom: float) -> None:
        if self._pixmap is None:
            return
        self.zoom = min(MAX_ZOOM, max(MIN_ZOOM, zoom))
        self._fit()

    def _fit_width(self) -> int:
        return max(200, self.scroll.viewport().width() - self.scroll.verticalScrollBar().sizeHint().width() - 4)

    def _fit(self, scroll_to_highlight: bool = False) -> None:
        if self._pixmap is None or self._pixmap.isNull():
            return
        bar = self.scroll.verticalScrollBar()
        position = bar.value() / max(1, bar.maximum()) if bar.maximum() else 0.0
        if self.zoom is None:
            width = self._fit_width()
        else:
            width = int(self._pixmap.width() / RENDER_ZOOM * self.zoom)
        scaled = self._pixmap.scaledToWidth(width, Qt.TransformationMode.SmoothTransformation)
        self.image.setPixmap(scaled)
        self.image.adjustSize()
        self.zoom_label.setText(f"{round(self.current_zoom() * 100)} %")
        self.fit_button.setChecked(self.zoom is None)
        if scroll_to_highlight and self._highlight_top is not None:
            bar.setValue(max(0, int(self._highlight_top * scaled.height()) - 40))
        else:
            bar.setValue(int(position * bar.maximum()))

    def _enable_tools(self) -> None:
        shown = self._pixmap is not None
        for button in (self.fit_button, self.zoom_out_button, self.zoom_in_button, self.large_button):
            if button is not None:
                button.setEnabled(shown)
        if not shown:
            self.zoom_label.setText("")

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self.zoom is None:
            self._fit()

    # -- the page in its own window, the file in its viewer --------------------------------------
    def open_large(self) -> None:
        if self._pixmap is None or self.file is None or self.page is None:
            return
        if self._large is None:
            self._large = PageWindow(self.window())
            self._large.view.failed.connect(self.failed)
        self._large.view.show_pixmap(self.file, self.page, self._pixmap, self._highlight_top, self.caption.text(), self.highlighted)
        self._large.show()
        self._large.activateWindow()

    @property
    def large_window(self) -> "PageWindow | None":
        return self._large

    def open_file(self) -> None:
        if self.file:
            QDesktopServices.openUrl(QUrl.fromLocalFile(self.file))


class PageWindow(QDialog):
    """The shown page in a window of its own, most of the screen high; it follows the page shown in the panel."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Page")
        self.setModal(False)
        self.view = PageView(self, can_open_large=False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.view)
        screen = (parent.screen() if parent is not None else None) or QGuiApplication.primaryScreen()
        available = screen.availableGeometry()
        self.resize(min(1100, available.width()), int(available.height() * 0.9))
