"""In the window, a Word citation names its section, and clicking it shows the passage highlighted in the
document's text (a text view) instead of a page image; a PDF citation still shows its page."""

from __future__ import annotations

from PySide6.QtCore import QUrl

from desktop_app.core.events import AnswerDone
from desktop_app.core.library import Library
from tests.document_files import WARRANTY, write_docx
from tests.fakes import HashingEmbedder, ScriptedGenerator

QUESTION = "How long is the warranty of the Orbit kettle?"


def test_clicking_a_word_citation_shows_the_passage_highlighted_in_the_text(make_window, data_home, tmp_path, qtbot, sample_pdf):
    generator = ScriptedGenerator()
    library = Library(data_home, embedder=HashingEmbedder(), generator=generator)
    list(library.import_paths([write_docx(tmp_path / "docs" / "report.docx"), sample_pdf]))
    searched = next(e for e in library.ask(QUESTION, "rag", generate_answer=False) if isinstance(e, AnswerDone)).result
    n = next(i for i, s in enumerate(searched.context, 1) if WARRANTY in s.passage.text)
    window = make_window(library)
    window.chat_panel.set_mode("rag")
    generator.enqueue(f"The warranty lasts 27 months [{n}].")
    window.ask_controller.ask(QUESTION)
    qtbot.waitUntil(lambda: window.ask_controller.job is None, timeout=30_000)

    transcript = window.chat_panel.view.toPlainText().replace("\u00a0", " ")
    assert f"[{n}] report.docx, section 3.2 Warranty" in transcript
    entry = len(window.chat_panel.view.entries) - 1
    # A click on the citation's link in the transcript.
    window.chat_panel.view.anchorClicked.emit(QUrl(f"cite:{entry}:{n}"))
    view = window.text_view
    qtbot.waitUntil(lambda: window.source_views.currentWidget() is view, timeout=5000)
    assert view.isVisible() and not window.page_view.isVisible()
    assert WARRANTY in view.highlighted_text()
    assert "report.docx" in view.caption.text() and "section 3.2 Warranty" in view.caption.text()
    # Scrolled into view: the highlight's first line lies inside the visible part of the text (the section
    # before it is longer than the view, so unscrolled it would be below the bottom edge).
    assert view.text.textCursor().position() == view.excerpt.start

    def passage_in_view() -> bool:
        caret = view.text.cursorRect()
        return view.text.verticalScrollBar().value() > 0 and 0 <= caret.top() and caret.bottom() <= view.text.viewport().height()

    qtbot.waitUntil(passage_in_view, timeout=5000)
    fused = window.fusion_panel.fused
    places = [fused.data(fused.index(r, fused.columnCount() - 2)) for r in range(fused.rowCount())]
    assert "3.2 Warranty" in places

    # A PDF passage in the fusion panel still shows its page image.
    row = next(r for r in range(fused.rowCount()) if fused.source(r).passage.file.endswith(".pdf"))
    assert window.evidence_controller.show_source(fused.source(row))
    assert window.source_views.currentWidget() is window.page_view and window.page_view.highlighted > 0
