"""The window never waits for the database: while another connection holds the write lock (an import in
another window or the CLI), saving chats, collections and settings queue in the background and land after."""

from __future__ import annotations

import json
import sqlite3

from PySide6.QtCore import QTimer

from desktop_app.core.library import Library
from tests.fakes import HashingEmbedder, ScriptedGenerator


def test_writes_wait_for_the_lock_in_the_background_while_the_window_answers_events(data_home, tmp_path, make_window, qtbot):
    library = Library(data_home, embedder=HashingEmbedder(), generator=ScriptedGenerator(["Close the valve [1]."]))
    note = tmp_path / "note.txt"
    note.write_text("The coolant valve is closed before the pump is serviced.")
    list(library.import_paths([note]))
    old_chat = library.create_chat("old chat")
    window = make_window(library, warm_up=False)
    [document] = library.documents()

    holder = sqlite3.connect(data_home / "library.sqlite", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # the write lock, as an import in another process holds it
    released = []

    def release() -> None:
        # Runs only if the window's event loop is free: a write waiting on the UI thread (10 s busy
        # timeout) would keep this from running until that write had failed with "database is locked".
        holder.execute("ROLLBACK")
        released.append(True)

    QTimer.singleShot(300, release)
    window.chat_controller.delete_chat(old_chat)
    window.collection_controller.add("Pumps", [document.id])
    window.settings_controller.mode_changed("rag")
    window.ask_controller.ask("How is the valve serviced?")  # a new chat is created for it

    qtbot.waitUntil(lambda: bool(released), timeout=5_000)
    qtbot.waitUntil(lambda: window.ask_controller.job is None, timeout=20_000)
    qtbot.waitUntil(lambda: "Pumps" in {n for _, n, _ in library.collections()}, timeout=20_000)
    qtbot.waitUntil(lambda: old_chat not in {c for c, _, _ in library.chats()}, timeout=20_000)
    titles = [title for _, title, _ in library.chats()]
    assert titles == ["How is the valve serviced?"]
    assert [role for _, role, _, _ in library.chat_messages(window.chat_controller.current)] == ["user", "assistant"]
    saved = data_home / "settings.json"  # written in the background, replaced whole: absent until the first write
    qtbot.waitUntil(lambda: saved.exists() and json.loads(saved.read_text())["mode"] == "rag", timeout=20_000)
    holder.close()


def test_a_cited_page_is_rendered_off_the_ui_thread(data_home, make_window, qtbot, monkeypatch, sample_pdf):
    import threading

    from desktop_app.core.types import Source
    from desktop_app.ui.controllers import evidence

    library = Library(data_home, embedder=HashingEmbedder(), generator=ScriptedGenerator())
    list(library.import_paths([sample_pdf]))
    window = make_window(library, warm_up=False)
    threads = []
    real_render = evidence.render_page

    def render_page(*args, **kwargs):
        threads.append(threading.current_thread())
        return real_render(*args, **kwargs)

    monkeypatch.setattr(evidence, "render_page", render_page)
    chunk_id = next(c for c in library.store.chunk_ids() if library.passage(c).page == 3)
    assert window.evidence_controller.show_source(Source(1, library.passage(chunk_id), 0.0, {}, 0.0))
    qtbot.waitUntil(lambda: window.page_view.page == 3)
    assert threads and threading.main_thread() not in threads
    assert window.page_view.highlighted > 0 and not window.page_view.image.pixmap().isNull()
    library.close()
