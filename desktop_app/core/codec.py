"""The one codec between typed results and JSON: the CLI's --json, saved chat messages, the panels, the eval harness.

Every result type is a frozen dataclass. A generic converter walks their type hints (nested dataclasses,
`tuple[X, ...]`, `dict[str, X]`, `X | None`), so a field added to a type is encoded and decoded without
touching this file; decoding fills a missing key with the field's default, so chats saved by an older
version still open. An AskResult keeps the JSON shape the CLI has always printed ("fused": one flat
object per passage, "context": the chunk ids given to the model, the final SQL query flattened) so scripts
that read `ask --json` keep working; what the flat shape leaves out for a lossless round trip ("lists",
each passage's offsets) is added beside it.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from typing import Any

from . import events
from .events import AskEvent
from .places import place_of
from .types import AskResult, ChartSpec, Citation, Location, Passage, QuestionFilters, Quote, RankedList, SearchHit, Source, SqlResult, Timings

# -- generic: any frozen dataclass <-> JSON-ready values ---------------------------------------------


def to_json(value: Any) -> Any:
    """Dataclasses become dicts, tuples become lists; everything else must already be JSON (str, numbers, None)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (tuple, list)):
        return [to_json(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_json(v) for k, v in value.items()}
    return value


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def from_json(kind: Any, data: Any) -> Any:
    """The inverse of `to_json`, guided by the type `kind` (a dataclass or a typing expression)."""
    origin = typing.get_origin(kind)
    if origin in (typing.Union, types.UnionType):
        options = [a for a in typing.get_args(kind) if a is not type(None)]
        if data is None:
            return None
        if len(options) == 1:
            return from_json(options[0], data)
        raise TypeError(f"cannot decode an untagged union {kind}")
    if dataclasses.is_dataclass(kind):
        hints = _hints(kind)
        values = {}
        for f in dataclasses.fields(kind):
            if f.name in data:
                values[f.name] = from_json(hints[f.name], data[f.name])
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise ValueError(f"{kind.__name__} needs '{f.name}'")
        return kind(**values)
    if origin is tuple:
        args = typing.get_args(kind)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_json(args[0], v) for v in data)
        return tuple(from_json(a, v) for a, v in zip(args, data))
    if origin is list:
        return [from_json(typing.get_args(kind)[0], v) for v in data]
    if origin is dict:
        key, value = typing.get_args(kind)
        return {from_json(key, k): from_json(value, v) for k, v in data.items()}
    if kind is float and isinstance(data, int):
        return float(data)
    return data


# -- AskResult: the shape `ask --json` has always had, plus what a round trip needs -------------------


def _passage_json(source: Source) -> dict[str, Any]:
    p = source.passage
    return {
        "chunk_id": p.chunk_id,
        "file": p.file,
        "page": p.page,
        "kind": p.kind,
        "section": p.section,  # Word and HTML: the heading it sits under (then "page" numbers the sections)
        "place": place_of(p),  # as every view names it: "page 3", "section 3.2 Warranty"
        "bbox": list(p.bbox) if p.bbox else None,
        "rrf_score": source.rrf_score,
        "ranks": dict(source.ranks),
        "similarity": source.similarity,
        "text": p.text,
        # Not in the first versions of this shape; needed to rebuild the Source exactly.
        "n": source.n,
        "document_id": p.document_id,
        "title": p.title,
        "start": p.start,
        "end": p.end,
        "ocr": p.ocr,
        "also": [to_json(place) for place in source.also],  # the same text's other places
    }


def _source_from_json(data: dict[str, Any], position: int) -> Source:
    bbox = data.get("bbox")
    passage = Passage(
        chunk_id=data["chunk_id"],
        document_id=data.get("document_id", 0),
        file=data["file"],
        title=data.get("title", ""),
        page=data["page"],
        start=data.get("start", 0),
        end=data.get("end", 0),
        text=data["text"],
        ocr=data.get("ocr", False),
        kind=data.get("kind", "text"),
        bbox=tuple(bbox) if bbox else None,
        section=data.get("section"),
    )
    also = tuple(from_json(Location, place) for place in data.get("also", []))
    return Source(data.get("n", position), passage, float(data["rrf_score"]), dict(data.get("ranks", {})), float(data.get("similarity", 0.0)), also)


def _list_json(ranked: RankedList) -> dict[str, Any]:
    return {"query": ranked.query, "kind": ranked.kind, "weight": ranked.weight, "hits": [[h.chunk_id, h.rank, h.score] for h in ranked.hits]}


def _list_from_json(data: dict[str, Any]) -> RankedList:
    hits = tuple(SearchHit(int(c), int(r), float(s)) for c, r, s in data.get("hits", []))
    return RankedList(data["query"], data["kind"], hits, float(data.get("weight", 1.0)))


def result_to_json(result: AskResult) -> dict[str, Any]:
    out: dict[str, Any] = {
        "question": result.question,
        "mode": result.mode,
        "queries": list(result.queries),
        "dropped_queries": list(result.dropped_queries),
        "rrf_k": result.rrf_k,
        "fused": [_passage_json(s) for s in result.sources],
        "context": [s.passage.chunk_id for s in result.context],
        "answer": result.answer,
        "found": result.found,
        "citations": [{**to_json(c), "place": place_of(c)} for c in result.citations],
        "timings": to_json(result.timings),
        "notices": list(result.notices),
        "standalone_question": result.standalone_question,
        "lists": [_list_json(lst) for lst in result.lists],
    }
    if result.sql_runs:
        final = result.sql_runs[-1]
        out.update(
            sql=final.sql,
            columns=list(final.columns),
            rows=[list(r) for r in final.rows],
            sql_error=final.error,
            sql_elapsed=final.elapsed,
            rows_truncated=final.truncated,
            sql_attempts=[{"sql": r.sql, "error": r.error, "elapsed": r.elapsed} for r in result.sql_runs],
            chart=to_json(result.chart) if result.chart else None,
        )
    if result.filters is not None:
        out["filters"] = to_json(result.filters)
    if result.quotes:
        out["quotes"] = [{**to_json(q), "place": place_of(q.citation)} for q in result.quotes]
    by_chunk = {s.passage.chunk_id: s.passage for s in result.sources}
    if any(by_chunk.get(s.passage.chunk_id) != s.passage for s in result.context):
        # The model read shortened passages (its chosen sentences): keep what it read, for citations and checks.
        out["context_passages"] = [_passage_json(s) for s in result.context]
    weights = result.weights
    if any(w != 1.0 for w in weights.values()):
        out["weights"] = weights
    return out


def result_from_json(data: dict[str, Any]) -> AskResult:
    sources = tuple(_source_from_json(s, i) for i, s in enumerate(data.get("fused", []), start=1))
    by_chunk = {s.passage.chunk_id: s for s in sources}
    # The model's passages are numbered [1]..[n] in context order (a reranker may have reordered them).
    context = tuple(dataclasses.replace(by_chunk[c], n=i) for i, c in enumerate(data.get("context", []), start=1) if c in by_chunk)
    if data.get("context_passages"):
        context = tuple(_source_from_json(s, i) for i, s in enumerate(data["context_passages"], start=1))
    sql_runs: tuple[SqlResult, ...] = ()
    if data.get("sql") is not None or data.get("sql_attempts"):
        attempts = data.get("sql_attempts") or [{"sql": data.get("sql", ""), "error": data.get("sql_error", ""), "elapsed": data.get("sql_elapsed", 0.0)}]
        earlier = tuple(SqlResult(a["sql"], error=a.get("error", ""), elapsed=float(a.get("elapsed", 0.0))) for a in attempts[:-1])
        final = SqlResult(
            data.get("sql", attempts[-1]["sql"]),
            columns=tuple(data.get("columns", ())),
            rows=tuple(tuple(r) for r in data.get("rows", ())),
            elapsed=float(data.get("sql_elapsed", 0.0)),
            error=data.get("sql_error", ""),
            truncated=bool(data.get("rows_truncated", False)),
        )
        sql_runs = (*earlier, final)
    lists = tuple(_list_from_json(lst) for lst in data.get("lists", []))
    return AskResult(
        question=data["question"],
        mode=data.get("mode", ""),
        queries=tuple(data.get("queries", ())),
        dropped_queries=tuple(data.get("dropped_queries", ())),
        lists=lists,
        rrf_k=float(data.get("rrf_k", 0.0)),
        sources=sources,
        context=context,
        answer=data.get("answer", ""),
        citations=from_json(tuple[Citation, ...], data.get("citations", [])),
        found=bool(data.get("found", True)),
        timings=from_json(Timings, data.get("timings") or {}),
        notices=tuple(data.get("notices", ())),
        standalone_question=data.get("standalone_question", ""),
        sql_runs=sql_runs,
        chart=from_json(ChartSpec, data["chart"]) if data.get("chart") else None,
        quotes=tuple(from_json(Quote, {k: v for k, v in q.items() if k != "place"}) for q in data.get("quotes", ())),
        filters=from_json(QuestionFilters, data["filters"]) if data.get("filters") else None,
    )


# -- events: {"event": "token", ...} ------------------------------------------------------------------

_EVENT_NAMES: dict[type, str] = {
    events.QuestionRewritten: "question_rewritten",
    events.FiltersRead: "filters_read",
    events.QueriesGenerated: "queries_generated",
    events.SourcesRanked: "sources_ranked",
    events.EvidenceSelected: "evidence_selected",
    events.SqlRan: "sql_ran",
    events.Token: "token",
    events.AnswerDone: "answer_done",
    events.StageStarted: "stage_started",
}
_EVENT_TYPES = {name: kind for kind, name in _EVENT_NAMES.items()}


def event_to_json(event: AskEvent) -> dict[str, Any]:
    name = _EVENT_NAMES[type(event)]
    if isinstance(event, events.AnswerDone):
        return {"event": name, "result": result_to_json(event.result)}
    return {"event": name, **to_json(event)}


def event_from_json(data: dict[str, Any]) -> AskEvent:
    kind = _EVENT_TYPES[data["event"]]
    if kind is events.AnswerDone:
        return events.AnswerDone(result_from_json(data["result"]))
    return from_json(kind, {k: v for k, v in data.items() if k != "event"})
