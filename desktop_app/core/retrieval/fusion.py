"""Merging ranked lists into one.

Reciprocal rank fusion: score(d) = sum over lists of weight / (k + rank(d)), rank counted from 1; fusion mode puts the
question's own nearest passage first when its queries name one thing or none.
Union (the multi-query mode): every hit once, ordered by its best cosine similarity.
(Interleaving, measured for issue 4 and lost, lives with the eval harness: desktop_app/evaluation/variants.py.)
"""

from __future__ import annotations

from collections.abc import Sequence

from ..types import FusedHit, RankedList
from ..name_facts import names_of


def reciprocal_rank_fusion(lists: Sequence[RankedList], k: float = 60.0, depth: int | None = None) -> list[FusedHit]:
    """Fuse ranked lists by chunk id (never by text). Ties keep the order in which hits were first seen.

    `depth` limits how many hits of each list take part (None: all).
    """
    if k < 0:
        raise ValueError("RRF k must be >= 0")
    scores: dict[int, float] = {}
    ranks: dict[int, dict[str, int]] = {}
    for ranked in lists:
        hits = ranked.hits if depth is None else ranked.hits[:depth]
        for hit in hits:
            scores[hit.chunk_id] = scores.get(hit.chunk_id, 0.0) + ranked.weight / (k + hit.rank)
            # A list could name a chunk twice; its best rank is the one that counts for display.
            per_chunk = ranks.setdefault(hit.chunk_id, {})
            per_chunk[ranked.key] = min(hit.rank, per_chunk.get(ranked.key, hit.rank))
    order = sorted(scores, key=lambda cid: -scores[cid])  # sorted() is stable: first seen wins ties
    return [FusedHit(chunk_id=cid, rrf_score=scores[cid], ranks=dict(ranks[cid])) for cid in order]


def own_passage_first(lists: Sequence[RankedList], k: float, own: int | None = None) -> list[FusedHit]:
    """RRF, then, when the generated queries name one thing or none, the question's own passage first (`lists[0]` is the
    question's vector list; `own` one of its hits, chosen by the pipeline with the question's words, its first when None).
    Queries that agree on another passage could push the answer of a question about one thing to second place
    (single-hop nDCG@10 under plain search's); a question naming several things (a name query that another query extends
    by its fact: "Kestrel Nano", "Kestrel Nano battery life") needs the fused order (docs/evaluation.md)."""
    fused = reciprocal_rank_fusion(lists, k)
    names = set(names_of([ranked.query for ranked in lists[1:]]))
    if len(names) > 1 or not lists or lists[0].kind != "vector" or not lists[0].hits:
        return fused
    own = lists[0].hits[0].chunk_id if own is None else own
    return [h for h in fused if h.chunk_id == own] + [h for h in fused if h.chunk_id != own]


def union(lists: Sequence[RankedList]) -> list[FusedHit]:
    """Multi-query union: every hit of every list once, ordered by its best similarity (score = that similarity)."""
    best: dict[int, float] = {}
    ranks: dict[int, dict[str, int]] = {}
    for ranked in lists:
        for hit in ranked.hits:
            best[hit.chunk_id] = max(best.get(hit.chunk_id, float("-inf")), hit.score)
            ranks.setdefault(hit.chunk_id, {})[ranked.key] = hit.rank
    order = sorted(best, key=lambda cid: -best[cid])
    return [FusedHit(chunk_id=cid, rrf_score=best[cid], ranks=ranks[cid]) for cid in order]
