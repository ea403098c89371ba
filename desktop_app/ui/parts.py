"""Small pieces the panels share: buttons (a standard icon, a tooltip, what a click reaches), a panel's title row,
the caption row above a shown passage, and the font code is shown in."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
from PySide6.QtGui import QFont, QFontDatabase, QFontInfo, QFontMetricsF
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QSizePolicy, QStyle, QToolButton, QVBoxLayout, QWidget

Pixmap = QStyle.StandardPixmap


def inline_icon(owner: QWidget, icon: Pixmap, size: int = 14) -> str:
    """A standard icon as an <img> for a rich-text label (a data URL): drawn on every system, unlike a symbol
    character ("\u26a0") that the user's fonts may lack."""
    pixmap = owner.style().standardIcon(icon).pixmap(size, size)
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    pixmap.save(buffer, "PNG")
    return f'<img src="data:image/png;base64,{bytes(data.toBase64()).decode()}" width="{size}" height="{size}" style="vertical-align:middle">'


class OneLineLabel(QLabel):
    """A label one line high whatever its text: cut with "..." to the width it gets, the whole text in its
    tooltip. A status that wraps in a narrow panel grows taller than its layout gave it and is drawn over its
    neighbours; one line never is, and the tooltip keeps nothing out of reach."""

    def __init__(self, text: str = "", parent: QWidget | None = None):
        super().__init__(parent)
        self._full = ""
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setText(text)

    def setText(self, text: str) -> None:
        self._full = text
        self.setToolTip(text)
        self._elide()

    def text(self) -> str:
        """The whole text, not the part that fits."""
        return self._full

    def minimumSizeHint(self):
        hint = super().minimumSizeHint()
        hint.setWidth(self.fontMetrics().horizontalAdvance("..."))
        return hint

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        super().setText(self.fontMetrics().elidedText(self._full, Qt.TextElideMode.ElideRight, max(self.width(), 1)))


def push_button(owner: QWidget, icon: Pixmap, text: str, tip: str, clicked: Callable[..., Any] | Any) -> QPushButton:
    """A labelled button; `clicked` is a slot, or a signal of `owner` to relay the click."""
    button = QPushButton(owner.style().standardIcon(icon), text)
    button.setToolTip(tip)
    button.clicked.connect(clicked)
    return button


def tool_button(owner: QWidget, icon: Pixmap, tip: str, clicked: Callable[..., Any] | Any) -> QToolButton:
    """A small icon-only button beside a list or a title."""
    button = QToolButton()
    button.setIcon(owner.style().standardIcon(icon))
    button.setToolTip(tip)
    button.clicked.connect(clicked)
    return button


def button_block(owner: QWidget, label: QLabel, button: QToolButton, *below: QWidget, margin: int = 4) -> QVBoxLayout:
    """`owner`'s layout for a status under the import rows (a file's row, the meaning-index queue, the watched
    folders): a label with its button at the right, then what goes under it (a bar, a status line, a list)."""
    button.setAutoRaise(True)
    top = QHBoxLayout()
    top.setContentsMargins(0, 0, 0, 0)
    top.addWidget(label, 1)
    top.addWidget(button)
    layout = QVBoxLayout(owner)
    layout.setContentsMargins(margin, 2, margin, 2)
    layout.setSpacing(2)
    layout.addLayout(top)
    for widget in below:
        layout.addWidget(widget)
    return layout


def caption_row(owner: QWidget, hint: str, open_text: str, open_tip: str, clicked: Callable[..., Any]) -> tuple[QLabel, QPushButton, QHBoxLayout]:
    """What a passage view shows above the passage: a caption (where it is) and a button that opens the file,
    disabled until there is a file to open."""
    caption = QLabel(hint)
    caption.setObjectName("hint")
    caption.setWordWrap(True)
    button = push_button(owner, Pixmap.SP_DirOpenIcon, open_text, open_tip, clicked)
    button.setEnabled(False)
    row = QHBoxLayout()
    row.addWidget(caption, 1)
    row.addWidget(button)
    return caption, button, row


def title_row(title: str, *widgets: QWidget) -> QHBoxLayout:
    """A panel's title on the left, its buttons on the right."""
    row = QHBoxLayout()
    label = QLabel(title)
    label.setObjectName("panelTitle")
    row.addWidget(label, 1)
    for widget in widgets:
        row.addWidget(widget)
    return row


def _draws_fixed_pitch(font: QFont) -> bool:
    drawn = QFontMetricsF(font)
    return drawn.horizontalAdvance("i") == drawn.horizontalAdvance("M")


def fixed_pitch_font() -> QFont:
    """The system's fixed font, as a real family that draws every character the same width.

    The system's fixed font is often the generic name "monospace", which Qt resolves through the machine's font
    set-up; with some (DejaVu and Noto alone) that is a proportional font. Then the first installed family that
    draws fixed-pitch is used, checked by measuring, not by the name."""
    font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    font.setFamilies([QFontInfo(font).family()])  # the family actually drawn, not an alias
    if _draws_fixed_pitch(font):
        return font
    for family in QFontDatabase.families():
        if QFontDatabase.isFixedPitch(family):
            candidate = QFont(font)
            candidate.setFamilies([family])
            if _draws_fixed_pitch(candidate):
                return candidate
    return font
