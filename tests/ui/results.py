"""Typed answers for the window's widget tests, built as the engine builds them."""

from __future__ import annotations

from collections.abc import Sequence

from desktop_app.core.retrieval.fusion import reciprocal_rank_fusion
from desktop_app.core.types import AskResult, Citation, Passage, RankedList, Source, Timings


def passage(chunk_id: int, file: str, page: int, text: str, kind: str = "text") -> Passage:
    return Passage(chunk_id, 1, file, "A datasheet", page, 0, len(text), text, kind=kind)


def fused_sources(lists: Sequence[RankedList], passages: dict[int, Passage], k: float = 60.0) -> tuple[Source, ...]:
    """The fused list the pipeline would make of these ranked lists: real RRF scores and ranks."""
    fused = reciprocal_rank_fusion(lists, k)
    return tuple(Source(n, passages[hit.chunk_id], hit.rrf_score, hit.ranks, 0.5) for n, hit in enumerate(fused, 1))


def ask_result(
    question: str = "q",
    mode: str = "fusion",
    queries: Sequence[str] = (),
    sources: Sequence[Source] = (),
    citations: Sequence[Citation] = (),
    total_s: float = 0.0,
    notices: Sequence[str] = (),
    lists: Sequence[RankedList] = (),
    rrf_k: float = 60.0,
) -> AskResult:
    return AskResult(
        question=question,
        mode=mode,
        queries=tuple(queries),
        dropped_queries=(),
        lists=tuple(lists),
        rrf_k=rrf_k,
        sources=tuple(sources),
        context=tuple(sources),
        answer="",
        citations=tuple(citations),
        found=True,
        timings=Timings(total=total_s),
        notices=tuple(notices),
    )
