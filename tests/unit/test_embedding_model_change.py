"""Switching the embedding model re-embeds the library in the background; keyword search finds it meanwhile."""

from __future__ import annotations

import numpy as np

from desktop_app.core.events import AnswerDone
from desktop_app.core.library import Library
from tests.document_files import write_text_files
from tests.fakes import HashingEmbedder, ScriptedGenerator
from tests.reliability.conftest import assert_index_matches_sqlite


def write_notes(folder, count):
    return write_text_files(folder, "note", [f"Note {n}: the coolant valve {n} is checked every {n + 3} days by the night shift." for n in range(count)])


def found_files(library: Library, question: str) -> set[str]:
    result = next(e for e in library.pipeline().search(question, mode="rag") if isinstance(e, AnswerDone)).result
    return {s.passage.file for s in result.sources}


def test_a_new_embedding_model_re_embeds_every_chunk_and_keyword_search_works_meanwhile(data_home, tmp_path):
    first = Library(data_home, embedder=HashingEmbedder("model-a", 64), generator=ScriptedGenerator())
    files = write_notes(tmp_path / "docs", 5)
    list(first.import_paths(files))
    chunks = first.store.chunk_count()
    first.close()

    other = HashingEmbedder("model-b", 32)
    library = Library(data_home, embedder=other, generator=ScriptedGenerator())
    assert any("model-b" in n and "indexed again" in n for n in library.notices), library.notices
    # Nothing made by model-a is searched with model-b's vectors: every chunk waits for its new vector.
    assert library.store.pending_count() == chunks and len(library.index) == 0
    assert all(d.status == "embedding" for d in library.documents())
    assert str(files[2]) in found_files(library, "coolant valve 2")  # by keyword meanwhile

    progress = list(library.import_paths([]))  # what the window runs in the background at open ("finish indexing")
    assert [e.file for e in progress if e.stage == "ready"] and any(e.stage == "embedding" and e.total for e in progress)
    assert library.store.pending_count() == 0 and all(d.status == "ready" for d in library.documents())
    vectors = library.store.embeddings_of(library.store.chunk_ids())
    texts = {cid: p.text for cid, p in library.store.passages(vectors).items()}
    for chunk_id, vector in vectors.items():
        assert np.allclose(vector, other.embed([texts[chunk_id]])[0])  # model-b's vector, not model-a's
    assert_index_matches_sqlite(library)
    library.close()

    again = Library(data_home, embedder=HashingEmbedder("model-b", 32), generator=ScriptedGenerator())
    assert not again.notices and again.store.pending_count() == 0 and len(again.index) == chunks
    again.close()


def test_a_library_from_before_the_record_adopts_the_model_its_index_names(data_home, tmp_path):
    first = Library(data_home, embedder=HashingEmbedder("model-a", 64), generator=ScriptedGenerator())
    list(first.import_paths(write_notes(tmp_path / "docs", 2)))
    first.store.conn.execute("DELETE FROM meta WHERE key = 'embedding_model'")
    first.store.conn.commit()
    first.close()
    same = Library(data_home, embedder=HashingEmbedder("model-a", 64), generator=ScriptedGenerator())
    assert not same.notices and same.store.pending_count() == 0
    same.close()
