"""Fusing ranked lists.

Reciprocal rank fusion: score(d) = sum over lists of weight / (k + rank(d)), rank counted from 1.
Interleaving (the alternative issue 4 asks to measure): score(d) = max over lists of weight / rank(d), so
the lists take turns (a list of weight 2 puts its rank-2 hit level with the others' rank-1 hits) and a
passage found by several lists gains nothing from the agreement.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..types import FusedHit, RankedList


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


def interleave(lists: Sequence[RankedList], depth: int | None = None) -> list[FusedHit]:
    """Weighted round-robin over the lists; the score shown is the one that ranked: max weight / rank.

    Ties (the same turn) go to the earlier list: the question's list is first.
    """
    best: dict[int, tuple[float, int]] = {}  # chunk id -> (score, index of the list that gave it)
    ranks: dict[int, dict[str, int]] = {}
    for index, ranked in enumerate(lists):
        hits = ranked.hits if depth is None else ranked.hits[:depth]
        for hit in hits:
            candidate = (ranked.weight / hit.rank, -index)
            if hit.chunk_id not in best or candidate > best[hit.chunk_id]:
                best[hit.chunk_id] = candidate
            per_chunk = ranks.setdefault(hit.chunk_id, {})
            per_chunk[ranked.key] = min(hit.rank, per_chunk.get(ranked.key, hit.rank))
    order = sorted(best, key=lambda cid: (-best[cid][0], -best[cid][1]))
    return [FusedHit(chunk_id=cid, rrf_score=best[cid][0], ranks=dict(ranks[cid])) for cid in order]
