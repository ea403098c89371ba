"""What the user reads in the window, offscreen with fast fakes: no missing glyphs, safe Markdown answers,
a roomy evidence table, a page preview that zooms and clears, settings in plain words, chats told apart."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QFont, QFontMetricsF, QTextCursor, QTextDocument
from PySide6.QtWidgets import QTextBrowser

from desktop_app.core.library import Library
from tests.fakes import HashingEmbedder, ScriptedGenerator


def fake_library(home, *replies):
    return Library(home, embedder=HashingEmbedder(), generator=ScriptedGenerator(replies))


def missing_glyphs(view: QTextBrowser) -> list[str]:
    """The characters drawn as the font's "missing glyph" box (glyph index 0) in the view's laid-out text."""
    missing = []
    block = view.document().begin()
    while block.isValid():
        layout = block.layout()
        for line in range(layout.lineCount() if layout is not None else 0):
            if any(0 in run.glyphIndexes() for run in layout.lineAt(line).glyphRuns()):
                missing.append(block.text())
        block = block.next()
    return missing


def test_notices_and_warnings_draw_no_missing_glyph_boxes(make_window, data_home):
    from desktop_app.core.types import Citation
    from desktop_app.ui.chat_view import ChatEntry
    from tests.ui.results import ask_result

    window = make_window(fake_library(data_home))
    result = ask_result(
        mode="fusion",
        total_s=1.0,
        citations=[Citation(1, "/d/manual.pdf", 5, "x", chunk_id=2, start=0, end=1, supported=False, ocr=False)],
        notices=["No passage mentions the word you asked about."],
    )
    view = window.chat_panel.view
    view.set_entries([ChatEntry("assistant", "It is so [1].", result, notices=list(result.notices))])
    view.document().setTextWidth(view.viewport().width())
    assert view.document().begin().layout().lineCount()  # laid out: the test reads real glyphs
    assert "No passage mentions" in view.toPlainText()
    assert missing_glyphs(view) == []
    # The notice and the warnings are icons from Qt's standard set, which load.
    html = view.toHtml()
    assert "icon:info" in html and "icon:warning" in html
    image = view.loadResource(QTextDocument.ResourceType.ImageResource.value, QUrl("icon:info"))
    assert image is not None and not image.isNull()
    # The library's warning line too: an icon, not the U+26A0 character.
    window.library_panel.show_warning("The disk is full.")
    assert "\u26a0" not in window.library_panel.warning.text() and "data:image/png" in window.library_panel.warning.text()


@pytest.fixture
def proportional_monospace():
    """A machine whose font set-up resolves the generic "monospace" to a proportional font (as DejaVu and Noto
    alone can): what the app asks for by that name is drawn in DejaVu Sans there."""
    QFont.insertSubstitution("monospace", "DejaVu Sans")
    yield
    QFont.removeSubstitutions("monospace")


def test_markdown_answers_render_code_monospace_and_the_models_html_as_text(make_window, data_home, proportional_monospace):
    from desktop_app.ui.chat_view import ChatEntry
    from tests.ui.results import ask_result

    window = make_window(fake_library(data_home))
    answer = (
        "Use `seq_len(n)` to count [1].\n\n```r\n> x <- c(1, 2)\n> x[1]\n```\n\n"
        "<img src=http://example.com/track.png> <script>alert(1)</script> ![chart](http://example.com/c.png)"
    )
    view = window.chat_panel.view
    view.set_entries([ChatEntry("assistant", answer, ask_result(mode="fusion", total_s=1.0))])
    text = view.toPlainText()
    assert "`" not in text  # the backticks are Markdown, not text
    assert "<img src=http://example.com/track.png>" in text and "<script>alert(1)</script>" in text
    assert "![chart](http://example.com/c.png)" in text  # an image the model names is not fetched
    # Code reads in a fixed-pitch font, inline and in a block, as drawn (whatever fonts the machine has): a narrow
    # and a wide letter take the same width. Its "> " prompt stays as written, no quote.
    for snippet in ("seq_len(n)", "> x <- c(1, 2)"):
        cursor = view.document().find(snippet)
        assert not cursor.isNull(), snippet
        cursor.setPosition(cursor.selectionStart() + 1, QTextCursor.MoveMode.MoveAnchor)
        drawn = QFontMetricsF(cursor.charFormat().font())
        assert drawn.horizontalAdvance("i") == drawn.horizontalAdvance("M"), snippet
    prose = view.document().find("to count")
    drawn = QFontMetricsF(prose.charFormat().font())
    assert drawn.horizontalAdvance("i") < drawn.horizontalAdvance("M")  # the answer's prose is not in the code font
    # "[1]" in code stays code; "[1]" in the prose is a citation link.
    assert view.toHtml().count('href="cite:0:1"') == 1


def many_query_result(n_queries: int = 4, n_passages: int = 20):
    from desktop_app.core.types import RankedList, SearchHit
    from tests.ui.results import ask_result, fused_sources, passage

    question = "How do I make a list in R?"
    queries = tuple(f"R list creation example {i}" for i in range(1, n_queries + 1))
    passages = {
        i: passage(i, "/docs/R-intro.pdf", 20 + i, f"Lists and data frames: an R list is an object consisting of an ordered collection {i}.")
        for i in range(1, n_passages + 1)
    }
    lists = tuple(
        RankedList(q, "vector", tuple(SearchHit(c, r, 0.5) for r, c in enumerate(sorted(passages, key=lambda c: (c * (j + 3)) % 17), 1)))
        for j, q in enumerate((question, *queries))
    )
    return ask_result(question, "fusion", queries, fused_sources(lists, passages), total_s=1.0, lists=lists)


def test_the_fused_passages_show_passage_file_and_page_first_with_many_rows(make_window, data_home, qtbot):
    window = make_window(fake_library(data_home))
    qtbot.waitExposed(window)
    panel = window.fusion_panel
    # A chat titled after a long question must not widen the chat panel over the evidence.
    window.chat_panel.title.setText("How do I make a list in R, name its components and take one out again by name?")
    panel.show_result(many_query_result())
    qtbot.wait(50)
    table, header = panel.table, panel.table.horizontalHeader()
    fused = panel.fused
    n_keys = len(fused.query_keys)
    passage, file, page = n_keys + 4, n_keys + 2, n_keys + 3
    # Reading order: #, Passage, File, Page, then the score and the rank columns.
    assert [header.logicalIndex(v) for v in range(4)] == [0, passage, file, page]
    viewport = table.viewport().rect()
    for column in (passage, file, page, *range(1, 2 + n_keys)):  # every column fits: no horizontal scrolling
        rect = table.visualRect(table.model().index(0, column))
        assert viewport.contains(rect), (column, rect, viewport)
    assert table.columnWidth(passage) >= 200  # the passage text has the room
    assert max(table.columnWidth(c) for c in range(2, 2 + n_keys)) <= 56  # rank columns are narrow
    visible_rows = sum(1 for r in range(fused.rowCount()) if viewport.contains(table.visualRect(table.model().index(r, 0))))
    assert visible_rows >= 8
    # Columns are explained in their header tooltips, not by a label under the table.
    tip = fused.headerData(3, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
    assert "R list creation example 1" in tip and "Rank" in tip
    assert not hasattr(panel, "legend")


def test_the_page_preview_zooms_opens_large_and_clears_with_the_chat(make_window, data_home, sample_pdf, qtbot):
    library = fake_library(data_home)
    list(library.import_paths([sample_pdf]))
    window = make_window(library)
    qtbot.waitExposed(window)
    view = window.page_view
    assert view.show_passage(str(sample_pdf), 1, 0, 40, "[1]")
    fit = view.image.pixmap().width()
    # Fit width: the page fills the view's width (no narrow thumbnail).
    assert fit >= view.scroll.viewport().width() - 40
    assert view.fit_button.isChecked()
    view.zoom_in()
    assert view.image.pixmap().width() > fit * 1.2 and not view.fit_button.isChecked()
    assert view.zoom_label.text() == f"{round(view.current_zoom() * 100)} %"
    view.zoom_out()
    view.zoom_out()
    assert view.image.pixmap().width() < fit
    view.fit_width()
    assert view.image.pixmap().width() == fit
    # Open large: its own window, much larger than the panel's preview, showing the same page.
    view.open_large()
    large = view.large_window
    qtbot.waitExposed(large)
    assert large.isVisible() and large.view.page == 1
    assert large.view.image.pixmap().width() > fit and large.view.fit_button.isChecked()
    # A new chat clears the preview (and closes the large window); so does opening another chat.
    window.chat_controller.new_chat()
    assert view.file is None and view.image.pixmap().isNull() and not large.isVisible()
    assert "Click a citation" in view.caption.text() and not view.zoom_in_button.isEnabled()
    assert view.show_passage(str(sample_pdf), 1, 0, 40)
    chat = library.create_chat("another chat")
    window.chat_controller.refresh()
    window.chat_controller.open_chat(chat)
    assert view.file is None and view.image.pixmap().isNull()


def test_settings_show_plain_sections_and_a_collapsed_advanced_part(make_window, data_home, qtbot, open_settings):
    from PySide6.QtWidgets import QGroupBox, QLabel

    from desktop_app.core.settings import SETTING_HELP, load_settings

    window = make_window(fake_library(data_home))
    dialog = open_settings(window)
    assert [box.title() for box in dialog.findChildren(QGroupBox)] == ["Model", "Search", "Answers"]
    shown = [label.text() for label in dialog.findChildren(QLabel) if label.isVisible()]
    # The plain choices a person makes, each with what it changes; no research knob in sight.
    for label in ("Answers from:", "Model:", "How thorough:", "Passages in the answer:"):
        assert label in shown, label
    assert SETTING_HELP["top_k"].text in shown
    assert not any("RRF" in text or "weight" in text.lower() for text in shown)
    assert dialog.thoroughness.currentText() == "Balanced" and "At most 4 extra search queries" in dialog.thoroughness_help.text()
    # Advanced, opened: every other setting, with its sentence; "Generated queries" says "at most".
    assert not dialog.advanced.isVisible()
    dialog.advanced_toggle.click()
    assert dialog.advanced.isVisible()
    shown = [label.text() for label in dialog.findChildren(QLabel) if label.isVisible() or dialog.advanced.isAncestorOf(label)]
    assert "Generated queries (at most):" in shown and SETTING_HELP["rrf_k"].text in shown
    for name, help_ in SETTING_HELP.items():
        assert help_.text in shown, name
    # The plain choice sets the numbers it stands for, and is saved.
    dialog.thoroughness.setCurrentIndex(dialog.thoroughness.findText("Thorough"))
    assert (dialog.n_queries.value(), dialog.list_depth.value()) == (6, 40)
    window.settings_controller.apply(dialog.settings())  # saved on the library runner, not in the window
    qtbot.waitUntil(lambda: (load_settings(data_home).n_queries, load_settings(data_home).list_depth) == (6, 40))
    dialog.n_queries.setValue(3)  # set by hand: the plain choice says Custom, and what the numbers do
    assert dialog.thoroughness.currentText() == "Custom" and "at most 3" in dialog.thoroughness_help.text()
    dialog.restore_defaults()
    assert dialog.thoroughness.currentText() == "Balanced"


def test_rerun_answers_from_the_edited_queries_and_the_chat_keeps_them(make_window, data_home, sample_pdf, qtbot):
    library = fake_library(data_home, "PX-40 temperature limit\nPX-40 coolant inlet", "It runs to 85 degrees Celsius [1].")
    list(library.import_paths([sample_pdf]))
    window = make_window(library)
    window.ask_controller.ask("What is the maximum operating temperature?")
    qtbot.waitUntil(lambda: window.ask_controller.job is None, timeout=30_000)
    panel = window.fusion_panel
    assert panel.rerun.isEnabled()
    panel.queries.setStringList(["PX-40 enclosure IP rating", "PX-40 dust and water protection"])
    generator = library.generator()
    generator.enqueue("The enclosure is rated IP67 [1].")
    panel.rerun.click()
    qtbot.waitUntil(lambda: window.ask_controller.job is None, timeout=30_000)
    entries = window.chat_panel.view.entries
    assert [e.role for e in entries] == ["user", "assistant", "user", "assistant"]
    answer = entries[-1]
    # Cited as the model wrote it, or moved to the passage that says it (which one is [1] is the evidence step's choice).
    assert answer.text.startswith("The enclosure is rated IP67 [") and answer.result.citations
    assert all(c.supported and "IP67" in c.text for c in answer.result.citations)
    assert answer.result.queries == ("PX-40 enclosure IP rating", "PX-40 dust and water protection")
    assert any("you edited" in n for n in answer.notices)
    # The answer was written from what the edited queries found.
    assert "PX-40 enclosure IP rating" in panel.fused.query_keys
    assert answer.result.timings.first_token > 0  # measured: an answer was written (a search-only re-run had none)
    assert "first token" in panel.timings.text()
    # Reopened later, the chat shows the edited queries with that answer.
    chat = window.chat_controller.current
    window.chat_controller.new_chat()
    window.chat_controller.open_chat(chat)
    assert panel.queries.stringList() == ["PX-40 enclosure IP rating", "PX-40 dust and water protection"]
    reopened = window.chat_panel.view.entries
    assert len(reopened) == 4 and reopened[-1].text == answer.text
    assert any("you edited" in n for n in reopened[-1].notices)


def test_model_loading_shows_a_moving_bar_and_a_waiting_answer_says_its_stage(make_window, data_home, sample_pdf, qtbot):
    import threading

    release = threading.Event()

    class SlowLoadingEmbedder(HashingEmbedder):
        def load(self):
            release.wait(30)

    library = Library(data_home, embedder=SlowLoadingEmbedder(), generator=ScriptedGenerator(["PX-40 temperature limit", "It runs to 85 C [1]."]))
    list(library.import_paths([sample_pdf]))
    window = make_window(library, warm_up=False)
    window.model_controller.warm_up()
    # Loading: a progress indicator (busy: no byte count is known yet), not only status text.
    assert window.model_bar.isVisible() and window.model_bar.maximum() == 0
    # A question asked meanwhile says it waits for the model, with the time since it was asked.
    window.ask_controller.ask("What is the maximum operating temperature?")
    waiting = window.chat_panel.view.entries[-1]
    assert waiting.stage.startswith("Waiting for the model to load... ") and waiting.stage.endswith(" s")
    qtbot.waitUntil(lambda: "Waiting for the model to load... " in window.chat_panel.view.toPlainText(), timeout=5000)
    seen = []
    original = window.ask_controller._show

    def record(asking, job, event):
        original(asking, job, event)
        if type(event).__name__ == "StageStarted":
            seen.append(asking.entry.stage.split("...")[0])

    window.ask_controller._show = record
    qtbot.wait(300)  # the question waits at least this long for the model (a lower bound, not a speed)
    release.set()
    qtbot.waitUntil(lambda: window.ask_controller.job is None, timeout=30_000)
    assert not window.model_bar.isVisible()
    assert seen[:3] == ["Searching your documents", "Writing search queries", "Searching your documents"]
    assert seen[3].startswith("Reading ") and seen[3].endswith(" passages")
    answer = window.chat_panel.view.entries[-1]
    assert answer.text.startswith("It runs to 85 C [1]") and answer.result.timings.model_wait >= 0.3  # a passage may be added that states it
    assert "waited for the model" in window.fusion_panel.timings.text()


def test_chats_show_date_and_mode_can_be_renamed_and_searched(make_window, data_home, sample_pdf, qtbot):
    from desktop_app.ui.chat_list_model import chat_date

    library = fake_library(data_home, "PX-40 temperature limit", "85 C [1].", "85 C [1].", "85 C [1].")
    list(library.import_paths([sample_pdf]))
    window = make_window(library)
    for mode in ("fusion", "rag", "rag"):  # three chats, asked the same question
        window.chat_controller.new_chat()
        window.chat_panel.set_mode(mode)
        window.ask_controller.ask("What is the maximum temperature?")
        qtbot.waitUntil(lambda: window.ask_controller.job is None, timeout=30_000)
    panel = window.chat_list_panel
    shown = [panel.proxy.index(r, 0).data() for r in range(panel.proxy.rowCount())]
    # Same titles, told apart by the date and the mode under each.
    assert len(shown) == 3 and all(s.startswith("What is the maximum temperature?\ntoday ") for s in shown)
    assert [s.split(" · ")[-1] for s in shown] == ["Plain RAG", "Plain RAG", "RAG-Fusion"]
    # Rename the selected chat in place (F2 or double-click edits the title).
    newest = window.chats.chat_id(0)
    panel.select(newest)
    panel.rename_selected()
    editor = panel.list.indexWidget(panel.list.currentIndex()) or panel.list.focusWidget()
    editor.selectAll()
    qtbot.keyClicks(editor, "Pump limits, short answer")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.chats.title(newest) == "Pump limits, short answer", timeout=5000)
    assert window.chat_panel.title.text() == "Pump limits, short answer"
    assert [title for chat_id, title, _updated in library.chats() if chat_id == newest] == ["Pump limits, short answer"]
    # The search box filters by name, and by mode.
    qtbot.keyClicks(panel.search, "pump")
    assert panel.proxy.rowCount() == 1 and panel.chat_id_at(panel.proxy.index(0, 0)) == newest
    panel.search.clear()
    qtbot.keyClicks(panel.search, "fusion")
    assert panel.proxy.rowCount() == 1
    panel.search.clear()
    assert panel.proxy.rowCount() == 3
    assert chat_date("2020-01-02 03:04:05").startswith("2020-01-0")


def test_a_chinese_answer_draws_no_missing_glyph_boxes_on_a_system_without_a_chinese_font(make_window, data_home, qtbot):
    # Seen in the window on a machine with no font for Chinese (a fresh Linux install): a Chinese manual's quotes and
    # passages were rows of empty boxes. pymupdf's own Droid Sans Fallback is now added when the system has none.
    from desktop_app.ui.chat_view import ChatEntry

    window = make_window(fake_library(data_home))
    qtbot.waitUntil(lambda: not window.page_jobs.busy, timeout=20_000)
    view = window.chat_panel.view
    view.set_entries([ChatEntry("assistant", "本产品整机保修期为两年 [1]。本機の重さは十二キロです。", None)])
    view.document().setTextWidth(view.viewport().width())
    assert view.document().begin().layout().lineCount()
    assert missing_glyphs(view) == []
