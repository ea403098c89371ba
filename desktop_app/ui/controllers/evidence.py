"""The evidence of an answer: a clicked citation, or a clicked fused passage, shown highlighted on its page
(a PDF) or in its document's text (Word, HTML, EPUB, text files), with its row selected in the fusion panel."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtWidgets import QStackedWidget

from ...core.formats import has_page_images
from ...core.library import Library
from ...core.page_render import render_page
from ...core.types import Citation, Passage, Source
from ..chat_view import ChatView
from ..fusion_panel import FusionPanel
from ..page_view import RENDER_ZOOM, PageView
from ..text_view import PassageTextView
from ..workers import JobRunner, call_in_background
from .feedback import Feedback


@dataclass(eq=False)
class EvidenceController:
    library: Library
    chat_view: ChatView
    fusion_panel: FusionPanel
    page_view: PageView
    feedback: Feedback
    text_view: PassageTextView
    sources: QStackedWidget  # shows the page view or the text view
    renders: JobRunner  # pages are rendered here, never on the UI thread
    make_room: Callable[[], None] = lambda: None  # gives the shown page or text its share of the side panel
    _shown: int = field(default=0, init=False)  # the latest page asked for: an earlier click's page arriving late is dropped

    def show_citation(self, entry_index: int, n: int) -> bool:
        """[n] of an answer in the transcript: the cited passage, or (an answer still streaming) the n-th passage given to the model."""
        entries = self.chat_view.entries
        if not 0 <= entry_index < len(entries) or not entries[entry_index].result:
            return False
        result = entries[entry_index].result
        cited: Citation | Passage | None = next((c for c in result.citations if c.n == n), None)
        if cited is None:
            if not 1 <= n <= len(result.context):
                self.feedback.say(f"[{n}] does not match a passage given to the model.", 5000)
                return False
            cited = result.context[n - 1].passage
        if self.fusion_panel.result is not result:  # an earlier answer: show how it was found
            self.fusion_panel.show_result(result)
        self._select_row(cited.chunk_id)
        return self._show(cited, f"[{n}]")

    def show_quote(self, entry_index: int, index: int) -> bool:
        """A quote shown before the answer: its sentence highlighted on its page."""
        entries = self.chat_view.entries
        quotes = entries[entry_index].shown_quotes() if 0 <= entry_index < len(entries) else ()
        if not 0 <= index < len(quotes):
            return False
        citation = quotes[index].citation
        self._select_row(citation.chunk_id)
        return self._show(citation, f"[{citation.n}]" if citation.n else "")

    def show_source(self, source: Source) -> bool:
        """A row of the fusion panel on its page."""
        passage = source.passage
        if passage.end <= passage.start:
            # Answers saved before passages kept their offsets: read them from the library.
            passage = self.library.passage(passage.chunk_id) or passage
        return self._show(passage)

    def _show(self, cited: Citation | Passage, label: str = "") -> bool:
        if has_page_images(cited.file):
            self.sources.setCurrentWidget(self.page_view)
            self.make_room()
            self._shown += 1
            wanted = self._shown
            file, page, start, end, bbox = cited.file, cited.page, cited.start, cited.end, tuple(cited.bbox) if cited.bbox else None

            def rendered(page_image: object) -> None:
                if wanted == self._shown:
                    self.page_view.show_rendered(file, page, page_image, label)

            call_in_background(self.renders, "render page", lambda: render_page(file, page, start, end, zoom=RENDER_ZOOM, bbox=bbox), rendered, self.page_view.failed.emit)
            return True
        # Read from the library's stored text: one indexed query for up to three pages or sections.
        excerpt = self.library.passage_excerpt(cited)
        self.sources.setCurrentWidget(self.text_view)  # first: the view scrolls by its visible height
        self.make_room()
        self.text_view.show_excerpt(excerpt, label)
        return True

    def clear(self) -> None:
        """No page or text shown: called when the chat changes, so no page of another chat stays in view."""
        self._shown += 1  # a page still rendering for the old chat is dropped when it arrives
        self.page_view.clear()
        self.text_view.clear()
        self.sources.setCurrentWidget(self.page_view)

    def _select_row(self, chunk_id: int) -> None:
        fused = self.fusion_panel.fused
        for row in range(fused.rowCount()):
            if fused.source(row).passage.chunk_id == chunk_id:
                index = self.fusion_panel.proxy.mapFromSource(fused.index(row, 0))
                table = self.fusion_panel.table
                table.selectionModel().blockSignals(True)  # selecting the row must not show its page a second time
                table.selectRow(index.row())
                table.selectionModel().blockSignals(False)
                table.scrollTo(index)
                return
