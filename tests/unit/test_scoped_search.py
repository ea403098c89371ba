"""Search limited to chosen documents is exact: a small scope's chunks are all found, in both lists."""

from __future__ import annotations

import numpy as np

from desktop_app.core.events import SourcesRanked
from desktop_app.core.library import Library
from desktop_app.core.storage.store import Store
from desktop_app.core.storage.vector_index import IndexState, VectorIndex
from desktop_app.core.types import ChunkDraft, PageText
from tests.fakes import HashingEmbedder, ScriptedGenerator

QUESTION = "Why does the impeller seal leak?"


def add_document(store: Store, embedder: HashingEmbedder, name: str, texts: list[str]) -> int:
    drafts = [ChunkDraft(page=1, start=0, end=len(t), text=t) for t in texts]
    document_id, _, _ = store.save_document(f"/docs/{name}", name, name, [PageText(1, " ".join(texts))], 1, drafts, None)
    ids = sorted(store.chunk_ids_of_documents([document_id]))
    store.set_embeddings(ids, embedder.embed(texts))
    return document_id


def test_a_chosen_document_of_7_chunks_in_a_30000_chunk_library_is_found_whole_in_both_lists(data_home):
    embedder = HashingEmbedder()
    store = Store(data_home / "library.sqlite")
    # 30,000 chunks that match the question far better (short, its words repeated) than the chosen one's.
    strong = "impeller seal leak impeller seal leak"
    for n in range(300):
        add_document(store, embedder, f"manual{n:03}.txt", [f"{strong} unit {n} part {i}" for i in range(100)])
    chosen_texts = [
        f"Chapter {i} of the service manual covers the pump housing, its bolts and gaskets; a worn impeller seal "
        "shows up as a slow leak at the shaft."
        for i in range(7)
    ]
    chosen = add_document(store, embedder, "chosen.txt", chosen_texts)
    assert store.chunk_count() == 30_007
    scope = store.chunk_ids_of_documents([chosen])
    store.close()

    library = Library(data_home, embedder=embedder, generator=ScriptedGenerator())
    try:
        events = list(library.pipeline().search(QUESTION, mode="fusion", allowed_documents=[chosen]))
        lists = next(e for e in events if isinstance(e, SourcesRanked)).lists
        vector = [lst for lst in lists if lst.kind == "vector"]
        keyword = [lst for lst in lists if lst.kind == "keyword"]
        assert vector and keyword
        for ranked in vector + keyword:
            assert {h.chunk_id for h in ranked.hits} == scope, ranked.kind
            assert [h.rank for h in ranked.hits] == list(range(1, 8))
    finally:
        library.close()


def test_the_exact_search_ranks_by_cosine_and_skips_deleted_and_unindexed_chunks(tmp_path):
    rng = np.random.default_rng(1)
    vectors = rng.standard_normal((50, 16)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    index = VectorIndex(tmp_path / "chunks.hnsw", IndexState("test", 16))
    index.load()
    index.add(range(1, 51), vectors)
    index.remove([3])
    query = vectors[9] + 0.1 * vectors[4]
    hits = index.search(query, 20, {3, 5, 10, 99})  # 3 deleted, 99 never indexed
    assert [h.chunk_id for h in hits] == [10, 5]
    expected = vectors[9] @ (query / np.linalg.norm(query))
    assert abs(hits[0].score - expected) < 1e-5
