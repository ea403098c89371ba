"""The window with the real default models: drop a PDF, ask, watch it stream, click a citation, stop, restart.

One Library per test over the session's loaded MiniLM and Qwen2.5 1.5B, so the models load once.
"""

from __future__ import annotations

import time

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QTextCursor
from PySide6.QtWidgets import QApplication

from desktop_app.core.library import Library

pytestmark = pytest.mark.integration
QUESTION = "What is the maximum operating temperature of the PX-40?"
# A model call or an import step on the UI thread blocks it for seconds; 0.5 s leaves room for the scheduler of a
# shared 2-core machine (a 295 ms gap was seen at load average 11 with nothing blocking). Page renders and
# database writes off the UI thread are checked directly in test_window_never_waits.py.
MAX_LOOP_GAP_S = 0.5
ANSWER_TIMEOUT_MS = 300_000


@pytest.fixture
def library(data_home, real_embedder, real_generator):
    lib = Library(data_home, embedder=real_embedder, generator=real_generator)
    yield lib
    lib.close()


@pytest.fixture
def imported(library, sample_pdf):
    events = list(library.import_paths([sample_pdf]))
    assert events[-1].stage == "ready"
    return library


def drop_files(widget, paths) -> None:
    """What a file manager does: drag enter, then drop, with file URLs."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    middle = QPoint(widget.width() // 2, widget.height() // 2)
    buttons, keys = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    enter = QDragEnterEvent(middle, Qt.DropAction.CopyAction, mime, buttons, keys)
    QApplication.sendEvent(widget, enter)
    assert enter.isAccepted(), "the window refused the drag"
    drop = QDropEvent(QPointF(middle), Qt.DropAction.CopyAction, mime, buttons, keys)
    QApplication.sendEvent(widget, drop)
    assert drop.isAccepted(), "the window refused the drop"


def anchor_point(view, href_prefix: str) -> QPoint | None:
    """Where on the screen the first link starting with href_prefix is drawn, to click it like a person."""
    block = view.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            if fragment.charFormat().anchorHref().startswith(href_prefix):
                cursor = QTextCursor(view.document())
                cursor.setPosition(fragment.position() + 1)
                return view.cursorRect(cursor).center()
            it += 1
        block = block.next()
    return None


def ask_and_wait(window, qtbot, question=QUESTION, watch=None):
    lengths = []
    box = window.chat_panel.input
    box.setPlainText(question)
    qtbot.keyClick(box, Qt.Key.Key_Return)
    assert window.ask_controller.job is not None
    entry = window.chat_panel.view.entries[-1]

    def sample():
        if entry.text and (not lengths or lengths[-1] != len(entry.text)):
            lengths.append(len(entry.text))
        return window.ask_controller.job is None

    qtbot.waitUntil(sample, timeout=ANSWER_TIMEOUT_MS)
    return entry, lengths


def test_dropping_a_pdf_imports_it_with_progress_then_ready(library, make_window, sample_pdf, qtbot, loop_watch):
    window = make_window(library)
    qtbot.waitUntil(lambda: window.model_controller.ready, timeout=120_000)
    seen = []
    show = window.library_panel.show_progress
    window.library_panel.show_progress = lambda event: (seen.append((event.stage, event.done, event.total)), show(event))
    watch = loop_watch()
    drop_files(window, [sample_pdf])
    qtbot.waitUntil(lambda: window.documents.rowCount() == 1 and not window.import_jobs.busy, timeout=120_000)
    gap = watch.stop()
    stages = [s for s, _, _ in seen]
    assert stages[0] == "queued" and stages[-1] == "ready"
    assert ("extracting", 4, 4) in seen and any(s == "embedding" for s in stages)
    row = window.library_panel.rows[str(sample_pdf.resolve())]
    assert row.status.text().startswith("ready") and row.bar.value() == row.bar.maximum()
    assert [window.documents.index(0, c).data() for c in range(4)] == ["PX-40 Industrial Pump Datasheet — px40-datasheet.pdf", "4", window.documents.index(0, 2).data(), "ready"]
    print(f"\nmax event-loop gap during import: {gap * 1000:.0f} ms")
    assert gap < MAX_LOOP_GAP_S


def test_asking_streams_the_answer_fills_the_panel_and_citations_show_their_page(imported, make_window, qtbot, loop_watch):
    window = make_window(imported)
    window.chat_panel.set_mode("fusion")
    watch = loop_watch()
    entry, lengths = ask_and_wait(window, qtbot)
    gap = watch.stop()
    print(f"\nmax event-loop gap during an answer: {gap * 1000:.0f} ms; answer: {entry.text!r}")
    assert len(lengths) >= 3, "the answer arrived in one piece instead of streaming"
    assert entry.result.found, entry.text
    panel = window.fusion_panel
    assert panel.queries.rowCount() >= 1
    assert panel.fused.rowCount() >= 1
    # One rank column per list: the question, each generated query, then the keyword (full-text) lists.
    queries = panel.queries.stringList()
    assert panel.fused.query_keys[: 1 + len(queries)] == [QUESTION, *queries]
    assert panel.fused.columnCount() == 5 + len(panel.fused.query_keys)
    assert entry.result.citations, "the answer cites no passage"
    first = entry.result.citations[0]
    assert first.page == 3

    # Click the citation in the transcript, as a person would.
    view = window.chat_panel.view
    point = anchor_point(view, f"cite:{len(view.entries) - 1}:{first.n}")
    assert point is not None
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=point)
    qtbot.waitUntil(lambda: window.page_view.page is not None, timeout=5000)
    assert window.page_view.file == first.file and window.page_view.page == 3
    assert window.page_view.highlighted > 0
    assert not window.page_view.image.pixmap().isNull()
    assert gap < MAX_LOOP_GAP_S

    # Edit the queries and re-run: the fused table follows the new list.
    before = [panel.fused.source(r).passage.chunk_id for r in range(panel.fused.rowCount())], panel.fused.query_keys
    panel.queries.setStringList(["seal kit replacement interval"])
    panel.rerun.click()
    qtbot.waitUntil(lambda: panel.fused.query_keys != before[1], timeout=60_000)
    assert panel.fused.query_keys[:2] == [QUESTION, "seal kit replacement interval"]
    after = [panel.fused.source(r).passage.chunk_id for r in range(panel.fused.rowCount())]
    assert after != before[0]
    maintenance = [panel.fused.source(r) for r in range(panel.fused.rowCount()) if panel.fused.source(r).passage.page == 4]
    assert maintenance and maintenance[0].ranks.get("seal kit replacement interval") == 1
    # ... and the model answers from it, a second turn of the chat.
    qtbot.waitUntil(lambda: window.ask_controller.job is None, timeout=180_000)
    rerun_answer = window.chat_panel.view.entries[-1]
    assert rerun_answer.role == "assistant" and rerun_answer.result.queries == ("seal kit replacement interval",)

    # A restart: a new window over the same data folder shows the old chat with its sources.
    chat_id = window.chat_controller.current
    window.close()
    again = make_window(Library(imported.home, embedder=imported.embedder, generator=imported.generator()), warm_up=False)
    assert again.chats.rowCount() == 1 and again.chats.chat_id(0) == chat_id
    again.chat_list_panel.list.clicked.emit(again.chats.index(0))
    texts = [(e.role, e.text) for e in again.chat_panel.view.entries]
    assert texts == [("user", QUESTION), ("assistant", entry.text), ("user", QUESTION), ("assistant", rerun_answer.text)]
    assert again.fusion_panel.queries.stringList() == ["seal kit replacement interval"]
    assert again.fusion_panel.fused.rowCount() >= 1
    assert again.evidence_controller.show_citation(1, first.n)
    qtbot.waitUntil(lambda: again.page_view.page == 3, timeout=5000)  # rendered in the background


def test_stop_interrupts_a_running_answer(imported, make_window, qtbot):
    window = make_window(imported)
    window.chat_panel.set_mode("rag")  # no query generation: the answer starts sooner
    box = window.chat_panel.input
    box.setPlainText("Describe everything the datasheet says about the PX-40 pump, in detail, section by section.")
    qtbot.keyClick(box, Qt.Key.Key_Return)
    entry = window.chat_panel.view.entries[-1]
    qtbot.waitUntil(lambda: len(entry.text) > 20, timeout=ANSWER_TIMEOUT_MS)
    assert window.ask_controller.job is not None
    qtbot.keyClick(window, Qt.Key.Key_Escape)
    stopped_at = time.perf_counter()
    qtbot.waitUntil(lambda: window.ask_controller.job is None, timeout=30_000)
    latency = time.perf_counter() - stopped_at
    print(f"\nstop latency: {latency * 1000:.0f} ms, {len(entry.text)} characters kept")
    assert "Stopped." in entry.notices
    assert window.chat_panel.send_button.isVisible() and not window.chat_panel.stop_button.isVisible()
    saved = window.library.chat_messages(window.chat_controller.current)
    assert saved[-1][1] == "assistant" and saved[-1][2] == entry.text


def test_a_follow_up_is_rewritten_answered_and_exported(imported, make_window, qtbot, tmp_path):
    window = make_window(imported)
    window.chat_panel.set_mode("rag")  # the rewrite is what is tested here; plain RAG keeps it short
    first, _ = ask_and_wait(window, qtbot)
    assert "85" in first.text
    follow_up, _ = ask_and_wait(window, qtbot, "And what is its IP rating?")
    standalone = follow_up.result.standalone_question
    print(f"\nfollow-up searched as: {standalone!r}; answer: {follow_up.text!r}")
    assert "PX-40" in standalone or "pump" in standalone.lower(), "the pronoun was not resolved from the chat"
    panel = window.fusion_panel
    assert panel.searched_as.isVisible() and standalone in panel.searched_as.text()
    assert panel.fused.query_keys[0] == standalone
    assert "IP67" in follow_up.text and follow_up.result.citations
    roles = [role for _, role, _, _ in window.library.chat_messages(window.chat_controller.current)]
    assert roles == ["user", "assistant", "user", "assistant"]

    target = window.chat_controller.export_chat(str(tmp_path / "chat.md"))
    text = target.read_text()
    assert "And what is its IP rating?" in text and "IP67" in text
    assert "px40-datasheet.pdf, page 3" in text and "\n```text\n" in text  # the passage verbatim, fenced
