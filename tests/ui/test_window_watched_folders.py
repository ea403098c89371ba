"""Folders kept in sync in the window: real files created, changed and deleted in a temporary folder while the window
is open (real watchdog events) and while it is closed (the rescan on start); chats keep their quotes."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_app.core.ingest import folder_watch
from desktop_app.core.library import Library
from tests.batch_files import PUMP, VALVE, ask_about_the_pump
from tests.fakes import HashingEmbedder, ScriptedGenerator


@pytest.fixture(autouse=True)
def quick_watcher(monkeypatch):
    monkeypatch.setattr(folder_watch, "QUIET_S", 0.3)  # a test need not wait the 2 s a person's saves get


@pytest.fixture
def generator():
    return ScriptedGenerator()


@pytest.fixture
def library(data_home, generator):
    lib = Library(data_home, embedder=HashingEmbedder(), generator=generator)
    yield lib
    lib.close()


@pytest.fixture
def folder(tmp_path) -> Path:
    folder = tmp_path / "manuals"
    folder.mkdir()
    (folder / "pump.txt").write_text(PUMP)
    (folder / "valve.md").write_text(VALVE)
    return folder


def names(window) -> list[str]:
    return sorted(Path(d.path).name for d in window.documents.documents)


def settled(window) -> bool:
    return not window.import_controller.busy


def test_a_folder_added_in_the_window_is_followed_while_it_is_open(make_window, library, folder, qtbot):
    window = make_window(library, warm_up=False)
    assert "keep it in sync" in window.watch_action.text()
    window.watch_controller.add_folder(str(folder))
    qtbot.waitUntil(lambda: names(window) == ["pump.txt", "valve.md"] and settled(window), timeout=20_000)
    assert window.library_panel.watched.folders() == [str(folder.resolve())] and window.library_panel.watched.isVisible()
    assert library.watched_folders() == [str(folder.resolve())]

    (folder / "~$notes.txt").write_text("owner file")  # what an office suite leaves: never imported
    (folder / "notes.txt.swp").write_text("swap")
    (folder / "notes.txt").write_text("The compressor oil is changed every 500 hours.")
    qtbot.waitUntil(lambda: names(window) == ["notes.txt", "pump.txt", "valve.md"] and settled(window), timeout=20_000)

    (folder / "pump.txt").write_text(PUMP.replace("seals", "gaskets"))
    qtbot.waitUntil(lambda: bool(library.store.keyword_search("gaskets", 3)) and settled(window), timeout=20_000)
    assert not library.store.keyword_search("seals", 3)

    (folder / "valve.md").unlink()
    qtbot.waitUntil(lambda: names(window) == ["notes.txt", "pump.txt"] and settled(window), timeout=20_000)
    row = window.library_panel.rows[str((folder / "valve.md").resolve())]
    assert row.stage == "removed" and "no longer in" in row.status.text()

    window.library_panel.watched.stop.click()  # stop keeping it in sync: its documents stay
    qtbot.waitUntil(lambda: library.watched_folders() == [] and settled(window), timeout=10_000)
    assert not window.library_panel.watched.isVisible()
    (folder / "later.txt").write_text("Not followed any more.")
    qtbot.wait(1500)
    assert names(window) == ["notes.txt", "pump.txt"]


def test_changes_made_while_the_window_was_closed_are_found_on_start_and_chats_keep_their_quotes(
    make_window, library, folder, generator, qtbot, tmp_path
):
    library.watch_folder(folder)
    list(library.sync_folders())
    chat = ask_about_the_pump(library, generator)
    # While the app is closed: the cited file is deleted, another one added.
    (folder / "pump.txt").unlink()
    (folder / "filter.txt").write_text("The intake filter is cleaned weekly.")

    window = make_window(library, warm_up=False)
    qtbot.waitUntil(lambda: names(window) == ["filter.txt", "valve.md"] and settled(window), timeout=20_000)
    # The chat that cited the deleted file still opens with its answer and its quote, and exports.
    window.chat_controller.open_chat(chat)
    entry = window.chat_panel.view.entries[-1]
    assert entry.text == "Every 4,000 hours [1]." and "4,000 hours" in entry.result.citations[0].text
    exported = window.chat_controller.export_chat(str(tmp_path / "chat.md"))
    text = exported.read_text()
    assert "pump.txt" in text and "```text\nThe PX-9 feed pump runs at 2,900 rpm" in text
