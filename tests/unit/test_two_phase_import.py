"""Imports are searchable by keyword as soon as their text is stored; embedding follows and can resume."""

from __future__ import annotations

import dataclasses
import threading

import pytest

from desktop_app.core.events import AnswerDone
from desktop_app.core.library import Library
from tests.fakes import HashingEmbedder

NOTE = "Harbour plant maintenance log. The cooling tower fan bearing was replaced in March. " * 40


@pytest.fixture
def library(data_home, generator):
    lib = Library(data_home, embedder=HashingEmbedder(), generator=generator)
    # Small batches, so a test can stop between two of them.
    lib.settings = dataclasses.replace(lib.settings, embed_batch_size=4)
    yield lib
    lib.close()


def test_a_document_is_found_by_keyword_before_it_is_embedded(library, tmp_path):
    note = tmp_path / "harbour.txt"
    note.write_text(NOTE)
    stages = []
    for event in library.import_paths([note]):
        stages.append(event.stage)
        if event.stage == "searchable":
            (document,) = library.documents()
            assert document.status == "embedding"
            assert library.store.keyword_search("cooling tower bearing", 5)
            assert not library.index.ids()
    assert stages.index("searchable") < stages.index("embedding") < stages.index("ready")
    (document,) = library.documents()
    assert document.status == "ready"
    assert library.index.ids() == set(library.store.chunk_ids())


def test_a_cancelled_embedding_keeps_the_document_and_finishes_on_the_next_import(library, data_home, tmp_path, generator):
    note = tmp_path / "harbour.txt"
    note.write_text(NOTE)
    cancel = threading.Event()
    events = []
    for event in library.import_paths([note], cancel=cancel):
        events.append(event)
        if event.stage == "embedding":
            cancel.set()
    assert events[-1].stage == "cancelled" and "searchable by keyword" in events[-1].message
    assert library.store.pending_count() > 0
    library.close()

    # The next session: the index holds exactly the embedded chunks, and asking still finds the document.
    again = Library(data_home, embedder=HashingEmbedder(), generator=generator)
    try:
        assert not again.notices
        assert again.index.ids() == set(again.store.embedded_chunk_ids()) != set(again.store.chunk_ids())
        generator.enqueue("The bearing was replaced in March [1].")
        done = [e for e in again.ask("When was the cooling tower fan bearing replaced?", "rag") if isinstance(e, AnswerDone)][0]
        assert done.result.found and done.result.sources
        assert any("still being indexed" in n for n in done.result.notices)

        resumed = list(again.import_paths([]))
        assert [e.stage for e in resumed][-1] == "ready"
        assert again.store.pending_count() == 0
        assert again.index.ids() == set(again.store.chunk_ids())
        assert [d.status for d in again.documents()] == ["ready"]
        # Re-importing the same file now does nothing.
        assert [e.stage for e in again.import_paths([note])][-1] == "skipped"
    finally:
        again.close()


def test_removing_a_document_while_it_is_embedded_leaves_nothing_behind(library, tmp_path):
    note = tmp_path / "harbour.txt"
    note.write_text(NOTE)
    events = []
    for event in library.import_paths([note]):
        events.append(event)
        if event.stage == "embedding" and [e.stage for e in events].count("embedding") == 1:  # after its first batch
            library.remove_document(event.document_id)
    assert events[-1].stage == "cancelled" and "removed" in events[-1].message
    assert library.documents() == []
    assert library.index.ids() == set()
    assert library.store.keyword_search("cooling tower bearing", 5) == []
