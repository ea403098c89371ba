"""Window behaviour that needs no language model: fast fakes for the embedder and generator."""

from __future__ import annotations

import re

from PySide6.QtCore import Qt

from desktop_app.core.library import Library
from tests.fakes import HashingEmbedder, ScriptedGenerator


def fake_library(home, *replies):
    return Library(home, embedder=HashingEmbedder(), generator=ScriptedGenerator(replies))


def test_empty_library_shows_the_drop_hint(make_window, data_home):
    window = make_window(fake_library(data_home))
    panel = window.library_panel
    assert panel.stack.currentWidget() is panel.drop_hint
    assert "Drop PDFs" in panel.drop_hint.text()


def test_enter_sends_and_shift_enter_adds_a_line(make_window, data_home, qtbot):
    window = make_window(fake_library(data_home))
    sent = []
    window.chat_panel.send_requested.disconnect()
    window.chat_panel.send_requested.connect(sent.append)
    box = window.chat_panel.input
    qtbot.keyClicks(box, "first line")
    qtbot.keyClick(box, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClicks(box, "second")
    assert box.toPlainText() == "first line\nsecond"
    qtbot.keyClick(box, Qt.Key.Key_Return)
    assert sent == ["first line\nsecond"]


def test_a_bad_file_shows_why_and_the_good_one_still_imports(make_window, data_home, sample_pdf, qtbot):
    bad = sample_pdf.parent / "broken.pdf"
    bad.write_text("this is not a PDF")
    window = make_window(fake_library(data_home))
    window.import_controller.import_paths([str(sample_pdf.parent)])
    qtbot.waitUntil(lambda: not window.import_jobs.busy, timeout=60_000)
    rows = window.library_panel.rows
    assert rows[str(bad.resolve())].stage == "failed"
    assert "broken.pdf" in rows[str(bad.resolve())].status.text()
    assert rows[str(sample_pdf.resolve())].stage == "ready"
    assert [d.title for d in window.documents.documents] == ["PX-40 Industrial Pump Datasheet"]


def test_removing_a_document_takes_it_out_of_the_list(make_window, data_home, sample_pdf, qtbot):
    library = fake_library(data_home)
    list(library.import_paths([sample_pdf]))
    window = make_window(library)
    assert window.documents.rowCount() == 1
    window.import_controller.remove_documents([window.documents.document(0).id])
    qtbot.waitUntil(lambda: window.documents.rowCount() == 0, timeout=10_000)
    assert window.library_panel.stack.currentWidget() is window.library_panel.drop_hint


def test_settings_are_saved_and_applied(make_window, data_home, qtbot):
    from desktop_app.core.settings import load_settings
    from desktop_app.ui.settings_dialog import SettingsDialog

    library = fake_library(data_home)
    window = make_window(library)
    dialog = SettingsDialog(library.settings, library.catalog, window)
    dialog.n_queries.setValue(2)
    dialog.rrf_k.setValue(30)
    dialog.top_k.setValue(3)
    window.settings_controller.apply(dialog.settings())
    qtbot.waitUntil(lambda: window.statusBar().currentMessage() == "Settings saved.")  # written in the background
    assert (library.settings.n_queries, library.settings.rrf_k, library.settings.top_k) == (2, 30.0, 3)
    assert load_settings(data_home).rrf_k == 30.0


def test_an_app_error_is_shown_with_what_to_do(make_window, data_home, qtbot):
    from PySide6.QtWidgets import QMessageBox

    from desktop_app.core.errors import PasswordProtected

    window = make_window(fake_library(data_home))
    window.feedback.report(PasswordProtected("secret.pdf is password protected"))
    box = window.findChild(QMessageBox, "errorDialog")
    assert box is not None and "Enter the password" in box.text()
    assert "password protected" in window.statusBar().currentMessage()
    box.close()


def test_keyboard_shortcuts(make_window, data_home):
    from PySide6.QtGui import QKeySequence

    window = make_window(fake_library(data_home))
    assert window.add_action.shortcut() == QKeySequence("Ctrl+O")
    assert window.new_chat_action.shortcut() == QKeySequence("Ctrl+N")
    assert window.stop_action.shortcut() == QKeySequence("Esc")


def test_ctrl_n_starts_a_new_chat_and_the_old_one_stays_listed(make_window, data_home, sample_pdf, qtbot):
    library = fake_library(data_home, "PX-40 limits", "The maximum is 85 degrees Celsius [1].")
    list(library.import_paths([sample_pdf]))
    window = make_window(library)
    window.ask_controller.ask("What is the maximum temperature?")
    qtbot.waitUntil(lambda: window.ask_controller.job is None, timeout=30_000)
    assert re.search(r"85 degrees Celsius \[\d\]", window.chat_panel.view.entries[-1].text)  # cited, as written or moved to the passage saying it
    first_chat = window.chat_controller.current
    qtbot.keyClick(window, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    assert window.chat_controller.current is None and window.chat_panel.view.entries == []
    assert window.chats.rowCount() == 1 and window.chats.chat_id(0) == first_chat
    window.chat_controller.open_chat(first_chat)
    assert [e.role for e in window.chat_panel.view.entries] == ["user", "assistant"]


def test_model_preparation_shows_a_progress_bar(make_window, data_home, qtbot):
    window = make_window(fake_library(data_home), warm_up=False)
    window.model_controller.relay.progressed.emit(250, 1000)
    qtbot.waitUntil(lambda: window.model_bar.isVisible(), timeout=2000)
    assert window.model_bar.value() == 250
    window.model_controller.relay.progressed.emit(1000, 1000)
    qtbot.waitUntil(lambda: not window.model_bar.isVisible(), timeout=2000)


def test_an_unexpected_exception_shows_the_crash_dialog(make_window, data_home):
    from PySide6.QtWidgets import QMessageBox

    from desktop_app.ui.errors import show_crash

    window = make_window(fake_library(data_home))
    try:
        raise RuntimeError("boom")
    except RuntimeError as exc:
        show_crash(type(exc), exc, exc.__traceback__, window)
    box = window.findChild(QMessageBox, "crashDialog")
    assert box is not None and "RuntimeError: boom" in box.text() and "Traceback" in box.detailedText()
    box.close()


def test_ticked_documents_limit_the_search(make_window, data_home, sample_pdf, qtbot):
    notes = sample_pdf.parent / "notes.md"
    notes.write_text("# Pump notes\n\nThe PX-40 maximum operating temperature was checked on site at 80 degrees.\n")
    library = fake_library(data_home, "PX-40 temperature", "It was checked at 80 degrees [1].")
    list(library.import_paths([sample_pdf, notes]))
    window = make_window(library)
    row = next(r for r in range(window.documents.rowCount()) if window.documents.document(r).path.endswith("notes.md"))
    window.documents.setData(window.documents.index(row, 0), Qt.CheckState.Checked.value, Qt.ItemDataRole.CheckStateRole)
    assert "1 ticked of 2" in window.library_panel.scope.text()
    window.ask_controller.ask("What is the maximum operating temperature?")
    qtbot.waitUntil(lambda: window.ask_controller.job is None, timeout=30_000)
    files = {window.fusion_panel.fused.source(r).passage.file for r in range(window.fusion_panel.fused.rowCount())}
    assert files == {str(notes.resolve())}
