"""In the window: overviews are built in the background after the meaning index, with their own progress in
the library panel; a document's overview is one click away (outline with page links, key sentences); a
whole-document question is answered from the overview, and the side panel says so."""

from __future__ import annotations

import threading

from PySide6.QtCore import Qt, QUrl

from desktop_app.core.library import Library
from tests.fakes import HashingEmbedder, ScriptedGenerator
from tests.overview_files import chapter_pages, write_book_pdf


def test_the_overview_is_built_shown_and_answers_whole_document_questions(make_window, data_home, tmp_path, qtbot):
    generator = ScriptedGenerator()
    library = Library(data_home, embedder=HashingEmbedder(), generator=generator)
    path = write_book_pdf(tmp_path / "docs" / "moths.pdf")
    window = make_window(library, warm_up=False)
    window.import_controller.import_paths([str(path)])
    # After the meaning index the overview queue runs on the import runner: no overview is built on the UI thread.
    qtbot.waitUntil(lambda: library.store.overview_backlog() == (1, 1), timeout=30_000)
    qtbot.waitUntil(lambda: window.overview_controller.job is None, timeout=10_000)
    assert window.library_panel.overview_status.text.text() == "Overviews ready for 1 document"

    panel = window.library_panel
    assert not panel.overview_button.isEnabled()
    panel.table.selectRow(0)
    assert panel.overview_button.isEnabled()
    panel.overview_button.click()
    qtbot.waitUntil(lambda: bool(window.overview_controller.dialogs), timeout=10_000)
    dialog = window.overview_controller.dialogs[-1]
    text = dialog.browser.toPlainText()
    assert "2 Life cycle" in text and "Eggs and caterpillars" in text
    assert "A female Lantern moth lays about forty eggs" in text  # a central sentence
    position = next(s.position for s in dialog.overview.sections if s.title == "Eggs and caterpillars")
    dialog.browser.anchorClicked.emit(QUrl(f"sentence:{position}:0"))  # a click on the sentence: its page, highlighted
    qtbot.waitUntil(lambda: window.page_view.highlighted > 0, timeout=10_000)
    assert window.source_views.currentWidget() is window.page_view

    generator.enqueue("Eggs hatch after eleven days [1]; the caterpillars pupate [2].")
    generator.hold = threading.Event()  # the model reading its prompt: the passages are shown, the answer not yet
    window.ask_controller.ask("Summarize chapter 2 of moths.pdf")
    qtbot.waitUntil(lambda: window.fusion_panel.fused.rowCount() > 0, timeout=30_000)
    # While it streamed, the panel said "Fused passages" with "0.0000" for each, and "Searched as: Summarize".
    assert window.fusion_panel.table_title.text().startswith("Passages read, not searched")
    assert "Answered from the outline of moths.pdf" in window.fusion_panel.searched_as.text()
    generator.hold.set()
    qtbot.waitUntil(lambda: window.ask_controller.job is None, timeout=30_000)
    shown = window.chat_panel.view.toPlainText()
    assert "Whole document \u00b7" in shown and "RAG-Fusion \u00b7" not in shown  # no search, so no search mode made it
    said = window.fusion_panel.searched_as
    assert said.isVisible() and "Answered from the outline of moths.pdf, 2 Life cycle" in said.text()
    result = window.chat_panel.view.entries[-1].result
    assert result.citations and {c.page for c in result.citations} <= set(chapter_pages()["2 Life cycle"])
    # Nothing was searched: the passages read carry no RRF score (they showed "0.0000", with an empty "Asked"
    # column and zero search timings, as if a search had found nothing).
    panel = window.fusion_panel
    assert panel.table_title.text().startswith("Passages read, not searched")
    fused = panel.fused
    headers = [fused.headerData(c, Qt.Orientation.Horizontal) for c in range(fused.columnCount())]
    assert fused.rowCount() > 0 and headers == ["#", "RRF", "File", "Page", "Passage"]
    assert all(fused.data(fused.index(row, 1)) == "" for row in range(fused.rowCount()))
    assert "search" not in panel.timings.text() and "total" in panel.timings.text()
