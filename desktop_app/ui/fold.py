"""A fold: one summary line that opens and closes the detail under it. The library panel's import list and its
watched folders are folds, so however many files or folders there are, the panel's height stays the same."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QScrollArea, QToolButton, QVBoxLayout, QWidget

from .parts import OneLineLabel


def scrolled(content: QWidget, max_height: int) -> QScrollArea:
    """`content` in a frameless scroll area at most `max_height` high: a long list scrolls instead of growing."""
    area = QScrollArea()
    area.setWidget(content)
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    area.setMaximumHeight(max_height)
    return area


class Fold(QWidget):
    """[arrow] summary ........ [buttons]; what `always` holds (a bar); then the body, shown while open.
    A click on the arrow or on the summary opens or closes it."""

    toggled = Signal(bool)

    def __init__(self, body: QWidget, *buttons: QWidget, always: tuple[QWidget, ...] = (), is_open: bool = False, parent=None):
        super().__init__(parent)
        self.body = body
        self.arrow = QToolButton()
        self.arrow.setAutoRaise(True)
        self.arrow.setCheckable(True)
        self.arrow.setToolTip("Show or hide the details")
        self.arrow.toggled.connect(self._toggled)
        self.summary = OneLineLabel()
        self.summary.setCursor(Qt.CursorShape.PointingHandCursor)
        self.summary.installEventFilter(self)
        header = QHBoxLayout()
        header.setContentsMargins(0, 0, 0, 0)
        header.setSpacing(2)
        header.addWidget(self.arrow)
        header.addWidget(self.summary, 1)
        for button in buttons:
            header.addWidget(button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 2, 0, 2)
        layout.setSpacing(2)
        layout.addLayout(header)
        for widget in always:
            layout.addWidget(widget)
        layout.addWidget(body)
        self.arrow.setChecked(is_open)
        self._toggled(is_open)

    @property
    def is_open(self) -> bool:
        return self.arrow.isChecked()

    def set_open(self, is_open: bool) -> None:
        self.arrow.setChecked(is_open)

    def set_summary(self, text: str, tip: str = "") -> None:
        self.summary.setText(text)
        if tip:
            self.summary.setToolTip(tip)

    def _toggled(self, is_open: bool) -> None:
        self.arrow.setArrowType(Qt.ArrowType.DownArrow if is_open else Qt.ArrowType.RightArrow)
        self.body.setVisible(is_open)
        self.toggled.emit(is_open)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.summary and event.type() == QEvent.Type.MouseButtonRelease:
            self.arrow.toggle()
            return True
        return super().eventFilter(watched, event)
