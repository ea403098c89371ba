"""The transcript: questions, streamed answers with clickable citations, their sources line and notices."""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QTimer, QUrl, Signal
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QStyle, QTextBrowser

from ..core.events import FIRST_LOOK_HEADING
from ..core.places import TABLE, also_label, place_of, short_place
from ..core.types import AskResult, Citation, Quote
from .chat_markdown import INFO_ICON, UNSUPPORTED_COLOR, WARNING_ICON, answer_html, icon_html
from .mode_names import MODE_NAMES
from .parts import fixed_pitch_font

# The inline icons, from Qt's standard set: they show on every system, whatever fonts it has.
ICONS = {WARNING_ICON: QStyle.StandardPixmap.SP_MessageBoxWarning, INFO_ICON: QStyle.StandardPixmap.SP_MessageBoxInformation}



def source_link(entry_index: int, citation: Citation) -> str:
    """One citation in the sources line: a link, "(OCR)" when read from a scan, a warning when unsupported."""
    # "p. 3" for a passage on a page; the whole place where the short form says less ("table on page 3", "section 3.2 Warranty").
    place = short_place(citation) if citation.kind != TABLE and citation.section is None else place_of(citation)
    label = f"[{citation.n}] {html.escape(Path(citation.file).name)}, {place.replace(' ', '&nbsp;')}"
    if citation.ocr:
        label += " (OCR)"
    tips = []
    if citation.ocr:
        tips.append("The text of this page was read by OCR from a scan; it may hold recognition errors.")
    style = "text-decoration:none"
    if not citation.supported:
        label = icon_html(WARNING_ICON, 12) + " " + label
        style += f"; color:{UNSUPPORTED_COLOR}"
        tips.insert(0, f"This passage may not support the sentence that cites it ({citation.reason or 'check it'}).")
    title = f' title="{html.escape(" ".join(tips))}"' if tips else ""
    return f'<a href="cite:{entry_index}:{citation.n}" style="{style}"{title}>{label}</a>'


@dataclass
class ChatEntry:
    role: str  # "user" or "assistant"
    text: str
    # The answer's result; while it streams, what is known so far (its sources, no citations yet).
    result: AskResult | None = None
    streaming: bool = False
    notices: list[str] = field(default_factory=list)
    stage: str = ""  # while no word is written yet: the step under way and the time since the question
    # The sentences shown before the answer (EvidenceSelected); a finished answer keeps them in result.quotes.
    quotes: tuple[Quote, ...] = ()
    quotes_first_look: bool = False  # the quotes are the question's own finds, before the fused evidence replaces them

    def shown_quotes(self) -> tuple[Quote, ...]:
        return self.quotes or (self.result.quotes if self.result else ())


def quotes_html(entry_index: int, quotes: tuple[Quote, ...], first_look: bool = False) -> str:
    """The quotes from the documents, under the question and above the answer; each links to its sentence on its page.
    A first look's quotes (numbered 0) have no passage number: the answer will not cite them by it."""
    if not quotes:
        return ""
    rows = []
    for i, quote in enumerate(quotes):
        c = quote.citation
        place = short_place(c) if c.kind != TABLE and c.section is None else place_of(c)
        about = f"<b>{html.escape(quote.name)}:</b> " if quote.name else ""
        rows.append(
            f"<div class='quote'>{about}&ldquo;{html.escape(c.text)}&rdquo; "
            f"<a href='quote:{entry_index}:{i}' style='text-decoration:none'>{f'[{c.n}] ' if c.n else ''}{html.escape(Path(c.file).name)}, {place.replace(' ', '&nbsp;')}</a>"
            + (f" <span class='meta'>({html.escape(also_label(c.also))})</span>" if c.also else "")  # the same text elsewhere
            + "</div>"
        )
    heading = FIRST_LOOK_HEADING if first_look else "From your documents:"
    return f"<div class='meta'>{heading}</div>" + "".join(rows)


class ChatView(QTextBrowser):
    """The transcript. Citations are links `cite:<entry>:<n>`; re-rendering is coalesced so streaming stays cheap."""

    citation_clicked = Signal(int, int)  # entry index, citation number
    quote_clicked = Signal(int, int)  # entry index, quote index

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
        # The reader at the end of the chat follows it as answers grow. The document is laid out after setHtml
        # returns, so the end moves later: it is followed as the scroll range changes, not only after a render.
        self._following, self._rendering = True, False
        self.verticalScrollBar().valueChanged.connect(self._moved)
        self.verticalScrollBar().rangeChanged.connect(self._range_changed)
        # Code in a fixed-pitch font named by its real family: CSS's generic "monospace" is only a family name to Qt,
        # which some font set-ups (DejaVu and Noto alone) resolve to a proportional font.
        fixed = fixed_pitch_font().family()
        self.document().setDefaultStyleSheet(
            ".user { background:#e8f0fe; } .who { color:#5f6368; font-size:11px; } .meta { color:#5f6368; font-size:11px; }"
            f" pre {{ background:#f1f3f4; font-family:'{fixed}'; }} code {{ font-family:'{fixed}'; background:#f1f3f4; }}"
        )

    def loadResource(self, kind: int, name: QUrl):
        key = name.toString()
        if kind == QTextDocument.ResourceType.ImageResource and key in ICONS:
            return self.style().standardIcon(ICONS[key]).pixmap(32, 32).toImage()
        # Nothing else is loaded: the model's text has no images, and nothing is fetched from a network.
        return None

    def _anchor(self, url: QUrl) -> None:
        parts = url.toString().split(":")
        if len(parts) == 3 and parts[0] == "cite":
            self.citation_clicked.emit(int(parts[1]), int(parts[2]))
        elif len(parts) == 3 and parts[0] == "quote":
            self.quote_clicked.emit(int(parts[1]), int(parts[2]))

    def _moved(self, value: int) -> None:
        if not self._rendering:  # the reader scrolled: up, they read on where they are; back at the end, they follow it
            self._following = value >= self.verticalScrollBar().maximum() - 4

    def _range_changed(self, _low: int, top: int) -> None:
        if self._following:
            self.verticalScrollBar().setValue(top)

    def set_entries(self, entries: list[ChatEntry]) -> None:
        self.entries, self._following = entries, True  # another chat opens at its end
        self.render()

    def add(self, entry: ChatEntry) -> int:
        self.entries.append(entry)
        self._following = self._following or entry.role == "user"  # a question asked brings the end of the chat into view
        self.render()
        return len(self.entries) - 1

    def schedule_render(self) -> None:
        if not self._timer.isActive():
            self._timer.start()

    def render(self) -> None:
        self._timer.stop()
        bar = self.verticalScrollBar()
        position, self._rendering = bar.value(), True
        parts = []
        for i, entry in enumerate(self.entries):
            if entry.role == "user":
                parts.append(
                    "<table width='100%' cellpadding='8' style='margin-top:10px'><tr><td class='user'>"
                    f"<span class='who'>You</span><br>{html.escape(entry.text).replace(chr(10), '<br>')}</td></tr></table>"
                )
                continue
            cites = entry.result.citations if entry.result and not entry.streaming else ()
            unsupported = {c.n: c.reason for c in cites if not c.supported}
            waiting = html.escape(entry.stage or "Thinking...")
            body = answer_html(entry.text, i, unsupported) if entry.text else f"<i style='color:#5f6368'>{waiting}</i>"
            if entry.streaming and entry.text:
                # A blue block as the cursor: a coloured space, not a block character the font may lack.
                cursor = " <span style='background:#1a73e8'>&nbsp;</span>"
                body = body[: -len("</p>")] + cursor + "</p>" if body.endswith("</p>") else body + cursor
            meta = ""
            if entry.result and not entry.streaming:
                if cites:
                    links = " &nbsp; ".join(source_link(i, c) for c in cites)
                    meta += f"<div class='meta'>Sources: {links}</div>"
                total = entry.result.timings.total
                # A whole-document answer searched nothing: the mode asked for did not make it (its notice says what did).
                mode = "Whole document" if entry.result.answered_from else MODE_NAMES.get(entry.result.mode, entry.result.mode)
                if total:
                    meta += f"<div class='meta'>{mode} &middot; {total:.1f} s</div>"
            for notice in entry.notices:
                meta += f"<div class='meta'>{icon_html(INFO_ICON, 12)} {html.escape(notice)}</div>"
            quoted = quotes_html(i, entry.shown_quotes(), entry.quotes_first_look and entry.streaming)
            parts.append(f"<div style='margin:10px 8px 4px 8px'><span class='who'>Assistant</span><br>{quoted}{body}{meta}</div>")
        if not self.entries:
            parts.append(
                "<div style='color:#5f6368; margin:40px; text-align:center'>"
                "<p style='font-size:16px'>Ask a question about your documents.</p>"
                "<p>Answers cite the file and page; click a citation to see the passage on its page.</p></div>"
            )
        self.setHtml("".join(parts))
        # setHtml scrolls to the top: a reader scrolled up to an earlier answer stays there while a new one streams.
        bar.setValue(bar.maximum() if self._following else position)
        self._rendering = False
