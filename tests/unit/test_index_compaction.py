"""The index does not only grow: once deleted labels hold more than a quarter of it, it is rebuilt from SQLite."""

from __future__ import annotations

import threading

from desktop_app.core.library import COMPACT_SHARE, Library
from tests.document_files import write_text_files
from tests.fakes import HashingEmbedder, ScriptedGenerator
from tests.reliability.conftest import assert_index_matches_sqlite


def write_notes(folder, count, version):
    return write_text_files(folder, "note", [f"Note {n}, revision {version}: the coolant valve {n} is checked every {n + version} days." for n in range(count)])


def slots(library: Library) -> int:
    return library.index._index.element_count  # live and deleted labels: what the file holds


def test_re_imports_and_removals_do_not_grow_the_index_for_ever(data_home, tmp_path):
    library = Library(data_home, embedder=HashingEmbedder(), generator=ScriptedGenerator())
    docs = tmp_path / "docs"
    list(library.import_paths(write_notes(docs, 12, 1)))
    live = len(library.index)
    for version in range(2, 8):  # every re-import gives each chunk a fresh id and deletes the old label
        list(library.import_paths(write_notes(docs, 12, version)))
        assert library.index.deleted_share() <= COMPACT_SHARE
        assert_index_matches_sqlite(library)
    assert slots(library) < 2 * live  # without compaction: 7 * live slots, 6/7 of them dead

    for doc in library.documents()[:6]:
        library.remove_document(doc.id)
    assert library.index.deleted_share() <= COMPACT_SHARE
    assert_index_matches_sqlite(library)
    hits = library.index.search(library.embedder.embed(["coolant valve 9 checked"])[0], 3)
    assert hits and library.passage(hits[0].chunk_id).text.startswith("Note 9, revision 7")
    library.close()

    again = Library(data_home, embedder=HashingEmbedder(), generator=ScriptedGenerator())  # the compacted file reloads
    assert not again.notices and len(again.index) == 6 and again.index.deleted_share() <= COMPACT_SHARE
    assert_index_matches_sqlite(again)
    again.close()


def test_questions_are_answered_while_the_new_index_is_built(data_home, tmp_path):
    library = Library(data_home, embedder=HashingEmbedder(), generator=ScriptedGenerator())
    list(library.import_paths(write_notes(tmp_path / "docs", 8, 1)))
    vector = library.embedder.embed(["coolant valve 3"])[0]
    answered = threading.Event()
    batches = library.store.embeddings

    def embeddings_while_a_question_runs(*args, **kwargs):
        # Mid-build, another thread searches the index in use: it must not wait for the build to finish.
        asker = threading.Thread(target=lambda: library.index.search(vector, 3) and answered.set())
        asker.start()
        asker.join(timeout=30)
        yield from batches(*args, **kwargs)

    library.store.embeddings = embeddings_while_a_question_runs
    assert library.compact_index(force=True)
    assert answered.is_set(), "a question waited for the index rebuild"
    assert_index_matches_sqlite(library)
    library.close()
