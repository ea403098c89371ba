"""A drop in the window: every file listed at once, all text stored before any embedding, one meaning-index queue.

The embedder is a fast fake behind a gate the test opens batch by batch, so the window can be looked at while the
meaning index is only partly filled (the real model's speed is measured by bench.import_throughput --mixed-batch).
"""

from __future__ import annotations

import dataclasses

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent

from desktop_app.core.library import Library
from tests.batch_files import write_mixed_batch
from tests.fakes import GatedEmbedder, ScriptedGenerator


@pytest.fixture
def embedder():
    gated = GatedEmbedder()
    yield gated
    gated.open()  # nothing may stay blocked when the window closes


@pytest.fixture
def library(data_home, embedder):
    lib = Library(data_home, embedder=embedder, generator=ScriptedGenerator())
    lib.settings = dataclasses.replace(lib.settings, embed_batch_size=4)
    yield lib
    lib.close()


@pytest.fixture
def batch(tmp_path):
    return write_mixed_batch(tmp_path, sections=400)


def drop(window, paths) -> None:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    window.dropEvent(QDropEvent(QPointF(QPoint(10, 10)), Qt.DropAction.CopyAction, mime, Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier))


def stage(window, path) -> str:
    row = window.library_panel.rows.get(str(path.resolve()))
    return row.stage if row is not None else "no row"


def test_every_file_is_listed_at_once_and_searchable_before_any_embedding(make_window, library, embedder, batch, qtbot):
    manual, note, broken = batch
    window = make_window(library, warm_up=False)
    drop(window, batch)
    # Listed on the drop itself, before the import thread has done anything.
    assert [stage(window, f) for f in batch] == ["queued", "queued", "queued"]
    assert window.library_panel.rows[str(manual.resolve())].status.text() == "waiting"
    # With the embedder still held back: the broken file has said why, and both documents are searchable.
    qtbot.waitUntil(lambda: stage(window, broken) == "failed" and stage(window, manual) == stage(window, note) == "searchable", timeout=20_000)
    assert "broken.pdf" in window.library_panel.rows[str(broken.resolve())].status.text()
    assert sorted(d.title for d in window.documents.documents) == ["manual", "note"]
    assert window.library_panel.rows[str(note.resolve())].status.text() == "searchable by keyword; waiting for the meaning index"
    assert embedder.calls == 0

    embedder.let(2)  # two batches of 4 passages: the queue reports on the whole batch
    passages = library.store.chunk_count()
    indexing = window.library_panel.indexing
    qtbot.waitUntil(lambda: indexing.text.text().startswith(f"Indexing 8 of {passages} passages"), timeout=20_000)
    assert indexing.isVisible() and indexing.bar.maximum() == passages and indexing.bar.value() == 8
    assert f"{passages - 8} of {passages} passages not yet in the meaning index" in indexing.note.text()
    assert window.index_status.text().startswith(f"Meaning index: {passages - 8} of {passages} passages to go")

    embedder.open()
    qtbot.waitUntil(lambda: stage(window, manual) == stage(window, note) == "ready" and not window.import_controller.busy, timeout=30_000)
    assert not indexing.isVisible() and not window.index_status.isVisible()
    assert library.store.pending_count() == 0


def test_a_later_drop_is_read_before_the_earlier_one_is_embedded(make_window, library, embedder, batch, tmp_path, qtbot):
    manual, note, _ = batch
    window = make_window(library, warm_up=False)
    drop(window, [manual, note])
    qtbot.waitUntil(lambda: stage(window, note) == "searchable", timeout=20_000)
    embedder.let(1)
    qtbot.waitUntil(lambda: stage(window, manual) == "embedding", timeout=20_000)
    late = tmp_path / "late.txt"
    late.write_text("Late memo: the boiler room door code changed in June. " * 5)
    drop(window, [late])
    assert stage(window, late) == "queued"
    embedder.let(1)  # the batch being embedded finishes; then the queue steps aside for the new text
    qtbot.waitUntil(lambda: stage(window, late) == "searchable", timeout=20_000)
    assert stage(window, manual) == "embedding" and library.store.pending_count() > 0
    embedder.open()
    qtbot.waitUntil(lambda: {stage(window, f) for f in (manual, note, late)} == {"ready"} and not window.import_controller.busy, timeout=30_000)


def test_cancel_one_file_or_all_of_them_keeps_what_was_stored_searchable(make_window, library, embedder, batch, qtbot):
    manual, note, _ = batch
    window = make_window(library, warm_up=False)
    drop(window, [manual, note])
    qtbot.waitUntil(lambda: stage(window, note) == "searchable", timeout=20_000)
    window.library_panel.rows[str(note.resolve())].button.click()  # the note's own cancel
    embedder.let(1)
    qtbot.waitUntil(lambda: stage(window, note) == "cancelled", timeout=20_000)
    assert "searchable by keyword" in window.library_panel.rows[str(note.resolve())].status.text()
    assert stage(window, manual) in ("searchable", "embedding")

    window.library_panel.indexing.cancel.click()  # cancel all
    embedder.let(1)
    qtbot.waitUntil(lambda: stage(window, manual) == "cancelled" and not window.import_controller.busy, timeout=20_000)
    assert "searchable by keyword" in window.library_panel.rows[str(manual.resolve())].status.text()
    assert sorted(d.status for d in library.documents()) == ["embedding", "embedding"]
    assert library.store.keyword_search("valve assembly torqued", 3) and library.store.keyword_search("cooling tower bearing", 3)
    # The panel and the status bar say how much is missing from the meaning index, and that it resumes later.
    pending, total = library.store.pending_count(), library.store.chunk_count()
    note_text = window.library_panel.indexing.note.text()
    assert f"{pending} of {total} passages not yet in the meaning index" in note_text and "resumes" in note_text
    assert window.index_status.isVisible() and window.index_status.text() == f"Meaning index: {pending} of {total} passages to go"


def test_cancel_all_while_the_text_is_being_finished_stops_the_meaning_index_before_it_starts(make_window, library, embedder, batch, qtbot, monkeypatch):
    # Seen once on a fresh machine: "cancel all" in the moment between the text being stored and the meaning index
    # starting cancelled only the finished text job, and the meaning index then ran as if nothing had been clicked.
    import threading

    manual, note, _ = batch
    finishing, backlog = threading.Event(), library.index_backlog
    monkeypatch.setattr(library, "index_backlog", lambda: (finishing.wait(20), backlog())[1])  # the text job's last step, held
    window = make_window(library, warm_up=False)
    drop(window, [manual, note])
    qtbot.waitUntil(lambda: stage(window, manual) == stage(window, note) == "searchable", timeout=20_000)
    assert window.import_controller.index_job is None  # the text job has not finished, so no queue runs yet
    window.library_panel.indexing.cancel.click()  # cancel all
    embedder.open()  # nothing holds the embedder back: only the cancel can stop the queue
    finishing.set()
    qtbot.waitUntil(lambda: not window.import_controller.busy and stage(window, manual) == stage(window, note) == "cancelled", timeout=20_000)
    assert all("searchable by keyword" in window.library_panel.rows[str(f.resolve())].status.text() for f in (manual, note))
    assert sorted(d.status for d in library.documents()) == ["embedding", "embedding"] and embedder.calls == 0
