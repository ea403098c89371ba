"""The import/search/answer loop on real SQLite, hnswlib and PDFs, with fast fake models."""

from __future__ import annotations

import pytest

from desktop_app.core.events import AnswerDone, EvidenceSelected, QueriesGenerated, StageStarted, Token
from desktop_app.core.library import Library
from desktop_app.sample_datasheet import write_sample_datasheet
from tests.fakes import HashingEmbedder, ScriptedGenerator


@pytest.fixture
def library(empty_library):
    return empty_library


@pytest.fixture
def datasheet(tmp_path):
    return write_sample_datasheet(tmp_path / "docs" / "px40.pdf")


def run(events):
    events = list(events)
    done = [e for e in events if isinstance(e, AnswerDone)]
    assert len(done) == 1
    return events, done[0].result


def test_import_stores_pages_and_chunks_and_reports_progress(library, datasheet):
    events = list(library.import_paths([datasheet]))
    stages = [e.stage for e in events]
    assert stages[0] == "queued" and stages[-1] == "ready"
    assert "embedding" in stages
    [doc] = library.documents()
    assert doc.pages == 4 and doc.chunks >= 4 and doc.status == "ready"
    assert doc.title == "PX-40 Industrial Pump Datasheet"
    assert len(library.index) == doc.chunks


def test_reimporting_an_unchanged_file_does_nothing(library, datasheet):
    list(library.import_paths([datasheet]))
    embed_calls = library.embedder.calls
    events = list(library.import_paths([datasheet]))
    assert events[-1].stage == "skipped"
    assert library.embedder.calls == embed_calls
    assert len(library.documents()) == 1


def test_a_changed_file_replaces_its_old_chunks(library, tmp_path):
    note = tmp_path / "note.txt"
    note.write_text("The office closes at six. The coffee machine is on floor two.")
    list(library.import_paths([note]))
    old_ids = set(library.store.chunk_ids())
    note.write_text("The office closes at eight now.")
    events = list(library.import_paths([note]))
    assert events[-1].stage == "ready"
    new_ids = set(library.store.chunk_ids())
    assert not (old_ids & new_ids)
    assert library.index.ids() == new_ids
    [doc] = library.documents()
    assert "eight" in library.store.passages(list(new_ids))[min(new_ids)].text


def test_a_bad_file_fails_alone_and_the_batch_goes_on(library, tmp_path, datasheet):
    fake = tmp_path / "docs" / "fake.pdf"
    fake.write_text("this is not a pdf")
    empty = tmp_path / "docs" / "empty.pdf"
    empty.write_bytes(b"")
    events = list(library.import_paths([tmp_path / "docs"]))
    final = {e.file.split("/")[-1]: e for e in events if e.stage in ("ready", "failed")}
    assert final["px40.pdf"].stage == "ready"
    assert final["fake.pdf"].stage == "failed" and "not a PDF" in final["fake.pdf"].message
    assert final["empty.pdf"].stage == "failed" and "empty" in final["empty.pdf"].message
    assert [d.title for d in library.documents()] == ["PX-40 Industrial Pump Datasheet"]


def test_cancelling_while_indexing_keeps_every_stored_file_searchable(library, tmp_path):
    import threading

    for i in range(3):
        (tmp_path / f"n{i}.txt").write_text(f"Note number {i}. " * 50)
    cancel = threading.Event()
    seen = []
    for event in library.import_paths(sorted(tmp_path.glob("n*.txt")), cancel=cancel):
        seen.append(event)
        if event.stage == "ready":
            cancel.set()
    stages = [e.stage for e in seen if e.file]
    # Every file's text was stored before any embedding began; the cancel stopped the meaning index only.
    assert stages.count("searchable") == 3 and stages.index("searchable") < stages.index("embedding")
    assert stages.count("ready") == 1 and stages.count("cancelled") == 2
    assert all("searchable by keyword" in e.message for e in seen if e.stage == "cancelled")
    assert sorted(d.status for d in library.documents()) == ["embedding", "embedding", "ready"]
    assert len(library.store.keyword_search("note number", 10)) == 3


def test_fusion_searches_question_and_generated_queries_and_fuses_by_rrf(library, datasheet, generator):
    list(library.import_paths([datasheet]))
    generator.enqueue("1. PX-40 supply voltage\n2. PX-40 seal replacement hours", "It needs 24 V DC [1] and seals every 2,000 hours [2].")
    question = "What voltage does the PX-40 need and how often are its seals replaced?"
    events, result = run(library.ask(question, "fusion"))
    first_shown = [e for e in events if not isinstance(e, StageStarted)][:2]  # a first look at the quotes, then the queries
    assert isinstance(first_shown[0], EvidenceSelected) and first_shown[0].preliminary and isinstance(first_shown[1], QueriesGenerated)
    assert result.queries == ("PX-40 supply voltage", "PX-40 seal replacement hours")
    assert [lst.query for lst in result.lists if lst.kind == "vector"] == [question, *result.queries]
    k = result.rrf_k
    for source in result.sources:
        assert source.rrf_score == pytest.approx(sum(result.weights[key] / (k + r) for key, r in source.ranks.items()))
    scores = [s.rrf_score for s in result.sources]
    assert scores == sorted(scores, reverse=True)
    assert "".join(e.text for e in events if isinstance(e, Token)) == "It needs 24 V DC [1] and seals every 2,000 hours [2]."
    # [2] is the temperature page: the seals' claim moves to the page that states it, the voltage's stays.
    assert result.answer == "It needs 24 V DC [1] and seals every 2,000 hours [4]." and [c.n for c in result.citations] == [1, 4]
    assert len(result.context) == min(library.settings.top_k, library.store.chunk_count())


def test_plain_rag_searches_the_question_alone_with_the_same_context_size(library, datasheet, generator):
    list(library.import_paths([datasheet]))
    library.settings = library.settings.replace(evidence_tokens=0)  # whole passages, as before evidence selection
    generator.enqueue("The pump runs at 24 V DC [1].")
    _, result = run(library.ask("What supply voltage does the PX-40 pump need?", "rag"))
    assert result.queries == ()
    assert len(result.lists) == 1
    assert len(result.context) == min(library.settings.top_k, library.store.chunk_count())
    assert result.context == result.sources[: len(result.context)]


def test_messy_or_failed_query_generation_falls_back_to_the_question_and_its_key_terms(library, datasheet, generator):
    list(library.import_paths([datasheet]))
    generator.enqueue("Here are 4 search queries:\n", "ok [1]")
    events, result = run(library.ask("What is the maximum pressure?", "fusion"))
    assert result.queries == ("maximum pressure",)
    assert "searched the question and its key terms" in next(e for e in events if isinstance(e, QueriesGenerated)).notice


def test_model_saying_not_found_gives_the_plain_refusal_with_closest_pages(library, datasheet, generator):
    list(library.import_paths([datasheet]))
    generator.enqueue("PX-40 colour", "NOT FOUND")
    events, result = run(library.ask("What colour is the PX-40 housing painted?", "fusion"))
    assert not result.found
    assert result.answer.startswith("Not found in your documents.")
    assert "px40.pdf page" in result.answer
    assert result.citations == ()


def test_nothing_close_enough_is_refused_without_asking_the_model(tmp_path, datasheet, generator):
    # The gate judges the closest sentence the model would read; words hashed into 64 buckets collide with some
    # short sentence of any page, so this fake spreads them over 4,096 as a real model keeps unrelated words apart.
    library = Library(tmp_path / "wide", embedder=HashingEmbedder(dimension=4096), generator=generator)
    try:
        list(library.import_paths([datasheet]))
        _, result = run(library.ask("zebra giraffe savanna", "rag"))
    finally:
        library.close()
    assert not result.found
    assert generator.prompts == []


def test_removing_a_document_removes_it_from_results(library, datasheet, tmp_path, generator):
    other = tmp_path / "other.txt"
    other.write_text("The PX-40 pump voltage is discussed in the datasheet. Pump notes.")
    list(library.import_paths([datasheet, other]))
    doc = library.find_document("px40.pdf")
    library.remove_document(doc.id)
    generator.enqueue("")
    _, result = run(library.ask("PX-40 pump voltage", "rag", generate_answer=False))
    assert result.sources and all(s.passage.file.endswith("other.txt") for s in result.sources)


def test_questions_limited_to_chosen_documents(library, datasheet, tmp_path):
    other = tmp_path / "other.txt"
    other.write_text("The PX-40 pump voltage is discussed in the datasheet. Pump notes.")
    list(library.import_paths([datasheet, other]))
    doc = library.find_document("other.txt")
    _, result = run(library.ask("PX-40 pump voltage", "rag", [doc.id], generate_answer=False))
    assert result.sources and {s.passage.file for s in result.sources} == {doc.path}


def test_a_deleted_index_is_rebuilt_from_sqlite_with_the_same_results(data_home, datasheet):
    lib = Library(data_home, embedder=HashingEmbedder(), generator=ScriptedGenerator())
    list(lib.import_paths([datasheet]))
    _, before = run(lib.ask("maximum operating temperature", "rag", generate_answer=False))
    lib.close()
    lib.index.data_path.unlink()
    again = Library(data_home, embedder=HashingEmbedder(), generator=ScriptedGenerator())
    assert any("rebuilt" in n for n in again.notices)
    _, after = run(again.ask("maximum operating temperature", "rag", generate_answer=False))
    assert [s.passage.chunk_id for s in after.sources] == [s.passage.chunk_id for s in before.sources]


def test_an_index_behind_sqlite_catches_up_on_open(data_home, datasheet, tmp_path):
    lib = Library(data_home, embedder=HashingEmbedder(), generator=ScriptedGenerator())
    list(lib.import_paths([datasheet]))
    saved_path = lib.index.data_path
    saved = saved_path.read_bytes(), (data_home / "chunks.json").read_text()
    other = tmp_path / "later.txt"
    other.write_text("A later note about the seals.")
    list(lib.import_paths([other]))
    lib.close()
    # Simulate a crash after the SQLite commit but before the index was saved.
    saved_path.write_bytes(saved[0])
    (data_home / "chunks.json").write_text(saved[1])
    again = Library(data_home, embedder=HashingEmbedder(), generator=ScriptedGenerator())
    assert again.index.ids() == set(again.store.chunk_ids())


def test_data_folder_is_private(data_home):
    Library(data_home, embedder=HashingEmbedder(), generator=ScriptedGenerator()).close()
    assert data_home.stat().st_mode & 0o077 == 0
