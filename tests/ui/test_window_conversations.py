"""Conversations and reliability in the window, with fast fakes: follow-ups, export, collections, modes,
citation marks, passwords, storage errors."""

from __future__ import annotations

import dataclasses

import pymupdf
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from desktop_app.core.errors import StorageError
from desktop_app.core.library import Library
from desktop_app.core.settings import MODES
from desktop_app.core.types import ImportProgress
from tests.fakes import HashingEmbedder, ScriptedGenerator

ANSWER = "The maximum operating temperature is 85 degrees Celsius [1]."


def fake_library(home, *replies):
    return Library(home, embedder=HashingEmbedder(), generator=ScriptedGenerator(replies))


def ask_and_wait(window, qtbot, question: str) -> None:
    window.ask_controller.ask(question)
    qtbot.waitUntil(lambda: window.ask_controller.job is None, timeout=30_000)


def window_that_asked(make_window, data_home, sample_pdf, qtbot, mode: str, question: str, *replies):
    """A window over the sample datasheet, after asking `question` in `mode` of a scripted model giving `replies`."""
    library = fake_library(data_home, *replies)
    list(library.import_paths([sample_pdf]))
    window = make_window(library)
    window.chat_panel.set_mode(mode)
    ask_and_wait(window, qtbot, question)
    return window


def tick(window, predicate) -> None:
    for row in range(window.documents.rowCount()):
        if predicate(window.documents.document(row)):
            window.documents.setData(window.documents.index(row, 0), Qt.CheckState.Checked.value, Qt.ItemDataRole.CheckStateRole)


def test_a_follow_up_is_searched_as_a_standalone_question_and_stored_once(make_window, data_home, sample_pdf, qtbot):
    window = window_that_asked(make_window, data_home, sample_pdf, qtbot, "rag", "What is the maximum operating temperature of the PX-40?", ANSWER, "What is the IP rating of the PX-40?", "The enclosure is rated IP67 [1].")
    assert not window.fusion_panel.searched_as.isVisible()
    ask_and_wait(window, qtbot, "and what about its IP rating?")

    panel = window.fusion_panel
    assert panel.searched_as.isVisible()
    assert panel.searched_as.text() == "Searched as: <b>What is the IP rating of the PX-40?</b>"
    # The question's own rank column is the standalone question that was searched.
    assert panel.fused.query_keys[0] == "What is the IP rating of the PX-40?"
    assert "IP67" in window.chat_panel.view.entries[-1].text
    roles = [role for _, role, _, _ in window.library.chat_messages(window.chat_controller.current)]
    assert roles == ["user", "assistant", "user", "assistant"]

    # Reopening the chat shows the rewritten question again.
    window.chat_controller.new_chat()
    assert not panel.searched_as.isVisible()
    window.chat_controller.open_chat(window.chats.chat_id(0))
    assert panel.searched_as.isVisible() and "IP rating of the PX-40" in panel.searched_as.text()


def test_stop_keeps_the_question_and_answer_exactly_once(make_window, data_home, sample_pdf, qtbot):
    library = fake_library(data_home, ANSWER)
    list(library.import_paths([sample_pdf]))
    window = make_window(library)
    window.chat_panel.set_mode("rag")
    window.ask_controller.ask("What is the maximum operating temperature?")
    window.ask_controller.stop()  # wherever the answer was, the chat gets the question and one (possibly partial) answer
    qtbot.waitUntil(lambda: window.ask_controller.job is None, timeout=30_000)
    roles = [role for _, role, _, _ in library.chat_messages(window.chat_controller.current)]
    assert roles == ["user", "assistant"]


def test_a_stopped_answer_is_stored_off_the_gui_thread(make_window, data_home, sample_pdf, qtbot, monkeypatch):
    """The window never waits on the database: the question of a stopped answer is written by a worker."""
    import threading

    library = fake_library(data_home, ANSWER)
    list(library.import_paths([sample_pdf]))
    writers = []
    add_message = library.store.add_message
    monkeypatch.setattr(library.store, "add_message", lambda *a, **k: (writers.append(threading.current_thread()), add_message(*a, **k))[1])
    window = make_window(library)
    window.chat_panel.set_mode("rag")
    window.ask_controller.ask("What is the maximum operating temperature?")
    window.ask_controller.stop()
    qtbot.waitUntil(lambda: window.ask_controller.job is None, timeout=30_000)
    assert len(writers) == 2 and threading.main_thread() not in writers


def test_export_writes_the_chat_with_its_citations(make_window, data_home, sample_pdf, qtbot, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    window = window_that_asked(make_window, data_home, sample_pdf, qtbot, "rag", "What is the maximum operating temperature?", ANSWER)
    target = tmp_path / "exported.md"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), "Markdown (*.md)"))
    window.export_action.trigger()
    text = target.read_text()
    assert "What is the maximum operating temperature?" in text
    assert "85 degrees Celsius [1]" in text
    assert "[1] px40-datasheet.pdf, page 3" in text
    quote = text.split("**Sources**")[1].split("[1] px40-datasheet.pdf, page 3")[1].split("```text\n")[1].split("\n```")[0]  # verbatim, fenced
    assert "85" in quote and "Celsius" in quote
    assert "Chat" in [a.text().replace("&", "") for a in window.menuBar().actions()]


def test_a_collection_of_ticked_documents_limits_questions_and_is_kept(make_window, data_home, sample_pdf, qtbot, monkeypatch):
    from PySide6.QtWidgets import QInputDialog

    notes = sample_pdf.parent / "notes.md"
    notes.write_text("# Pump notes\n\nThe PX-40 maximum operating temperature was checked on site at 80 degrees.\n")
    library = fake_library(data_home, "It was checked at 80 degrees [1].")
    list(library.import_paths([sample_pdf, notes]))
    window = make_window(library)
    panel = window.library_panel
    assert panel.collection.currentText() == "All documents" and not panel.new_collection.isEnabled()
    tick(window, lambda d: d.path.endswith("notes.md"))
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("Site notes", True))
    panel.new_collection.click()
    qtbot.waitUntil(lambda: panel.collection.currentText() == "Site notes (1)")  # saved in the background
    window.documents.set_documents(library.documents())  # untick: the collection alone limits the search
    assert "collection 'Site notes'" in panel.scope.text()

    window.chat_panel.set_mode("rag")
    ask_and_wait(window, qtbot, "What is the maximum operating temperature?")
    files = {window.fusion_panel.fused.source(r).passage.file for r in range(window.fusion_panel.fused.rowCount())}
    assert files == {str(notes.resolve())}
    window.close()

    reopened = make_window(Library(data_home, embedder=HashingEmbedder(), generator=ScriptedGenerator()))
    combo = reopened.library_panel.collection
    assert [combo.itemText(i) for i in range(combo.count())] == ["All documents", "Site notes (1)"]
    combo.setCurrentIndex(1)
    assert reopened.library_panel.allowed_documents() == [d.id for d in library.documents() if d.path.endswith("notes.md")]
    reopened.library_panel.delete_collection.click()
    qtbot.waitUntil(lambda: combo.count() == 1 and reopened.library_panel.allowed_documents() is None)
    reopened.library.close()


def test_every_mode_is_offered_by_its_readable_name(make_window, data_home, qtbot):
    window = make_window(fake_library(data_home))
    combo = window.chat_panel.mode
    assert [combo.itemData(i) for i in range(combo.count())] == list(MODES)
    assert [combo.itemText(i) for i in range(combo.count())] == [
        "RAG-Fusion", "Plain RAG", "Naive fusion (paper)", "Multi-query (union)", "Rewrite-retrieve-read", "HyDE", "Tables (SQL)"
    ]
    combo.setCurrentIndex(combo.findData("hyde"))
    qtbot.waitUntil(lambda: window.library.settings.mode == "hyde")  # saved in the background


def test_multi_query_labels_the_score_column_as_similarity(make_window, data_home, sample_pdf, qtbot):
    window = window_that_asked(make_window, data_home, sample_pdf, qtbot, "multi-query", "What is the maximum operating temperature?", "PX-40 temperature limit\nPX-40 coolant inlet", ANSWER)
    fused = window.fusion_panel.fused
    assert fused.headerData(1, Qt.Orientation.Horizontal) == "Score"
    assert "similarity" in fused.headerData(1, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
    assert "union" in fused.headerData(1, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
    window.fusion_panel.show_result(dataclasses.replace(window.fusion_panel.result, mode="fusion"))
    assert fused.headerData(1, Qt.Orientation.Horizontal) == "RRF"


def test_settings_dialog_sets_the_reranker_and_fusion_weights(make_window, data_home, tmp_path, monkeypatch, qtbot):
    from PySide6.QtWidgets import QFileDialog

    from desktop_app.core.settings import load_settings
    from desktop_app.ui.settings_dialog import SettingsDialog

    library = fake_library(data_home)
    window = make_window(library)
    dialog = SettingsDialog(library.settings, library.catalog, window)
    dialog.reranker.setCurrentIndex(dialog.reranker.findData("llm"))
    dialog.question_weight.setValue(4.0)
    dialog.keyword_weight.setValue(0.0)
    dialog.drift_guard.setValue(0.3)
    dialog.max_queries.setValue(8)
    window.settings_controller.apply(dialog.settings())
    qtbot.waitUntil(lambda: load_settings(data_home).reranker == "llm")  # saved in the background
    saved = load_settings(data_home)
    assert (saved.reranker, saved.question_weight, saved.keyword_weight, saved.drift_guard, saved.max_queries) == ("llm", 4.0, 0.0, 0.3, 8)

    folder = tmp_path / "my-cross-encoder"
    folder.mkdir()
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(folder))
    dialog = SettingsDialog(library.settings, library.catalog, window)
    assert dialog.reranker.currentData() == "llm"
    dialog._browse_reranker()
    assert dialog.settings().reranker == str(folder)
    assert dialog.reranker.currentText() == "CrossEncoder: my-cross-encoder"


def test_unsupported_and_ocr_citations_are_marked_and_notices_shown(make_window, data_home):
    from desktop_app.core.types import Citation
    from desktop_app.ui.chat_view import ChatEntry
    from tests.ui.results import ask_result

    window = make_window(fake_library(data_home))
    result = ask_result(
        mode="fusion",
        total_s=1.0,
        citations=[
            Citation(1, "/d/px40.pdf", 2, "85 C", chunk_id=1, start=0, end=4, supported=True, ocr=True),
            Citation(2, "/d/scan.pdf", 5, "IP67", chunk_id=2, start=0, end=4, supported=False, ocr=False, reason="the cited passages do not contain 68"),
        ],
        notices=["Citation [2] may not support the sentence that cites it: the cited passages do not contain 68."],
    )
    view = window.chat_panel.view
    view.set_entries([ChatEntry("assistant", "It runs to 85 C [1] and is rated IP68 [2].", result, notices=list(result.notices))])
    text = view.toPlainText().replace("\u00a0", " ")
    assert "[1] px40.pdf, p. 2 (OCR)" in text
    assert "[2] scan.pdf" in text and "[2]" in text
    assert "(OCR)" not in text.split("[2] scan.pdf")[1].split("\n")[0]
    assert "Citation [2] may not support" in text
    html = view.toHtml()
    assert "#b3261e" in html and "may not support" in html
    from desktop_app.ui.chat_view import source_link

    assert "do not contain 68" in source_link(0, result.citations[1])  # the warning's tooltip says why
    assert html.count("icon:warning") == 2  # the warning icon beside [2] in the answer and in the sources line


def test_a_password_protected_pdf_asks_for_its_password_and_imports(make_window, data_home, sample_pdf, qtbot):
    locked = sample_pdf.parent / "locked.pdf"
    with pymupdf.open(sample_pdf) as doc:
        doc.save(locked, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="open sesame", owner_pw="owner")
    sample_pdf.unlink()
    window = make_window(fake_library(data_home))
    asked = []

    def answer(file, again=False):
        asked.append((file, again))
        return "wrong" if not again else "open sesame"

    window.import_controller.ask_password = answer
    window.import_controller.import_paths([str(locked)])
    # Listed as soon as its text is stored, ready once embedded.
    qtbot.waitUntil(lambda: window.documents.rowCount() == 1 and window.documents.document(0).status == "ready", timeout=30_000)
    assert asked == [(str(locked.resolve()), False), (str(locked.resolve()), True)]
    assert window.documents.document(0).status == "ready"
    # The row's progress arrives by a queued signal, which may land just after the list refreshed.
    qtbot.waitUntil(lambda: window.library_panel.rows[str(locked.resolve())].stage == "ready", timeout=10_000)


def test_skipping_the_password_leaves_the_file_failed_with_its_reason(make_window, data_home, sample_pdf, qtbot):
    locked = sample_pdf.parent / "locked.pdf"
    with pymupdf.open(sample_pdf) as doc:
        doc.save(locked, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="pw", owner_pw="owner")
    window = make_window(fake_library(data_home))
    asked = []
    window.import_controller.ask_password = lambda file, again=False: asked.append(file)  # returns None: skipped
    window.import_controller.import_paths([str(locked)])
    qtbot.waitUntil(lambda: bool(asked), timeout=30_000)
    row = window.library_panel.rows[str(locked.resolve())]
    assert row.stage == "failed" and "password protected" in row.status.text()
    assert window.documents.rowCount() == 0


def test_an_import_warning_is_shown_without_a_file_row(make_window, data_home):
    window = make_window(fake_library(data_home))
    message = "The disk is full: the search index could not be saved. Free some disk space; your documents are safe"
    window.import_controller.show_progress(ImportProgress(str(data_home), "warning", message=message))
    assert window.library_panel.warning.isVisible() and "disk is full" in window.library_panel.warning.text()
    assert "disk is full" in window.statusBar().currentMessage()
    assert str(data_home) not in window.library_panel.rows


def test_a_busy_library_is_reported_when_asking(make_window, data_home, monkeypatch, qtbot):
    library = fake_library(data_home)
    window = make_window(library)

    def busy(title):
        raise StorageError("The library is busy: another window or command is writing to it", hint="Wait a moment and try again.")

    monkeypatch.setattr(library, "create_chat", busy)
    window.ask_controller.ask("What is the maximum temperature?")
    qtbot.waitUntil(lambda: window.ask_controller.job is None)  # the chat is created in the background
    box = window.findChild(QMessageBox, "errorDialog")
    assert box is not None and "busy" in box.text() and "Wait a moment" in box.text()
    assert window.chat_controller.current is None
    assert window.chat_panel.input.toPlainText() == "What is the maximum temperature?"  # the question is not lost
    box.close()


def test_a_read_only_folder_is_reported_when_saving_a_collection(make_window, data_home, sample_pdf, monkeypatch, qtbot):
    library = fake_library(data_home)
    list(library.import_paths([sample_pdf]))
    window = make_window(library)

    def read_only(name, paths):
        raise StorageError(f"The data folder {data_home} is read-only or cannot be written", hint="Make it writable or set DESKTOP_APP_HOME to another folder.")

    monkeypatch.setattr(library, "add_to_collection", read_only)
    window.collection_controller.add("Pumps", [window.documents.document(0).id])
    qtbot.waitUntil(lambda: window.findChild(QMessageBox, "errorDialog") is not None)  # saved in the background
    box = window.findChild(QMessageBox, "errorDialog")
    assert box is not None and "read-only" in box.text()
    assert window.library_panel.collection.count() == 1
    box.close()


def test_rewrite_retrieve_read_shows_the_rewritten_query_and_names_its_mode(make_window, data_home, sample_pdf, qtbot):
    window = window_that_asked(make_window, data_home, sample_pdf, qtbot, "rewrite", "How hot may it get?", "PX-40 maximum operating temperature coolant inlet", ANSWER)
    panel = window.fusion_panel
    assert panel.fused.rowCount() >= 1
    assert "PX-40 maximum operating temperature coolant inlet" in panel.fused.query_keys
    assert "Rewrite-retrieve-read" in window.chat_panel.view.toPlainText()


def test_quotes_from_the_documents_are_shown_before_the_slow_model_answers_and_open_their_page(make_window, data_home, sample_pdf, qtbot):
    import threading

    thinking = threading.Event()  # the model is still reading its prompt until this is set
    library = Library(data_home, embedder=HashingEmbedder(), generator=ScriptedGenerator([ANSWER], hold=thinking))
    list(library.import_paths([sample_pdf]))
    window = make_window(library)
    window.chat_panel.set_mode("rag")  # the one model call is the answer
    view = window.chat_panel.view
    window.ask_controller.ask("What is the maximum operating temperature?")
    qtbot.waitUntil(lambda: bool(view.entries[-1].quotes), timeout=30_000)
    entry = view.entries[-1]
    first = entry.quotes[0].citation.text
    assert entry.text == "" and window.ask_controller.job is not None  # no token yet: the model is still thinking
    shown = view.toPlainText()
    assert "From your documents:" in shown and first[:40] in " ".join(shown.split())
    # A quote opens its page with its sentence highlighted, as a citation does.
    view.quote_clicked.emit(len(view.entries) - 1, 0)
    qtbot.waitUntil(lambda: window.page_view.highlighted > 0)  # rendered on the page runner, not in the window

    thinking.set()
    qtbot.waitUntil(lambda: window.ask_controller.job is None, timeout=30_000)
    shown = " ".join(view.toPlainText().split())
    assert shown.index(first[:40]) < shown.index("85 degrees Celsius")  # the answer streamed below the quotes


def test_in_fusion_mode_a_first_look_is_on_screen_while_the_model_writes_its_queries(make_window, data_home, sample_pdf, qtbot):
    import threading

    writing = threading.Event()  # the model is still writing its search queries until this is set
    library = Library(data_home, embedder=HashingEmbedder(), generator=ScriptedGenerator(["PX-40: operating temperature", ANSWER], hold=writing))
    list(library.import_paths([sample_pdf]))
    window = make_window(library)
    window.chat_panel.set_mode("fusion")
    view = window.chat_panel.view
    window.ask_controller.ask("What is the maximum operating temperature?")
    qtbot.waitUntil(lambda: bool(view.entries[-1].quotes), timeout=30_000)
    entry = view.entries[-1]
    assert entry.quotes_first_look and window.fusion_panel.fused.rowCount() == 0  # nothing fused yet: the queries are not written
    shown = " ".join(view.toPlainText().split())
    assert "a first look while the search queries are written" in shown and entry.quotes[0].citation.text[:40] in shown
    view.quote_clicked.emit(len(view.entries) - 1, 0)  # it opens its page like any quote
    qtbot.waitUntil(lambda: window.page_view.highlighted > 0)

    writing.set()
    qtbot.waitUntil(lambda: window.ask_controller.job is None, timeout=30_000)
    entry = view.entries[-1]
    assert not entry.quotes_first_look and entry.quotes == entry.result.quotes  # the evidence the model read replaced them
    shown = " ".join(view.toPlainText().split())
    assert "a first look" not in shown and "From your documents:" in shown and "85 degrees Celsius" in shown


def test_an_answer_no_passage_states_shows_not_found_and_why(make_window, data_home, sample_pdf, qtbot):
    # The model names a designer no page of the datasheet names: the window shows "Not found" and, beneath it,
    # what the model said and why it was not kept.
    window = window_that_asked(make_window, data_home, sample_pdf, qtbot, "rag", "Who designed the PX-40 pump?", "The PX-40 was designed by Lars Eklund [1].")
    text = window.chat_panel.view.toPlainText().replace("\u00a0", " ")
    assert "Not found in your documents" in text
    assert "The model answered" in text and "Lars Eklund" in text and "did not come from your documents" in text


def test_the_panel_names_the_queries_the_model_wrote_that_were_not_searched(make_window, data_home, sample_pdf, qtbot):
    window = window_that_asked(make_window, data_home, sample_pdf, qtbot, "fusion", "What is the maximum operating temperature of the PX-40?", "P: maximum temperature\nPX-40: maximum operating temperature", ANSWER)
    panel = window.fusion_panel
    assert "PX-40" in panel.edited_queries() and "P" not in panel.edited_queries()
    assert panel.not_searched.isVisible()
    assert panel.not_searched.text() == "Not searched: \u201cP\u201d"
    panel.show_result(None)  # a new chat: nothing asked yet
    assert not panel.not_searched.isVisible()


def test_a_finished_answer_shows_its_first_citation_on_its_page_and_a_new_question_clears_the_last_ones(make_window, data_home, sample_pdf, qtbot):
    # Before, the page of the previous answer stayed in view under the next question's panel, and an answer showed no
    # page until a citation was clicked.
    window = window_that_asked(make_window, data_home, sample_pdf, qtbot, "rag", "What is the maximum operating temperature of the PX-40?", ANSWER, "NOT FOUND")
    cited = window.chat_panel.view.entries[-1].result.citations[0]
    qtbot.waitUntil(lambda: window.page_view.page == cited.page, timeout=10_000)  # rendered in the background
    assert window.page_view.file == cited.file
    ask_and_wait(window, qtbot, "Who painted the pump?")
    assert not window.chat_panel.view.entries[-1].result.found
    assert window.page_view.page is None and window.page_view.file is None
