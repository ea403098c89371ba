"""A full disk, a read-only data folder or a busy library: a clear error, and nothing half-written."""

from __future__ import annotations

import errno
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from desktop_app.core.errors import StorageError
from desktop_app.core.library import Library
from desktop_app.core.storage import database as store_module
from desktop_app.core.storage import vector_index
from tests.fakes import HashingEmbedder, ScriptedGenerator
from tests.reliability.conftest import REPO, assert_index_matches_sqlite, snapshot, subprocess_env, terminal_events


def notes(folder: Path, count: int, paragraphs: int = 3) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for n in range(count):
        path = folder / f"report{n:02}.txt"
        path.write_text("\n\n".join(f"Report {n} section {p}: inspection of line {n * 7 + p} found worn gaskets." for p in range(paragraphs)))
        out.append(path)
    return out


def test_disk_full_inside_the_write_rolls_back_the_whole_file(fake_library, datasheet, tmp_path):
    list(fake_library.import_paths([datasheet]))
    before = snapshot(fake_library)
    files = notes(tmp_path / "notes", 3)
    # SQLite reports a full disk from the middle of the transaction: after the document and page rows went in.
    fake_library.store.conn.execute(
        "CREATE TEMP TRIGGER disk_full BEFORE INSERT ON chunks BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END"
    )
    finals = terminal_events(fake_library.import_paths(files))
    first = finals[str(files[0])]
    assert first.stage == "failed" and "disk is full" in first.message.lower() and "free some disk space" in first.message.lower()
    # The batch stops with the reason, instead of failing the same way file after file.
    assert all(finals[str(f)].stage == "failed" and "not imported" in finals[str(f)].message for f in files[1:])
    assert snapshot(fake_library) == before
    assert fake_library.store.integrity_problems() == []
    assert_index_matches_sqlite(fake_library)
    fake_library.store.conn.execute("DROP TRIGGER temp.disk_full")
    finals = terminal_events(fake_library.import_paths(files))
    assert {e.stage for e in finals.values()} == {"ready"}


def test_disk_full_while_saving_the_index_keeps_the_previous_index(fake_library, datasheet, tmp_path, monkeypatch):
    list(fake_library.import_paths([datasheet]))
    saved = fake_library.index.data_path
    saved_ids = fake_library.index.ids()
    real_replace = os.replace

    def full_disk(src, dst):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(vector_index.os, "replace", full_disk)
    events = list(fake_library.import_paths(notes(tmp_path / "notes", 2)))
    assert {e.stage for e in terminal_events(events).values()} == {"ready"}
    warnings = [e.message for e in events if e.stage == "warning"]
    assert len(warnings) == 1 and "disk is full" in warnings[0].lower() and "documents are safe" in warnings[0]
    monkeypatch.setattr(vector_index.os, "replace", real_replace)
    # The documents are committed; the old index file is untouched, no stray file is left, and the next open catches up.
    assert fake_library.index.data_path == saved
    assert sorted(p.name for p in fake_library.home.glob("chunks*")) == sorted(["chunks.json", "chunks.lock", saved.name])
    fake_library.close()
    again = Library(fake_library.home, embedder=HashingEmbedder(), generator=ScriptedGenerator())
    assert saved_ids < again.index.ids() and not again.notices
    assert len(again.documents()) == 3
    assert_index_matches_sqlite(again)
    again.close()


def test_library_busy_gives_a_clear_message(data_home, datasheet, monkeypatch):
    Library(data_home, embedder=HashingEmbedder(), generator=ScriptedGenerator()).close()
    monkeypatch.setattr(store_module, "BUSY_TIMEOUT_MS", 300)
    library = Library(data_home, embedder=HashingEmbedder(), generator=ScriptedGenerator())
    other = sqlite3.connect(data_home / "library.sqlite", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another window or the CLI in the middle of a write
    try:
        finals = terminal_events(library.import_paths([datasheet]))
        event = finals[str(datasheet)]
        assert event.stage == "failed" and "busy" in event.message and "try again" in event.message.lower()
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert terminal_events(library.import_paths([datasheet]))[str(datasheet)].stage == "ready"
    library.close()


@pytest.fixture
def small_disk(tmp_path):
    """A real 4 MB filesystem (tmpfs), so the disk really fills and really turns read-only."""
    mount = tmp_path / "small-disk"
    mount.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a small filesystem needs root; the monkeypatched tests above cover the logic")
    result = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(mount)], capture_output=True, text=True)
    if result.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {result.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def test_a_really_full_disk(small_disk, datasheet, tmp_path):
    home = small_disk / "home"
    library = Library(home, embedder=HashingEmbedder(), generator=ScriptedGenerator())
    assert terminal_events(library.import_paths([datasheet]))[str(datasheet)].stage == "ready"
    before = snapshot(library)
    filler = small_disk / "filler"
    free = os.statvfs(small_disk).f_bavail * os.statvfs(small_disk).f_frsize
    filler.write_bytes(b"\0" * (free - 200_000))
    files = notes(tmp_path / "big", 6, paragraphs=400)
    events = list(library.import_paths(files))
    finals = terminal_events(events)
    problems = [e.message for e in events if e.stage in ("failed", "warning")]
    assert problems and all("disk is full" in m.lower() or m.startswith("not imported: The disk is full") for m in problems), problems
    (REPO / ".cache" / "reliability").mkdir(parents=True, exist_ok=True)
    (REPO / ".cache" / "reliability" / "full-disk.txt").write_text("\n".join(f"{Path(e.file).name}\t{e.stage}\t{e.message}" for e in events if e.stage in ("ready", "failed", "warning")) + "\n")
    # Files whose text was stored before the disk filled up stay in the library, found by keyword.
    ready = [f for f, e in finals.items() if e.stage == "ready" or "was stored and is found by keyword" in e.message]
    library.close()
    filler.unlink()
    again = Library(home, embedder=HashingEmbedder(), generator=ScriptedGenerator())
    assert again.store.integrity_problems() == []
    assert set(before[1]) <= set(snapshot(again)[1])
    assert sorted(d.path for d in again.documents()) == sorted([str(datasheet.resolve())] + ready)
    for doc in again.documents():
        assert doc.chunks == again.store.conn.execute("SELECT count(*) FROM chunks WHERE document_id = ?", (doc.id,)).fetchone()[0]
    assert_index_matches_sqlite(again)
    # With space again, the same files import.
    finals = terminal_events(again.import_paths(files))
    assert {e.stage for e in finals.values()} <= {"ready", "skipped"}
    again.close()


def test_a_read_only_data_folder(small_disk, datasheet):
    home = small_disk / "home"
    library = Library(home, embedder=HashingEmbedder(), generator=ScriptedGenerator())
    list(library.import_paths([datasheet]))
    library.close()
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    with pytest.raises(StorageError) as caught:
        Library(home, embedder=HashingEmbedder(), generator=ScriptedGenerator())
    assert "read-only" in caught.value.user_message() and "DESKTOP_APP_HOME" in caught.value.user_message()
    out = subprocess.run([sys.executable, "-m", "desktop_app.cli", "docs"], capture_output=True, text=True, env=subprocess_env(home), cwd=REPO, timeout=300)
    assert out.returncode == 2 and "read-only" in out.stderr and "Traceback" not in out.stderr, out.stderr
    subprocess.run(["mount", "-o", "remount,rw", str(small_disk)], check=True)
    again = Library(home, embedder=HashingEmbedder(), generator=ScriptedGenerator())
    assert len(again.documents()) == 1 and again.store.integrity_problems() == []
    again.close()
