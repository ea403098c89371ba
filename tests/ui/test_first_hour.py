"""A newcomer's first hour (issue 32): the small things that each cost a person a minute, offscreen with fakes.

The mouse wheel scrolls past settings, shortcuts work after a dialog closes, F1 lists every key, counts read
"1 page", the library shows titles and file names, the chat export is complete and readably named, the wait
before an answer gives an estimate, and start-up says what happens in plain words."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QAction, QKeySequence, QShortcut, QWheelEvent
from PySide6.QtWidgets import QAbstractSpinBox, QApplication, QComboBox, QDialog

from desktop_app.core.library import Library
from desktop_app.core.types import Document, ImportProgress
from tests.fakes import HashingEmbedder, ScriptedGenerator

ANSWER = "The maximum operating temperature is 85 degrees Celsius [1]."


def fake_library(home, *replies, delay: float = 0.0):
    return Library(home, embedder=HashingEmbedder(), generator=ScriptedGenerator(replies, delay=delay))


def ask_and_wait(window, qtbot, question: str) -> None:
    window.ask_controller.ask(question)
    qtbot.waitUntil(lambda: window.ask_controller.job is None, timeout=30_000)


def wheel_over(widget, steps: int = -3) -> None:
    """The wheel turned over `widget` as a mouse does (a spontaneous event: Qt gives focus by it, then propagates)."""
    centre = QPointF(widget.rect().center())
    event = QWheelEvent(centre, QPointF(widget.mapToGlobal(centre.toPoint())), QPoint(), QPoint(0, 120 * steps),
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)  # fmt: skip
    QApplication.sendEvent(widget, event)


def test_the_wheel_over_settings_scrolls_past_them_and_changes_only_a_focused_one(make_window, data_home, qtbot, open_settings):
    dialog = open_settings(make_window(fake_library(data_home)))
    dialog.advanced_toggle.click()
    dialog.resize(dialog.width(), 500)  # shorter than its settings: the page scrolls
    bar = dialog.page.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0)
    wheel_over(dialog.page.viewport())
    assert bar.value() > 0  # the wheel scrolls the page (the scroll area hands it to its scroll bar)
    bar.setValue(0)
    dialog.setFocus()
    controls = [w for w in dialog.findChildren(QComboBox) + dialog.findChildren(QAbstractSpinBox) if w.isVisible() and w.isEnabled()]
    assert len(controls) >= 10
    before = [(c.currentIndex() if isinstance(c, QComboBox) else c.text()) for c in controls]
    for control in controls:
        wheel_over(control)  # the pointer passes over while the page scrolls
    assert [(c.currentIndex() if isinstance(c, QComboBox) else c.text()) for c in controls] == before
    assert not any(c.hasFocus() for c in controls)  # the wheel gave none of them the focus
    # Clicked first (focused), a control takes the wheel as before.
    combo = dialog.thoroughness
    combo.setFocus()
    qtbot.waitUntil(combo.hasFocus)
    wheel_over(combo)
    assert combo.currentIndex() != before[controls.index(combo)]


def test_shortcuts_work_after_a_dialog_closes(make_window, data_home, qtbot, sample_pdf):
    from PySide6.QtWidgets import QMessageBox

    library = fake_library(data_home, ANSWER)
    list(library.import_paths([sample_pdf]))
    window = make_window(library)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    window.chat_panel.set_mode("rag")
    ask_and_wait(window, qtbot, "What is the maximum operating temperature?")
    assert window.chat_controller.current is not None
    box = QMessageBox(QMessageBox.Icon.Information, "A message", "Read me.", QMessageBox.StandardButton.Ok, window)
    box.open()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is box)
    box.accept()  # closed: nothing was clicked in the main window since
    qtbot.wait(100)
    qtbot.keyClick(window.chat_panel.input, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.chat_controller.current is None, timeout=3000)  # Ctrl+N started a new chat
    assert QApplication.activeWindow() is window


def test_f1_lists_every_keyboard_shortcut_of_the_window(make_window, data_home, qtbot):
    from desktop_app.ui.shortcuts_dialog import ShortcutsDialog

    window = make_window(fake_library(data_home))
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    qtbot.keyClick(window.chat_panel.input, Qt.Key.Key_F1)
    qtbot.waitUntil(lambda: any(isinstance(w, ShortcutsDialog) and w.isVisible() for w in QApplication.topLevelWidgets()))
    dialog = next(w for w in QApplication.topLevelWidgets() if isinstance(w, ShortcutsDialog) and w.isVisible())
    listed = {dialog.table.item(r, 0).text(): dialog.table.item(r, 1).text() for r in range(dialog.table.rowCount())}
    native = QKeySequence.SequenceFormat.NativeText
    keys = {a.shortcut().toString(native) for a in window.findChildren(QAction)} | {q.key().toString(native) for q in window.findChildren(QShortcut)}
    assert set(listed) >= keys - {""}  # every key the window answers to
    for must in ("Ctrl+N", "Ctrl+,", "Ctrl+O", "Esc", "F1", "F2", "Del", "Enter", "Shift+Enter"):
        assert must in listed, must
    assert listed["Ctrl+N"] == "New chat" and "Rename" in listed["F2"] and all(listed.values())
    assert "(no description)" not in listed.values()
    dialog.reject()


def test_counts_read_one_page_not_one_pages(qtbot):
    from desktop_app.core.events import READING, stage_text
    from desktop_app.ui.import_row import ImportRow

    row = ImportRow("/docs/one-page.pdf")
    qtbot.addWidget(row)
    row.update_progress(ImportProgress("/docs/one-page.pdf", "extracting", 1, 1, unit="pages"))
    assert row.status.text() == "read 1 of 1 page"
    row.update_progress(ImportProgress("/docs/one-page.pdf", "ready", 1, 1, unit="pages"))
    assert row.status.text() == "ready: 1 page"
    row.update_progress(ImportProgress("/docs/sales.csv", "ready", 1, 1, unit="rows"))
    assert row.status.text() == "ready: 1 row"
    assert stage_text(READING, 1) == "Reading 1 passage" and stage_text(READING, 6) == "Reading 6 passages"


def test_the_library_shows_each_documents_title_and_its_file_name(qtbot):
    from desktop_app.ui.models import DocumentsModel

    model = DocumentsModel()
    model.set_documents([
        Document(1, "/books/vellumbrook.epub", "Tales of Vellumbrook", 12, 40, "ready"),
        Document(2, "/notes/zarnoff.txt", "zarnoff", 1, 2, "ready"),
        Document(3, "/docs/px40.pdf", "PX-40   Pump\nDatasheet", 4, 9, "ready"),
    ])  # fmt: skip
    shown = [model.data(model.index(r, 0)) for r in range(3)]
    assert shown == ["Tales of Vellumbrook — vellumbrook.epub", "zarnoff.txt", "PX-40 Pump Datasheet — px40.pdf"]


def test_the_export_has_the_quotes_and_a_readable_file_name(make_window, data_home, sample_pdf, qtbot, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    library = fake_library(data_home, "PX-40 temperature", ANSWER)
    list(library.import_paths([sample_pdf]))
    window = make_window(library)
    window.chat_panel.set_mode("fusion")
    ask_and_wait(window, qtbot, "Why does the PX-40's lamp flash? …")
    quotes = window.chat_panel.view.entries[-1].shown_quotes()
    assert quotes  # the window showed "From your documents" above the answer
    offered = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda parent, caption, path, *a: offered.append(path) or (str(tmp_path / "chat.md"), ""))
    window.export_action.trigger()
    assert offered and offered[0].endswith("/Why does the PX-40's lamp flash.md")
    text = (tmp_path / "chat.md").read_text()
    assert "**From your documents**" in text
    assert text.index("**From your documents**") < text.index("### Answer")
    for quote in quotes:
        assert " ".join(quote.citation.text.split()) in text


def test_the_wait_while_the_model_reads_gives_an_estimate_from_its_measured_speed(make_window, data_home, sample_pdf, qtbot):
    library = fake_library(data_home, ANSWER, ANSWER, delay=0.2)
    list(library.import_paths([sample_pdf]))
    window = make_window(library, warm_up=False)
    window.chat_panel.set_mode("rag")
    stages = []
    original = window.ask_controller._show

    def record(asking, job, event):
        original(asking, job, event)
        if type(event).__name__ == "StageStarted":
            stages.append(asking.stage)

    window.ask_controller._show = record
    ask_and_wait(window, qtbot, "What is the maximum operating temperature?")
    first = [s for s in stages if s.startswith("Reading ")]
    assert first and "about" not in first[0]  # nothing measured yet: no guess
    stages.clear()
    ask_and_wait(window, qtbot, "What is the maximum operating temperature?")
    reading = [s for s in stages if s.startswith("Reading ")]
    assert reading and ", about " in reading[0] and reading[0].endswith(" s"), reading  # "Reading 5 passages, about 1 s"
    speed = library.reading_speed.tokens_per_second
    assert speed and speed > 0


def test_start_up_and_advanced_settings_speak_plain_words(make_window, data_home, qtbot, open_settings):
    from PySide6.QtWidgets import QLabel

    library = fake_library(data_home)
    window = make_window(library, warm_up=False)
    said = []
    window.model_status.setText = lambda text, original=window.model_status.setText: (said.append(text), original(text))[1]
    window.model_controller.warm_up()
    qtbot.waitUntil(lambda: window.model_controller.ready, timeout=10_000)
    jargon = ("prompt", "instruction", "token", "embed", "batch", "guess-ahead", "prepared")
    assert said and not [s for s in said if any(word in s.lower() for word in jargon)], said
    dialog = open_settings(window)
    dialog.advanced_toggle.click()
    labels = [label.text() for label in dialog.findChildren(QLabel) if label.text().endswith(":")]
    assert not [t for t in labels if any(word in t.lower() for word in ("guess-ahead", "prepared", "prompt"))], labels
    dialog.close()

