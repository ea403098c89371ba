"""A cited passage in its document's text, highlighted and scrolled into view: what the window shows for
files without a page image (Word, HTML, EPUB, text files), where a PDF shows its page (page_view.py)."""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtCore import QTimer, QUrl
from PySide6.QtGui import QColor, QDesktopServices, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QPlainTextEdit, QTextEdit, QVBoxLayout, QWidget

from ..core.text_excerpt import TextExcerpt
from .parts import caption_row

HIGHLIGHT = QColor(255, 217, 26)  # the page view's highlight colour (page_render.HIGHLIGHT_RGB)


class PassageTextView(QWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.excerpt: TextExcerpt | None = None
        self.caption, self.open_button, header = caption_row(self, "", "Open file", "Open the file in the program your system uses for it", self.open_file)
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setObjectName("passageText")
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 8)
        layout.addLayout(header)
        layout.addWidget(self.text, 1)

    def show_excerpt(self, excerpt: TextExcerpt, label: str = "") -> None:
        self.excerpt = excerpt
        prefix = f"{label} " if label else ""
        caption = f"{prefix}<b>{html.escape(Path(excerpt.file).name)}</b>, {html.escape(excerpt.place)}"
        if excerpt.notice:
            caption += f"<br><i>{html.escape(excerpt.notice)}</i>"
        self.caption.setText(caption)
        self.open_button.setEnabled(Path(excerpt.file).is_file())
        self.text.setPlainText(excerpt.text)
        highlight = QTextEdit.ExtraSelection()
        highlight.format = QTextCharFormat()
        highlight.format.setBackground(HIGHLIGHT)
        cursor = QTextCursor(self.text.document())
        cursor.setPosition(excerpt.start)
        cursor.setPosition(excerpt.end, QTextCursor.MoveMode.KeepAnchor)
        highlight.cursor = cursor
        self.text.setExtraSelections([highlight] if excerpt.end > excerpt.start else [])
        caret = QTextCursor(self.text.document())
        caret.setPosition(excerpt.start)
        self.text.setTextCursor(caret)
        self.scroll_to_passage()
        # Again once the new text is laid out at the view's size (a view just switched to has not been yet).
        QTimer.singleShot(0, self.scroll_to_passage)

    def scroll_to_passage(self) -> None:
        """The passage's first line in the middle of the view, the text before it above."""
        if self.excerpt is not None and self.text.textCursor().position() == self.excerpt.start:
            self.text.centerCursor()

    def highlighted_text(self) -> str:
        """The text under the highlight, as the user sees it ("" when nothing is highlighted)."""
        selections = self.text.extraSelections()
        return selections[0].cursor.selectedText().replace("\u2029", "\n") if selections else ""

    def open_file(self) -> None:
        if self.excerpt is not None:
            QDesktopServices.openUrl(QUrl.fromLocalFile(self.excerpt.file))
