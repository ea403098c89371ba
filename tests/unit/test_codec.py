"""The codec: every result and event survives JSON and back unchanged; older saved chats still open."""

from __future__ import annotations

import dataclasses
import json

from desktop_app.core.codec import event_from_json, event_to_json, result_from_json, result_to_json
from desktop_app.core.events import AnswerDone, EvidenceSelected, QueriesGenerated, QuestionRewritten, SourcesRanked, SqlRan, StageStarted, Token
from desktop_app.core.types import AskResult, ChartSpec, Citation, Passage, Quote, RankedList, SearchHit, Source, SqlResult, Timings


def passage(chunk_id: int, page: int, kind: str = "text", bbox=None) -> Passage:
    return Passage(chunk_id, 7, "/docs/pump.pdf", "Pump manual", page, 10 * chunk_id, 10 * chunk_id + 90, f"text of chunk {chunk_id}", ocr=chunk_id == 3, kind=kind, bbox=bbox)


def full_result() -> AskResult:
    lists = (
        RankedList("max temperature?", "vector", (SearchHit(1, 1, 0.81), SearchHit(2, 2, 0.5)), weight=3.0),
        RankedList("pump: temperature", "vector", (SearchHit(3, 1, 0.7),)),
        RankedList("max temperature?", "keyword", (SearchHit(2, 1, 7.25),), weight=0.5),
    )
    sources = (
        Source(1, passage(1, 2), 1.25, {"max temperature?": 1}, 0.81),
        Source(2, passage(2, 3, "table", (10.0, 20.5, 300.0, 400.25)), 0.9, {"max temperature?": 2, "keyword: max temperature?": 1}, 0.5),
        Source(3, passage(3, 4), 0.33, {"pump: temperature": 1}, 0.42),
    )
    # A reranker put passage 3 first: the model saw it as [1].
    context = (dataclasses.replace(sources[2], n=1), dataclasses.replace(sources[0], n=2))
    citations = (Citation(1, "/docs/pump.pdf", 4, "text of chunk 3", 3, 30, 120, supported=False, ocr=True),)
    return AskResult(
        question="and the max temperature?",
        mode="fusion",
        queries=("pump: temperature",),
        dropped_queries=("weather",),
        lists=lists,
        rrf_k=2.0,
        sources=sources,
        context=context,
        answer="It is 85 °C [1].",
        citations=citations,
        found=True,
        timings=Timings(query_generation=0.8, embedding=0.01, retrieval=0.02, fusion=0.001, first_token=3.5, total=6.0, model_wait=1.5),
        notices=("Citation [1] may not support the sentence that cites it; check the passage.",),
        standalone_question="What is the max temperature of the pump?",
    )


def sql_result() -> AskResult:
    runs = (
        SqlResult("SELECT nope FROM sales", error="no such column: nope", elapsed=0.001),
        SqlResult("SELECT region, sum(total) FROM sales GROUP BY region", ("region", "sum(total)"), (("North", 1200.5), ("South", 99)), 0.004, truncated=True),
    )
    chart = ChartSpec("bar", "region", "sum(total)", ("North", "South"), (1200.5, 99.0))
    base = full_result()
    return dataclasses.replace(base, mode="sql", queries=(), dropped_queries=(), lists=(), sources=(), context=(), citations=(), sql_runs=runs, chart=chart, standalone_question="")


def round_trip(result: AskResult) -> AskResult:
    return result_from_json(json.loads(json.dumps(result_to_json(result))))


def test_a_passage_answer_survives_json_unchanged():
    result = full_result()
    assert round_trip(result) == result


def test_a_table_answer_with_a_retried_query_and_a_chart_survives_json_unchanged():
    result = sql_result()
    assert round_trip(result) == result


def evidence_result() -> AskResult:
    """The model read shortened passages (its chosen sentences) and the user saw quotes before the answer."""
    base = full_result()
    short = dataclasses.replace(base.sources[0].passage, text="chunk 1", start=15, end=22)
    context = (dataclasses.replace(base.sources[0], passage=short),)
    quote = Quote(Citation(1, "/docs/pump.pdf", 2, "chunk 1", 1, 15, 22), 0.61, "pump")
    timings = dataclasses.replace(base.timings, evidence=0.12, first_evidence=1.1)
    return dataclasses.replace(base, context=context, quotes=(quote,), timings=timings)


def test_an_answer_from_chosen_sentences_survives_json_unchanged():
    result = evidence_result()
    assert round_trip(result) == result
    assert result_to_json(result)["quotes"][0]["place"] == "page 2"


def test_every_event_survives_json_unchanged():
    result = full_result()
    stream = [
        QuestionRewritten("and the max temperature?", "What is the max temperature of the pump?"),
        QueriesGenerated(("pump: temperature",), ("weather",), "a notice"),
        SourcesRanked(result.lists, result.sources, result.context),
        EvidenceSelected(evidence_result().quotes, ("Heron Lite",)),
        SqlRan(sql_result().sql_runs[0], 1),
        StageStarted("writing_queries"),
        StageStarted("reading", 5),
        Token("It is "),
        AnswerDone(result),
    ]
    for event in stream:
        assert event_from_json(json.loads(json.dumps(event_to_json(event)))) == event


def test_the_cli_shape_is_kept():
    """Scripts read `ask --json`: the flat per-passage objects, the context as chunk ids, the weights."""
    data = result_to_json(full_result())
    assert data["fused"][1]["rrf_score"] == 0.9 and data["fused"][1]["kind"] == "table" and data["fused"][1]["bbox"] == [10.0, 20.5, 300.0, 400.25]
    assert data["context"] == [3, 1]
    assert data["weights"] == {"max temperature?": 3.0, "pump: temperature": 1.0, "keyword: max temperature?": 0.5}
    assert data["citations"][0]["supported"] is False
    sql = result_to_json(sql_result())
    assert sql["sql"].startswith("SELECT region") and sql["rows"] == [["North", 1200.5], ["South", 99]] and len(sql["sql_attempts"]) == 2


def test_a_chat_saved_before_the_round_trip_fields_still_opens():
    """Saved chats hold the older shape: no lists, no offsets or titles in the fused passages."""
    old = {
        "question": "q", "mode": "fusion", "queries": ["a"], "dropped_queries": [], "rrf_k": 2.0,
        "fused": [{"chunk_id": 5, "file": "/d.pdf", "page": 2, "kind": "text", "bbox": None, "rrf_score": 0.5, "ranks": {"q": 1}, "similarity": 0.6, "text": "t"}],
        "context": [5], "answer": "A [1].", "found": True,
        "citations": [{"n": 1, "file": "/d.pdf", "page": 2, "text": "t", "chunk_id": 5, "start": 0, "end": 1, "supported": True, "ocr": False}],
        "timings": {"total": 1.0}, "notices": [], "standalone_question": "",
    }
    result = result_from_json(old)
    assert result.context[0].passage.chunk_id == 5 and result.context[0].n == 1
    assert result.citations[0].kind == "text" and result.citations[0].bbox is None
    assert result.timings.total == 1.0 and result.timings.first_token == 0.0
    assert result.lists == ()
