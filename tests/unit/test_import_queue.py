"""A batch is imported text first, for every file, then one embedding queue fills the meaning index for all of them."""

from __future__ import annotations

import dataclasses
import threading

import pytest

from desktop_app.core.ingest.embedding_queue import duration_words
from desktop_app.core.library import Library
from tests.batch_files import write_mixed_batch
from tests.fakes import HashingEmbedder


@pytest.fixture
def library(data_home, generator):
    lib = Library(data_home, embedder=HashingEmbedder(), generator=generator)
    lib.settings = dataclasses.replace(lib.settings, embed_batch_size=4)  # many batches: the queue's progress shows
    yield lib
    lib.close()


@pytest.fixture
def batch(tmp_path):
    return write_mixed_batch(tmp_path, sections=120)


def stages_of(events, file):
    return [e.stage for e in events if e.file == str(file.resolve())]


def test_every_file_is_searchable_and_the_broken_one_has_failed_before_any_embedding(library, batch):
    manual, note, broken = batch
    events = []
    for event in library.import_paths(batch):
        if event.stage == "embedding" and not any(e.stage == "embedding" for e in events):
            # The moment the meaning index begins: both documents are listed and found by keyword already.
            assert sorted(d.title for d in library.documents()) == ["manual", "note"]
            assert library.store.keyword_search("valve assembly torqued", 3) and library.store.keyword_search("cooling tower bearing", 3)
            assert stages_of(events, broken)[-1] == "failed"
        events.append(event)
    first_embedding = next(i for i, e in enumerate(events) if e.stage == "embedding")
    assert all(e.stage == "queued" for e in events[:3])  # every file listed at once
    assert max(i for i, e in enumerate(events) if e.stage in ("searchable", "failed")) < first_embedding
    assert stages_of(events, manual)[-1] == "ready" and stages_of(events, note)[-1] == "ready"
    assert library.store.pending_count() == 0


def test_one_indexing_progress_counts_the_passages_of_the_whole_batch_with_a_time_estimate(library, batch):
    events = list(library.import_paths(batch))
    indexing = [e for e in events if e.stage == "indexing"]
    passages = library.store.chunk_count()
    assert indexing and [e.done for e in indexing] == sorted(e.done for e in indexing)
    assert {e.total for e in indexing} == {passages}  # one queue over both documents, not one per file
    assert indexing[-1].done == passages and indexing[-1].seconds_left == 0
    assert all(e.seconds_left is not None for e in indexing)
    assert indexing[0].message.startswith(f"indexing {indexing[0].done:,} of {passages:,} passages, about ")


def test_a_file_cancelled_alone_stays_searchable_and_the_rest_of_the_batch_goes_on(library, batch, tmp_path):
    manual, note, _ = batch
    late = tmp_path / "late.txt"
    late.write_text("Late memo: the boiler room door code changed. " * 10)
    cancelled: set[str] = {str(late.resolve())}  # cancelled before its turn: not imported at all
    events = []
    for event in library.import_paths([*batch, late], cancelled_files=cancelled):
        events.append(event)
        if event.stage == "searchable" and event.file == str(manual.resolve()):
            cancelled.add(event.file)  # its text is stored: cancelling stops only its embedding
    assert stages_of(events, late) == ["queued", "cancelled"]
    final = [e for e in events if e.file == str(manual.resolve())][-1]
    assert final.stage == "cancelled" and "searchable by keyword" in final.message
    assert stages_of(events, note)[-1] == "ready"
    status = {d.title: d.status for d in library.documents()}
    assert status == {"manual": "embedding", "note": "ready"}
    assert library.store.keyword_search("valve assembly torqued", 3)


def test_the_queue_steps_aside_between_batches_and_resumes_where_it_stopped(library, batch):
    list(library.store_paths(batch[:1]))
    pending = library.store.pending_count()
    asked = []
    queue = library.embedding_queue()
    list(queue.run(should_pause=lambda: asked.append(1) or len(asked) > 2))
    assert queue.paused and library.store.pending_count() == pending - 2 * 4  # two batches of 4, then it stepped aside
    events = list(queue.run())
    assert not queue.paused and library.store.pending_count() == 0
    assert events[-1].stage == "ready" and [d.status for d in library.documents()] == ["ready"]


def test_cancelling_the_batch_while_it_is_read_keeps_what_was_stored(library, batch):
    cancel = threading.Event()
    events = []
    for event in library.import_paths(batch, cancel=cancel):
        events.append(event)
        if event.stage == "searchable":
            cancel.set()  # after the first file's text is stored
    manual, note, broken = batch
    last_word = [e for e in events if e.file == str(manual.resolve())][-1]
    assert last_word.stage == "cancelled" and "searchable by keyword" in last_word.message
    assert stages_of(events, note)[-1] == "cancelled" and stages_of(events, broken)[-1] == "cancelled"
    assert [d.title for d in library.documents()] == ["manual"]
    assert not any(e.stage == "embedding" for e in events)


@pytest.mark.parametrize(("seconds", "words"), [(3, "about 5 s"), (42, "about 40 s"), (61, "about 1 min"), (719, "about 12 min"), (4800, "about 1 h 20 min")])
def test_time_estimates_read_as_a_person_says_them(seconds, words):
    assert duration_words(seconds) == words
