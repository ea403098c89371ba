"""Research variants of the app's modes: the knobs that lost their measurements, kept for experiments.

None of this is in the app's Settings or its core. Importing this module registers, into the core's registries:
- the research query styles (query_styles.py), and
- named variants, e.g. `fusion-entity-round`, `fusion-interleave`, `fusion-adaptive`, `fusion-names`.

Any mode also takes the knobs inline, as the eval's `--modes` always allowed (with Settings fields beside them):
`fusion+query_style=names+question_weight=2`, `fusion+entity_round=4`, `fusion+fusion_method=interleave`,
`fusion+keyword_source=question`, `fusion+confident_similarity=0.7`, `fusion+extra_query_style=enumerate`.
The numbers behind "lost" are in docs/evaluation.md.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from ..core.clock import StageClock
from ..core.modes import REGISTRY, RRF, UNION, Merge, Mode, Round, mode_named, register_mode
from ..core.pipeline import Pipeline
from ..core.retrieval.query_styles import query_style
from ..core.retrieval.fusion import own_passage_first, reciprocal_rank_fusion
from ..core.retrieval.query_writing import GeneratedQueries
from ..core.types import FusedHit, RankedList
from .entity_round import entity_queries
from .query_styles import RESEARCH_QUERY_STYLES

KEYWORD_SOURCES = ("question", "queries", "both")


def interleave(lists: Sequence[RankedList], depth: int | None = None) -> list[FusedHit]:
    """Weighted round-robin over the lists; the score shown is the one that ranked: max weight / rank.

    The alternative to RRF issue 4 asked to measure: the lists take turns (a list of weight 2 puts its rank-2
    hit level with the others' rank-1 hits) and a passage found by several lists gains nothing from the
    agreement. Ties (the same turn) go to the earlier list: the question's list is first.
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


def query_tops(lists: Sequence[RankedList], k: float, window: int = 10, reserved: int = 5) -> list[FusedHit]:
    """RRF, then the best hit of each generated query's vector list not yet among the first `window` is moved there
    (up to `reserved` of them, in fused order): a name query's own article gets a place in what the model reads."""
    fused = reciprocal_rank_fusion(lists, k)
    tops = {ranked.hits[0].chunk_id for ranked in lists[1:] if ranked.kind == "vector" and ranked.hits}
    head = {h.chunk_id for h in fused[:window]}
    moved = [h for h in fused if h.chunk_id in tops and h.chunk_id not in head][:reserved]
    first = fused[: window - len(moved)] + moved
    return first + [h for h in fused if h not in first]


def question_first(lists: Sequence[RankedList], k: float, agreed: bool = False) -> list[FusedHit]:
    """RRF, then the question's own best passage (its vector list's first hit) put first: a single-hop question's
    answer is usually that passage, and agreeing queries can push it down."""
    fused = reciprocal_rank_fusion(lists, k)
    own = lists[0].hits[0].chunk_id if lists and lists[0].kind == "vector" and lists[0].hits else None
    if agreed:  # only when the question's keyword list has the same passage first
        words = [r for r in lists if r.kind == "keyword" and r.query == lists[0].query and r.hits]
        own = own if words and words[0].hits[0].chunk_id == own else None
    return [h for h in fused if h.chunk_id == own] + [h for h in fused if h.chunk_id != own]


INTERLEAVE = Merge("interleave", lambda lists, settings, own: interleave(lists))
MERGES = {"rrf": RRF, "own-first": mode_named("fusion").merge, "interleave": INTERLEAVE, "query-tops": Merge("query-tops", lambda lists, settings, own: query_tops(lists, settings.rrf_k)),
          # The own passage by cosine alone (before 2026-12-05): the question's vector list's first hit.
          "own-first-cosine": Merge("own-first-cosine", lambda lists, settings, own: own_passage_first(lists, settings.rrf_k)),
          "question-first": Merge("question-first", lambda lists, settings, own: question_first(lists, settings.rrf_k)),
          "question-agreed-first": Merge("question-agreed-first", lambda lists, settings, own: question_first(lists, settings.rrf_k, True))}


@dataclass(frozen=True)
class ResearchMode(Mode):
    keyword_source: str = "both"  # which texts get keyword lists: "question", "queries" or "both"
    # Adaptive fusion: when the question's best passage is at least this similar, no queries are written (0: never).
    confident_similarity: float = 0.0
    # Second round (entity_round.py): up to this many names the LLM finds in the first round's top
    # entity_passages passages are searched too (0: off).
    entity_round: int = 0
    entity_passages: int = 3

    def write_queries(self, pipeline: Pipeline, question: str, searched: str, question_list: RankedList, typed: Sequence[str] | None) -> GeneratedQueries:
        confident = self.confident_similarity > 0 and bool(question_list.hits) and question_list.hits[0].score >= self.confident_similarity
        if self.writes_queries and typed is None and confident:
            return GeneratedQueries((), (), "The question alone found a close match; no extra queries were generated.", "")
        return super().write_queries(pipeline, question, searched, question_list, typed)

    def keyword_texts(self, question: str, queries: Sequence[str]) -> list[str]:
        return {"question": [question], "queries": list(queries), "both": [question, *queries]}[self.keyword_source]

    def second_round(self, pipeline: Pipeline, found: Round, clock: StageClock) -> Round:
        """Search the names the first round's top passages give; the fused list is recomputed with them."""
        if self.entity_round <= 0 or not self.writes_queries or self.merge is UNION or not found.sources or found.typed_queries:
            return found
        with clock.stage("query_generation"):
            known = [found.question, *found.generated.queries]
            named = entity_queries(pipeline.llm(), found.question, found.sources[: self.entity_passages], known, self.entity_round)
        if not named:
            return found
        with clock.stage("embedding"):
            vectors = pipeline.embedder.embed(named)
        with clock.stage("retrieval"):
            lists = (*found.lists, *pipeline.retrieve(named, vectors, found.scope, [1.0] * len(named)))
        with clock.stage("fusion"):
            sources = tuple(pipeline.sources(self.merge.fuse(lists, pipeline.settings, pipeline.own_passage(found.question, lists)), found.question_vector))
        generated = dataclasses.replace(found.generated, queries=found.generated.queries + tuple(named))
        return dataclasses.replace(found, lists=lists, sources=sources, generated=generated)


def _styles(base: Mode, knobs: dict[str, str]) -> tuple[str, ...]:
    if not base.writes_queries:
        raise ValueError(f"mode '{base.name}' writes no queries, so it takes no query style")
    primary = query_style(knobs.get("query_style", base.query_styles[0])).name
    extra = knobs.get("extra_query_style", "")
    # As before the move: the paper's prompt is run alone.
    return (primary, query_style(extra).name) if extra and primary != "naive" else (primary,)


KNOBS = ("query_style", "extra_query_style", "fusion_method", "keyword_source", "confident_similarity", "entity_round", "entity_passages")


def variant(name: str, base: str, knobs: dict[str, str]) -> Mode:
    """Register (and return) `base` with research knobs turned, under `name`."""
    mode = mode_named(base)
    fields = {f.name: getattr(mode, f.name) for f in dataclasses.fields(Mode)}
    fields["name"] = name
    if "query_style" in knobs or "extra_query_style" in knobs:
        fields["query_styles"] = _styles(mode, knobs)
    if "fusion_method" in knobs:
        if knobs["fusion_method"] not in MERGES:
            raise ValueError(f"fusion_method must be one of {', '.join(MERGES)}")
        fields["merge"] = MERGES[knobs["fusion_method"]]
    if knobs.get("keyword_source", "both") not in KEYWORD_SOURCES:
        raise ValueError(f"keyword_source must be one of {', '.join(KEYWORD_SOURCES)}")
    research = {k: knobs[k] for k in ("keyword_source",) if k in knobs}
    research |= {k: float(knobs[k]) for k in ("confident_similarity",) if k in knobs}
    research |= {k: int(knobs[k]) for k in ("entity_round", "entity_passages") if k in knobs}
    return register_mode(ResearchMode(**fields, **research))


# The named variants (what each lost by: docs/evaluation.md).
NAMED_VARIANTS = {
    "fusion-entity-round": {"entity_round": "4", "entity_passages": "3"},  # 10 dev questions only: too few to decide
    "fusion-interleave": {"fusion_method": "interleave"},  # dev nDCG@10 -0.016 vs RRF, FAQ unchanged
    "fusion-query-tops": {"fusion_method": "query-tops"},  # dev tune R@10 +0.018 [-0.003, +0.043], FAQ tune unchanged
    "fusion-adaptive": {"confident_similarity": "0.7"},  # swept 0.6-0.75: lower dev recall and FAQ nDCG
    "fusion-question-keywords": {"keyword_source": "question"},  # same recall, nDCG@10 -0.011
    **{f"fusion-{style.name}": {"query_style": style.name} for style in RESEARCH_QUERY_STYLES},  # lost to the default query style
}
for _name, _knobs in NAMED_VARIANTS.items():
    if _name not in REGISTRY:
        variant(_name, "fusion", _knobs)
