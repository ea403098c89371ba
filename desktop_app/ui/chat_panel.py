"""The conversation: the transcript, the question box, Send/Stop and the mode switch."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QStyle, QVBoxLayout, QWidget

from .chat_view import ChatView
from .mode_names import MODE_TIP, MODES
from .parts import OneLineLabel


class QuestionEdit(QPlainTextEdit):
    """Enter sends, Shift+Enter adds a line."""

    KEYS = (("Enter", "Send the question"), ("Shift+Enter", "Start a new line in the question"))  # listed by F1
    submitted = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            self.submitted.emit()
            return
        super().keyPressEvent(event)


class ChatPanel(QWidget):
    send_requested = Signal(str)
    stop_requested = Signal()
    mode_changed = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        # One line, cut to fit (the whole title in its tooltip): a long question as the title neither widens the
        # panel over the evidence nor takes the transcript's lines.
        self.title = OneLineLabel("New chat")
        self.title.setObjectName("panelTitle")
        self.mode = QComboBox()
        for key, label in MODES:
            self.mode.addItem(label, key)
        for row, line in enumerate(MODE_TIP.splitlines()):
            self.mode.setItemData(row, line, Qt.ItemDataRole.ToolTipRole)
        self.mode.setToolTip(MODE_TIP)
        self.mode.currentIndexChanged.connect(lambda _: self.mode_changed.emit(self.mode.currentData()))
        header = QHBoxLayout()
        header.addWidget(self.title, 1)
        header.addWidget(QLabel("Mode:"))
        header.addWidget(self.mode)

        self.view = ChatView()
        self.input = QuestionEdit()
        self.input.setPlaceholderText("Ask about your documents...  (Enter sends, Shift+Enter adds a line)")
        self.input.setFixedHeight(72)
        self.input.submitted.connect(self._send)
        self.send_button = QPushButton(self.style().standardIcon(QStyle.StandardPixmap.SP_ArrowRight), "Send")
        self.send_button.setDefault(True)
        self.send_button.clicked.connect(self._send)
        self.stop_button = QPushButton(self.style().standardIcon(QStyle.StandardPixmap.SP_MediaStop), "Stop")
        self.stop_button.setToolTip("Stop the answer (Esc)")
        self.stop_button.clicked.connect(self.stop_requested)
        self.stop_button.hide()
        buttons = QVBoxLayout()
        buttons.addWidget(self.send_button)
        buttons.addWidget(self.stop_button)
        buttons.addStretch(1)
        row = QHBoxLayout()
        row.addWidget(self.input, 1)
        row.addLayout(buttons)

        self.generating = False
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addLayout(header)
        layout.addWidget(self.view, 1)
        layout.addLayout(row)

    def set_mode(self, mode: str) -> None:
        index = self.mode.findData(mode)
        if index >= 0:
            self.mode.blockSignals(True)
            self.mode.setCurrentIndex(index)
            self.mode.blockSignals(False)

    def set_generating(self, generating: bool) -> None:
        self.generating = generating
        self.send_button.setVisible(not generating)
        self.stop_button.setVisible(generating)

    def _send(self) -> None:
        text = self.input.toPlainText().strip()
        if text and not self.generating:
            self.send_requested.emit(text)
