"""The eval harness's metrics, loader and runner on tiny hand-checked examples."""

from __future__ import annotations

import json
import math

import pytest

from desktop_app.evaluation import harness as evaluation
from desktop_app.evaluation.harness import load_beir, mrr_at, ndcg_at, recall_at, score

RELEVANT = {"a": 1, "b": 1}


def test_recall_counts_relevant_documents_found_in_the_top_k():
    ranked = ["x", "a", "y", "z", "w", "b"]
    assert recall_at(ranked, RELEVANT, 5) == 0.5  # only "a" is in the top 5
    assert recall_at(ranked, RELEVANT, 10) == 1.0


def test_mrr_is_the_inverse_rank_of_the_first_relevant_document():
    assert mrr_at(["x", "a", "b"], RELEVANT, 10) == 0.5
    assert mrr_at(["x"] * 10 + ["a"], RELEVANT, 10) == 0.0  # beyond the cut-off


def test_ndcg_by_hand():
    # relevant at ranks 2 and 4: DCG = 1/log2(3) + 1/log2(5); ideal: ranks 1 and 2 = 1 + 1/log2(3)
    expected = (1 / math.log2(3) + 1 / math.log2(5)) / (1 + 1 / math.log2(3))
    assert ndcg_at(["x", "a", "y", "b"], RELEVANT, 10) == pytest.approx(expected)
    assert expected == pytest.approx(0.6509, abs=1e-4)
    assert ndcg_at(["a", "b", "x"], RELEVANT, 10) == pytest.approx(1.0)
    assert ndcg_at(["x", "y"], RELEVANT, 10) == 0.0


def test_ndcg_uses_grades():
    graded = {"a": 2, "b": 1}
    worse_first = ndcg_at(["b", "a"], graded, 10)
    assert worse_first < ndcg_at(["a", "b"], graded, 10) == pytest.approx(1.0)
    assert worse_first == pytest.approx((1 + 2 / math.log2(3)) / (2 + 1 / math.log2(3)))


def test_score_reports_the_four_metrics():
    assert score(["a", "x", "b"], RELEVANT) == {"recall@5": 1.0, "recall@10": 1.0, "mrr@10": 1.0, "ndcg@10": pytest.approx((1 + 0.5) / (1 + 1 / math.log2(3)))}


def _write_beir(folder):
    (folder / "corpus.jsonl").write_text(
        "\n".join(json.dumps(r) for r in [{"_id": "d1", "title": "Oslo", "text": "Oslo is the capital of Norway."}, {"_id": "d2", "title": "", "text": "Bergen is rainy."}])
    )
    (folder / "queries.jsonl").write_text(
        "\n".join(json.dumps(r) for r in [{"_id": "q1", "text": "capital of Norway?"}, {"_id": "q2", "text": "nothing relevant"}])
    )
    (folder / "qrels.tsv").write_text("query-id\tcorpus-id\tscore\nq1\td1\t1\nq1\tmissing\t1\nq2\td2\t0\n")


def test_loader_skips_the_header_unknown_records_and_unscorable_questions(tmp_path):
    _write_beir(tmp_path)
    beir = load_beir(tmp_path)
    assert beir.corpus["d1"] == ("Oslo", "Oslo is the capital of Norway.")
    assert beir.qrels == {"q1": {"d1": 1}}
    assert beir.queries == [("q1", "capital of Norway?")]


def test_loader_names_the_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError, match="qrels.tsv"):
        load_beir(tmp_path)


def test_mode_variants_set_settings_fields():
    spec = evaluation.parse_mode("fusion+rrf_k=60+question_weight=2")
    assert (spec.mode, spec.overrides) == ("fusion", {"rrf_k": 60.0, "question_weight": 2.0})
    with pytest.raises(ValueError, match="unknown setting"):
        evaluation.parse_mode("fusion+nonsense=1")


def test_sample_is_fixed_by_seed_and_keeps_file_order():
    queries = [(str(i), f"q{i}") for i in range(50)]
    first = evaluation.sample_queries(queries, 10, seed=3)
    assert first == evaluation.sample_queries(queries, 10, seed=3)
    assert len(first) == 10 and first == sorted(first, key=lambda q: int(q[0]))
    assert set(first) <= set(evaluation.sample_queries(queries, 20, seed=3))
    assert evaluation.sample_queries(queries, None) == queries


def test_memo_embedder_embeds_each_text_once_and_keeps_order():
    from tests.fakes import HashingEmbedder

    inner = HashingEmbedder()
    memo = evaluation.MemoEmbedder(inner)
    first = memo.embed(["a b", "c"])
    again = memo.embed(["c", "a b"])
    assert inner.calls == 1
    assert (again[0] == first[1]).all() and (again[1] == first[0]).all()


def test_query_cache_replays_a_stream_the_reader_closed_early(tmp_path):
    from desktop_app.evaluation.query_cache import CachedGenerator

    calls = []

    class Model:
        def stream(self, messages, max_tokens, temperature=0.0, stop=()):
            calls.append(messages)
            yield from ["alpha\n", "beta\n", "gamma\n", "never read\n"]

    cache = CachedGenerator(lambda: Model(), tmp_path / "cache.sqlite", "m")
    messages = [{"role": "user", "content": "q"}]

    def read_two():
        pieces = cache.stream(messages, max_tokens=10)
        text = next(pieces) + next(pieces)
        pieces.close()  # the pipeline stops once it has enough queries
        return text

    assert read_two() == "alpha\nbeta\n"
    assert read_two() == "alpha\nbeta\n"
    assert len(calls) == 1 and (cache.hits, cache.misses) == (1, 1)
    assert list(cache.stream(messages, max_tokens=11)) == ["alpha\n", "beta\n", "gamma\n", "never read\n"]  # other args: a miss
    cache.close()


def test_reranked_context_comes_first_in_the_scored_ranking():
    from types import SimpleNamespace

    def source(name):
        return SimpleNamespace(passage=SimpleNamespace(file=f"/x/{name}.txt"), also=())

    fused = [source("a"), source("b"), source("c")]
    result = SimpleNamespace(context=(fused[2], fused[0]), sources=tuple(fused))
    assert evaluation.ranked_records(result, {"a.txt": "A", "b.txt": "B", "c.txt": "C"}) == ["C", "A", "B"]
