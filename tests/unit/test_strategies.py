"""Query strategies besides RAG-Fusion and reranking, with fake models on a real library."""

from __future__ import annotations

import pytest

from desktop_app.core.events import AnswerDone
from desktop_app.core.retrieval.fusion import union
from desktop_app.core.types import RankedList, SearchHit
from desktop_app.sample_datasheet import write_sample_datasheet


@pytest.fixture
def library(empty_library, tmp_path):
    list(empty_library.import_paths([write_sample_datasheet(tmp_path / "px40.pdf")]))
    return empty_library


def result_of(events):
    return [e for e in events if isinstance(e, AnswerDone)][0].result


def test_rewrite_searches_one_rewritten_query_instead_of_the_question(library, generator):
    generator.enqueue("Search query: PX-40 enclosure IP rating", "IP67 [1].")
    result = result_of(library.ask("is it waterproof, the pump?", "rewrite"))
    assert [lst.query for lst in result.lists] == ["PX-40 enclosure IP rating"]
    assert result.queries == ("PX-40 enclosure IP rating",)
    assert result.timings.query_generation > 0


def test_hyde_searches_the_embedding_of_a_hypothetical_passage(library, generator):
    passage = "The PX-40 pump has a maximum operating temperature of 85 degrees Celsius at the coolant inlet."
    generator.enqueue(passage, "85 degrees [1].")
    result = result_of(library.ask("How hot may the coolant get?", "hyde"))
    assert [lst.query for lst in result.lists] == [passage]
    assert result.context[0].passage.page == 3


def test_multi_query_merges_by_union_ordered_by_best_similarity(library, generator):
    library.settings = library.settings.replace(keyword_weight=0.5)
    generator.enqueue("PX-40 supply voltage\nPX-40 seal replacement", "ok [1]")
    result = result_of(library.ask("voltage and seals of the PX-40?", "multi-query"))
    assert len(result.lists) == 3 and all(lst.kind == "vector" for lst in result.lists)
    scores = [s.rrf_score for s in result.sources]
    assert scores == sorted(scores, reverse=True)
    for s in result.sources:
        assert s.rrf_score == pytest.approx(s.similarity)


def test_union_keeps_each_chunk_once_with_its_ranks():
    a = RankedList("a", "vector", (SearchHit(1, 1, 0.9), SearchHit(2, 2, 0.5)))
    b = RankedList("b", "vector", (SearchHit(2, 1, 0.95), SearchHit(3, 2, 0.4)))
    fused = union([a, b])
    assert [f.chunk_id for f in fused] == [2, 1, 3]
    assert fused[0].ranks == {"a": 2, "b": 1}


def test_llm_reranking_moves_the_passages_the_judge_accepts_to_the_front(library, generator):
    library.settings = library.settings.replace(reranker="llm", rerank_candidates=4, top_k=2)
    # rag mode: one search; then 4 judgements (only the 4th passage is relevant), then the answer.
    generator.enqueue("no", "no", "no", "yes", "Answer [1].")
    result = result_of(library.ask("What is the seal kit called?", "rag"))
    assert len(result.context) == 2
    assert result.context[0].passage.chunk_id == result.sources[3].passage.chunk_id
    assert [s.n for s in result.context] == [1, 2]
    judged = [p for p in generator.prompts if "Does the passage help" in p[-1]["content"]]
    assert len(judged) == 4


def test_a_missing_cross_encoder_folder_is_a_clear_error(library, tmp_path):
    library.settings = library.settings.replace(reranker=str(tmp_path / "nope"))
    with pytest.raises(Exception, match="reranker folder"):
        result_of(library.ask("seals?", "rag", generate_answer=False))
