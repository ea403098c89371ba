"""Folders kept in sync: real files created, changed, moved and deleted in a temporary folder, real watchdog events."""

from __future__ import annotations

import json
import os
import queue
import threading
import time
from pathlib import Path

import pytest

from desktop_app.core.codec import result_from_json
from desktop_app.core.ingest.folder_sync import is_ignored
from desktop_app.core.ingest.folder_watch import Debouncer, FolderWatcher
from tests.batch_files import PUMP, VALVE, ask_about_the_pump


@pytest.fixture
def folder(tmp_path) -> Path:
    folder = tmp_path / "manuals"
    (folder / "sub").mkdir(parents=True)
    (folder / "pump.txt").write_text(PUMP)
    (folder / "sub" / "valve.md").write_text(VALVE)
    # What editors, office suites and file managers leave beside documents: never imported.
    for junk in ("~$report.docx", ".#pump.txt", "#pump.txt#", "pump.txt.swp", "draft.tmp", "pump.txt~", ".DS_Store", ".hidden.txt"):
        (folder / junk).write_text("scratch " + PUMP)
    (folder / ".git").mkdir()
    (folder / ".git" / "notes.txt").write_text("scratch " + PUMP)
    return folder


def titles(library) -> list[str]:
    return sorted(Path(d.path).name for d in library.documents())


def final(events) -> dict[str, str]:
    return {Path(e.file).name: e.stage for e in events if e.file and e.stage in ("ready", "removed", "failed", "skipped")}


@pytest.mark.parametrize("name", ["~$report.docx", ".#notes.md", "#notes.md#", "notes.md.swp", "x.tmp", "notes.md~", ".DS_Store", ".profile", "Thumbs.db"])
def test_temporary_and_hidden_files_are_ignored(name):
    assert is_ignored(Path("/docs") / name, "/docs")


def test_documents_are_not_ignored_but_files_in_hidden_folders_are():
    assert not is_ignored("/docs/report.txt", "/docs") and not is_ignored("/home/.me/docs/report.txt", "/home/.me/docs")
    assert is_ignored("/docs/.git/report.txt", "/docs")


def test_a_sync_imports_new_files_reimports_changed_ones_and_removes_deleted_ones(empty_library, folder, tmp_path):
    library = empty_library
    watched = library.watch_folder(folder)
    assert library.watched_folders() == [watched] == [str(folder.resolve())]
    assert final(library.sync_folders()) == {"pump.txt": "ready", "valve.md": "ready"}
    assert titles(library) == ["pump.txt", "valve.md"]

    assert list(library.sync_folders()) == []  # nothing changed: nothing read, nothing said
    (folder / "pump.txt").write_text(PUMP.replace("seals", "gaskets"))
    (folder / "new.txt").write_text("The new compressor is oiled monthly.")
    assert final(library.sync_folders()) == {"pump.txt": "ready", "new.txt": "ready"}
    assert library.store.keyword_search("gaskets", 3) and not library.store.keyword_search("seals", 3)

    (folder / "sub" / "valve.md").unlink()
    (folder / "new.txt").rename(tmp_path / "moved-away.txt")
    (folder / "pump.txt").rename(folder / ".pump.txt")  # renamed to a hidden name: gone from the library too
    events = list(library.sync_folders())
    assert final(events) == {"valve.md": "removed", "new.txt": "removed", "pump.txt": "removed"}
    assert library.documents() == [] and library.index.ids() == set()
    assert library.unwatch_folder(folder) and library.watched_folders() == []


def test_a_missing_watched_folder_removes_nothing(empty_library, folder, tmp_path):
    library = empty_library
    library.watch_folder(folder)
    list(library.sync_folders())
    folder.rename(tmp_path / "unplugged")  # a drive taken out, a share not mounted
    events = list(library.sync_folders())
    assert [e.stage for e in events] == ["warning"] and "not there" in events[0].message
    assert titles(library) == ["pump.txt", "valve.md"]


def test_a_chat_keeps_its_quotes_after_the_cited_file_is_deleted(empty_library, folder, generator):
    library = empty_library
    library.watch_folder(folder)
    list(library.sync_folders())
    chat = ask_about_the_pump(library, generator)
    (folder / "pump.txt").unlink()
    assert final(library.sync_folders()) == {"pump.txt": "removed"}
    # Opening the chat reads the saved answer; its citation still quotes the passage of the deleted file.
    (_, _, answer, saved), *_ = [m for m in library.chat_messages(chat) if m[1] == "assistant"]
    result = result_from_json(json.loads(saved))
    assert answer == "Every 4,000 hours [1]." and "4,000 hours" in result.citations[0].text
    exported = library.export_chat(chat)
    assert "pump.txt" in exported and "```text\nThe PX-9 feed pump runs at 2,900 rpm" in exported


def test_the_debouncer_hands_a_burst_over_once_after_a_quiet_spell():
    calls: list[set[str]] = []
    debouncer = Debouncer(calls.append, quiet_s=0.2, max_wait_s=5.0)
    for n in range(5):
        debouncer.add([f"/docs/{n % 2}.txt"])
        time.sleep(0.05)
    assert calls == []
    time.sleep(0.5)
    assert calls == [{"/docs/0.txt", "/docs/1.txt"}]


def test_the_debouncer_does_not_wait_forever_while_changes_keep_coming():
    calls: list[set[str]] = []
    debouncer = Debouncer(calls.append, quiet_s=0.3, max_wait_s=0.6)
    deadline = time.monotonic() + 1.5
    while time.monotonic() < deadline:  # a change every 0.1 s: never quiet for 0.3 s
        debouncer.add(["/docs/log.txt"])
        time.sleep(0.1)
    debouncer.cancel()
    assert len(calls) >= 2


def wait_for(bursts: queue.Queue, name: str, timeout: float = 20.0) -> set[str]:
    """The paths of the burst that names `name` (earlier bursts, from setting up the folder, are gathered too)."""
    seen: set[str] = set()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            seen |= bursts.get(timeout=0.2)
        except queue.Empty:
            continue
        if any(Path(p).name == name for p in seen):
            return seen
    raise AssertionError(f"no change reported for {name}; saw {seen}")


def test_the_watcher_sees_files_created_changed_and_deleted_and_the_library_follows(empty_library, folder):
    library = empty_library
    library.watch_folder(folder)
    list(library.sync_folders())
    bursts: queue.Queue[set[str]] = queue.Queue()
    watcher = FolderWatcher(bursts.put, quiet_s=0.3)
    try:
        watcher.watch(library.watched_folders()[0])
        # An office suite's save: an owner file, a temporary file renamed over the document.
        (folder / "~$report.txt").write_text("owner")
        (folder / "report.tmp").write_text("The blower belt is tensioned to 40 N.")
        os.replace(folder / "report.tmp", folder / "report.txt")
        changed = wait_for(bursts, "report.txt")
        assert not any(Path(p).name in ("~$report.txt",) for p in changed)
        assert final(library.sync_folders(changed=changed)) == {"report.txt": "ready"}

        (folder / "report.txt").write_text("The blower belt is tensioned to 45 N.")
        assert final(library.sync_folders(changed=wait_for(bursts, "report.txt"))) == {"report.txt": "ready"}
        assert library.store.keyword_search("45", 3)

        (folder / "sub" / "valve.md").unlink()
        assert final(library.sync_folders(changed=wait_for(bursts, "valve.md"))) == {"valve.md": "removed"}
        assert titles(library) == ["pump.txt", "report.txt"]
    finally:
        watcher.stop()


def test_cli_watch_commands(empty_library, folder, monkeypatch, capsys):
    from desktop_app import cli
    from desktop_app.cli.watching import watch_until

    monkeypatch.setitem(cli._OPEN, "library", empty_library)
    assert cli.main(["watch", "add", str(folder)]) == 0
    out = capsys.readouterr().out
    assert f"Keeping {folder.resolve()} in sync" in out and "ready    pump.txt" in out and "ready    valve.md" in out
    assert cli.main(["watch", "list"]) == 0
    assert f"{folder.resolve()}  2 documents" in capsys.readouterr().out

    (folder / "pump.txt").unlink()
    assert cli.main(["watch", "sync"]) == 0
    assert f"removed  pump.txt: no longer in {folder.resolve()}" in capsys.readouterr().out

    # `watch run`: rescan, then follow the folder until stopped (Ctrl+C there; an event here).
    stop = threading.Event()
    runner = threading.Thread(target=watch_until, args=(empty_library, stop, 0.3))
    runner.start()
    try:
        time.sleep(1.0)
        (folder / "added.txt").write_text("The chiller is descaled every autumn.")
        deadline = time.monotonic() + 20
        while "added.txt" not in titles(empty_library) and time.monotonic() < deadline:
            time.sleep(0.2)
    finally:
        stop.set()
        runner.join(timeout=30)
    assert titles(empty_library) == ["added.txt", "valve.md"]

    assert cli.main(["watch", "remove", str(folder)]) == 0
    assert "its documents stay in the library" in capsys.readouterr().out
    assert cli.main(["watch", "list"]) == 0 and "No watched folders" in capsys.readouterr().out
