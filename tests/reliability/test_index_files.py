"""The vector index file: a crash at any step of a save leaves a usable index; a damaged one is rebuilt with a notice."""

from __future__ import annotations

import os

import pytest

from desktop_app.core.library import Library
from desktop_app.core.storage import vector_index
from desktop_app.core.storage.vector_index import IndexState, VectorIndex
from tests.fakes import HashingEmbedder, ScriptedGenerator
from tests.reliability.conftest import assert_index_matches_sqlite


class PowerCut(BaseException):
    """Stops the save where it stands, skipping every clean-up, as a crash would."""


def on_disk(home) -> tuple[str | None, set[int]]:
    embedder = HashingEmbedder()
    index = VectorIndex(home / "chunks.hnsw", IndexState(embedder.name, embedder.dimension))
    return index.load(), index.ids()


def _cut(when: str, real):
    def wrapper(*args, **kwargs):
        if when == "before":
            raise PowerCut()
        real(*args, **kwargs)
        raise PowerCut()

    return wrapper


# Every step of VectorIndex.save: cut just before or just after each of its disk operations.
CUTS = [
    ("_fsync_file", "before"),  # data file written, not yet flushed
    ("_fsync_file", "after"),  # data flushed, description not yet written
    ("replace", "before"),  # new description in its temporary file, not yet switched
    ("replace", "after"),  # switched (the commit point), folder not yet flushed
    ("_fsync_dir", "after"),  # committed, the old data file not yet deleted
]


@pytest.mark.parametrize("target, when", CUTS)
def test_a_crash_at_any_step_of_a_save_leaves_old_or_new_index(data_home, datasheet, tmp_path, monkeypatch, target, when):
    library = Library(data_home, embedder=HashingEmbedder(), generator=ScriptedGenerator())
    list(library.import_paths([datasheet]))
    old_ids = library.index.ids()
    note = tmp_path / "note.txt"
    note.write_text("A second document about the seal kit and its torque values.")
    real = os.replace if target == "replace" else getattr(vector_index, target)
    if target == "replace":
        monkeypatch.setattr(vector_index.os, "replace", _cut(when, real))
    else:
        monkeypatch.setattr(vector_index, target, _cut(when, real))
    with pytest.raises(PowerCut):
        list(library.import_paths([note]))
    monkeypatch.undo()
    reason, ids = on_disk(data_home)
    assert reason is None, f"cut {when} {target}: the index on disk is unusable ({reason})"
    assert ids in (old_ids, set(library.store.chunk_ids())), "neither the old nor the new index"
    # Restarting catches the index up with SQLite quietly: nothing to rebuild.
    again = Library(data_home, embedder=HashingEmbedder(), generator=ScriptedGenerator())
    assert not again.notices
    assert_index_matches_sqlite(again)
    again.close()


@pytest.mark.parametrize("damage", ["data", "description", "missing-data"])
def test_a_damaged_index_is_rebuilt_from_sqlite_with_a_notice(data_home, datasheet, damage):
    library = Library(data_home, embedder=HashingEmbedder(), generator=ScriptedGenerator())
    list(library.import_paths([datasheet]))
    expected = library.index.ids()
    data = library.index.data_path
    library.close()
    if damage == "data":
        data.write_bytes(data.read_bytes()[: data.stat().st_size // 3])
    elif damage == "description":
        (data_home / "chunks.json").write_text('{"model": "hashing-te')
    else:
        data.unlink()
    again = Library(data_home, embedder=HashingEmbedder(), generator=ScriptedGenerator())
    assert len(again.notices) == 1 and "rebuilt" in again.notices[0], again.notices
    assert again.index.ids() == expected
    assert_index_matches_sqlite(again)
    again.close()
    # The rebuilt index was saved: the next start is quiet.
    third = Library(data_home, embedder=HashingEmbedder(), generator=ScriptedGenerator())
    assert not third.notices
    third.close()
