"""AskResult as plain JSON (the CLI's --json, saved chat messages, the eval harness)."""

from __future__ import annotations

import dataclasses
from typing import Any

from .types import AskResult


def result_to_json(result: AskResult) -> dict[str, Any]:
    out: dict[str, Any] = {
        "question": result.question,
        "mode": result.mode,
        "queries": list(result.queries),
        "dropped_queries": list(result.dropped_queries),
        "rrf_k": result.rrf_k,
        "fused": [
            {
                "chunk_id": s.passage.chunk_id,
                "file": s.passage.file,
                "page": s.passage.page,
                "kind": s.passage.kind,
                "bbox": list(s.passage.bbox) if s.passage.bbox else None,
                "rrf_score": s.rrf_score,
                "ranks": dict(s.ranks),
                "similarity": s.similarity,
                "text": s.passage.text,
            }
            for s in result.sources
        ],
        "context": [s.passage.chunk_id for s in result.context],
        "answer": result.answer,
        "found": result.found,
        "citations": [
            {
                "n": c.n, "file": c.file, "page": c.page, "text": c.text,
                "chunk_id": c.chunk_id, "start": c.start, "end": c.end, "supported": c.supported, "ocr": c.ocr,
                "kind": c.kind, "bbox": list(c.bbox) if c.bbox else None,
            }
            for c in result.citations
        ],
        "timings": dataclasses.asdict(result.timings),
        "notices": list(result.notices),
        "standalone_question": result.standalone_question,
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
            chart=dataclasses.asdict(result.chart) if result.chart else None,
        )
    weights = result.weights
    if any(w != 1.0 for w in weights.values()):
        out["weights"] = weights
    return out

