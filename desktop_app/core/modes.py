"""The modes a question can be asked in: each a small strategy object, chosen by name from one registry.

A mode says
- what is searched: the question alone (rag); the question plus the queries the model writes in the mode's
  query styles (fusion, naive-fusion, multi-query); or one text the model writes instead of the question
  (rewrite: a search query; hyde: a hypothetical passage);
- which lists join: a vector list per searched text, and FTS5 keyword lists for the question and each query
  (fusion);
- how the lists merge: reciprocal rank fusion, or union by best similarity (multi-query);
- which settings it always runs with (naive-fusion: the paper's recipe, whatever the user chose).
The "sql" mode leaves passages for the CSV/Excel tables (core/sql/table_answers.py decides, by the mode's name
and the documents in scope, as before).

The pipeline (pipeline.py) runs the same stages for every mode and asks the mode at each step. This module
sits beside it rather than in retrieval/ because a mode chooses among all the stages (SQL leaves retrieval
altogether). The eval harness registers its research variants here (desktop_app/evaluation/variants.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from .models.llm import Generator
from .registry import Registry
from .retrieval.fusion import own_passage_first, reciprocal_rank_fusion, union
from .retrieval.query_styles import DEFAULT_QUERY_STYLE
from .retrieval.query_writing import NO_GENERATED_QUERIES, GeneratedQueries
from .retrieval.scope import Scope
from .retrieval.strategies import hypothetical_passage, rewrite_query
from .settings import MODES, Settings
from .types import FusedHit, RankedList, Source

if TYPE_CHECKING:
    from .clock import StageClock
    from .pipeline import Pipeline


@dataclass(frozen=True)
class Merge:
    name: str
    # The lists, the settings, and the question's own passage (Pipeline.own_passage; None: its list's first hit).
    fuse: Callable[[Sequence[RankedList], Settings, int | None], list[FusedHit]]
    # False: the merge orders by cosine similarity, which keyword (bm25) scores do not share.
    takes_keyword_lists: bool = True


RRF = Merge("rrf", lambda lists, settings, own: reciprocal_rank_fusion(lists, settings.rrf_k))
OWN_FIRST = Merge("rrf, own passage first", lambda lists, settings, own: own_passage_first(lists, settings.rrf_k, own))
UNION = Merge("union", lambda lists, settings, own: union(lists), takes_keyword_lists=False)


@dataclass(frozen=True)
class Round:
    """What a round of searching found: the lists, the passages they fused into, and the queries searched."""

    question: str
    question_vector: np.ndarray  # one row, or one per language it was searched in (the documents' too: retrieval/search.closeness)
    scope: Scope  # the documents and pages searched
    generated: GeneratedQueries
    lists: tuple[RankedList, ...]
    sources: tuple[Source, ...]
    typed_queries: bool  # the queries were typed by the user (the panel's edited list), not generated


@dataclass(frozen=True)
class Mode:
    name: str
    query_styles: tuple[str, ...] = ()  # the prompts whose queries are searched besides the question
    search_instead: Callable[[Generator, str], str] | None = None  # the model writes the one text searched
    keyword_lists: bool = False  # FTS5 keyword lists join, at the keyword weight
    merge: Merge = RRF
    settings: Mapping[str, object] = field(default_factory=dict)  # what this mode always runs with

    @property
    def writes_queries(self) -> bool:
        return bool(self.query_styles)

    def settings_for(self, settings: Settings) -> Settings:
        return settings.replace(**self.settings) if self.settings else settings

    def question_weight(self, settings: Settings) -> float:
        """The question's list weighs more than one generated query's; alone, it weighs 1."""
        return settings.question_weight if self.writes_queries else 1.0

    def search_text(self, generator: Callable[[], Generator], question: str) -> str:
        return self.search_instead(generator(), question) if self.search_instead else question

    def write_queries(self, pipeline: Pipeline, question: str, searched: str, question_list: RankedList, typed: Sequence[str] | None) -> GeneratedQueries:
        """The queries shown (and, for query-writing modes, searched) besides the question."""
        if self.search_instead is not None:
            return GeneratedQueries((searched,), (), None, "")
        if not self.writes_queries:
            return NO_GENERATED_QUERIES
        if typed is not None:  # the panel's edited list is searched as given
            return GeneratedQueries(tuple(q for q in typed if q.strip()), (), None, "")
        return pipeline.generate_queries(question, styles=self.query_styles)

    def adds_keyword_lists(self, settings: Settings) -> bool:
        return self.keyword_lists and settings.keyword_weight > 0 and self.merge.takes_keyword_lists

    def keyword_texts(self, question: str, queries: Sequence[str]) -> list[str]:
        return [question, *queries]

    def second_round(self, pipeline: Pipeline, found: Round, clock: StageClock) -> Round:
        """A further search after the first fusion; none in the app's modes (the eval harness tries one)."""
        return found


# RAG-Fusion as the paper describes it: 4 related queries, the question plus them, RRF k = 60, nothing else.
NAIVE_FUSION_SETTINGS = dict(n_queries=4, max_queries=4, rrf_k=60.0, question_weight=1.0, drift_guard=0.0, keyword_weight=0.0)

REGISTRY: Registry[Mode] = Registry("mode")
register_mode = REGISTRY.add
mode_named = REGISTRY.__getitem__

for _mode in (
    Mode("fusion", query_styles=(DEFAULT_QUERY_STYLE,), keyword_lists=True, merge=OWN_FIRST),
    Mode("rag"),
    Mode("naive-fusion", query_styles=("naive",), settings=NAIVE_FUSION_SETTINGS),
    Mode("multi-query", query_styles=(DEFAULT_QUERY_STYLE,), merge=UNION),
    Mode("rewrite", search_instead=rewrite_query),
    Mode("hyde", search_instead=hypothetical_passage),
    Mode("sql"),  # the pipeline hands it to core/sql/table_answers.py (without a table store it searches like rag)
):
    register_mode(_mode)
assert set(MODES) <= set(REGISTRY), "every mode a user can choose is registered"
