"""The conversation: the transcript with clickable citations, the question box, Send/Stop and the mode switch."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QStyle,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from ..core.ingest.pdf_tables import place_label

CITATION = re.compile(r"\[(\d{1,2})\]")
# Every mode of core.settings.MODES, with the name a person reads.
MODES = (
    ("fusion", "RAG-Fusion"),
    ("rag", "Plain RAG"),
    ("naive-fusion", "Naive fusion (paper)"),
    ("multi-query", "Multi-query (union)"),
    ("rewrite", "Rewrite-retrieve-read"),
    ("hyde", "HyDE"),
    ("sql", "Tables (SQL)"),
)
MODE_NAMES = dict(MODES)
MODE_TIP = (
    "RAG-Fusion: the model writes several search queries; their results are merged by reciprocal rank fusion.\n"
    "Plain RAG: the question alone is searched.\n"
    "Naive fusion (paper): RAG-Fusion with the paper's original recipe, for comparison.\n"
    "Multi-query (union): the same queries, results merged by union and best similarity (no RRF).\n"
    "Rewrite-retrieve-read: the model rewrites the question into one search query.\n"
    "HyDE: the model writes a hypothetical passage, and passages like it are searched.\n"
    "Tables (SQL): the model writes SQL over your CSV and Excel tables (chosen by itself when you ask only tables)."
)
UNSUPPORTED_COLOR = "#b3261e"


def source_link(entry_index: int, citation: dict) -> str:
    """One citation in the sources line: a link, "(OCR)" when read from a scan, a warning when unsupported."""
    place = place_label(citation["page"], "table") if citation.get("kind") == "table" else f'p. {citation["page"]}'
    label = f'[{citation["n"]}] {html.escape(Path(citation["file"]).name)}, {place.replace(" ", "&nbsp;")}'
    if citation.get("ocr"):
        label += " (OCR)"
    tips = []
    if citation.get("ocr"):
        tips.append("The text of this page was read by OCR from a scan; it may hold recognition errors.")
    style = "text-decoration:none"
    if citation.get("supported", True) is False:
        label = "&#9888; " + label
        style += f"; color:{UNSUPPORTED_COLOR}"
        tips.insert(0, "This passage may not support the sentence that cites it; check it.")
    title = f' title="{html.escape(" ".join(tips))}"' if tips else ""
    return f'<a href="cite:{entry_index}:{citation["n"]}" style="{style}"{title}>{label}</a>'



@dataclass
class ChatEntry:
    role: str  # "user" or "assistant"
    text: str
    result: dict | None = None  # serialize.result_to_json of the answer
    streaming: bool = False
    notices: list[str] = field(default_factory=list)


class QuestionEdit(QPlainTextEdit):
    """Enter sends, Shift+Enter adds a line."""

    submitted = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            self.submitted.emit()
            return
        super().keyPressEvent(event)


def answer_html(text: str, entry_index: int, unsupported: frozenset[int] = frozenset()) -> str:
    escaped = html.escape(text).replace("\n", "<br>")

    def link(m: re.Match) -> str:
        n = int(m.group(1))
        if n in unsupported:
            return (f'<a href="cite:{entry_index}:{n}" style="text-decoration:none; color:{UNSUPPORTED_COLOR}" '
                    f'title="This passage may not support this sentence"><b>[{n}]&#9888;</b></a>')
        return f'<a href="cite:{entry_index}:{n}" style="text-decoration:none"><b>[{n}]</b></a>'

    return CITATION.sub(link, escaped)


class ChatView(QTextBrowser):
    """The transcript. Citations are links `cite:<entry>:<n>`; re-rendering is coalesced so streaming stays cheap."""

    citation_clicked = Signal(int, int)  # entry index, citation number

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.anchorClicked.connect(self._anchor)
        self.entries: list[ChatEntry] = []
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(40)
        self._timer.timeout.connect(self.render)
        self.document().setDefaultStyleSheet(
            ".user { background:#e8f0fe; } .who { color:#5f6368; font-size:11px; } .meta { color:#5f6368; font-size:11px; }"
        )

    def _anchor(self, url: QUrl) -> None:
        parts = url.toString().split(":")
        if len(parts) == 3 and parts[0] == "cite":
            self.citation_clicked.emit(int(parts[1]), int(parts[2]))

    def set_entries(self, entries: list[ChatEntry]) -> None:
        self.entries = entries
        self.render()

    def add(self, entry: ChatEntry) -> int:
        self.entries.append(entry)
        self.render()
        return len(self.entries) - 1

    def schedule_render(self) -> None:
        if not self._timer.isActive():
            self._timer.start()

    def render(self) -> None:
        self._timer.stop()
        bar = self.verticalScrollBar()
        at_bottom = bar.value() >= bar.maximum() - 4
        parts = []
        for i, entry in enumerate(self.entries):
            if entry.role == "user":
                parts.append(
                    "<table width='100%' cellpadding='8' style='margin-top:10px'><tr><td class='user'>"
                    f"<span class='who'>You</span><br>{html.escape(entry.text).replace(chr(10), '<br>')}</td></tr></table>"
                )
                continue
            cites = entry.result.get("citations", []) if entry.result and not entry.streaming else []
            unsupported = frozenset(c["n"] for c in cites if c.get("supported", True) is False)
            body = answer_html(entry.text, i, unsupported) if entry.text else "<i style='color:#5f6368'>thinking...</i>"
            if entry.streaming and entry.text:
                body += " <span style='color:#1a73e8'>&#9612;</span>"
            meta = ""
            if entry.result and not entry.streaming:
                if cites:
                    links = " &nbsp; ".join(source_link(i, c) for c in cites)
                    meta += f"<div class='meta'>Sources: {links}</div>"
                total = entry.result.get("timings", {}).get("total")
                mode = MODE_NAMES.get(entry.result.get("mode", ""), entry.result.get("mode", ""))
                if total:
                    meta += f"<div class='meta'>{mode} &middot; {total:.1f} s</div>"
            for notice in entry.notices:
                meta += f"<div class='meta'>&#9432; {html.escape(notice)}</div>"
            parts.append(f"<div style='margin:10px 8px 4px 8px'><span class='who'>Assistant</span><br>{body}{meta}</div>")
        if not self.entries:
            parts.append(
                "<div style='color:#5f6368; margin:40px; text-align:center'>"
                "<p style='font-size:16px'>Ask a question about your documents.</p>"
                "<p>Answers cite the file and page; click a citation to see the passage on its page.</p></div>"
            )
        self.setHtml("".join(parts))
        if at_bottom:
            bar.setValue(bar.maximum())


class ChatPanel(QWidget):
    send_requested = Signal(str)
    stop_requested = Signal()
    mode_changed = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.title = QLabel("New chat")
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
