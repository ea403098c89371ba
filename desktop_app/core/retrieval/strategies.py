"""Query strategies besides RAG-Fusion (from the LangChain chapter), each producing what gets searched.

- rewrite (rewrite-retrieve-read): the LLM rewrites the question into one search query; only it is searched.
- multi-query: the same generated queries as fusion, but the lists are merged by plain union (best similarity
  first), without reciprocal rank fusion.
- hyde: the LLM writes a hypothetical passage that would answer the question; its embedding is searched.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..models.llm import Generator
from ..types import FusedHit, RankedList
from .query_parsing import clean_line

_LABEL = re.compile(r"^(search query|query|rewritten query|rewritten question)\s*:\s*", re.IGNORECASE)

REWRITE_SYSTEM = (
    "Rewrite the user's question into one short search query (3 to 10 words) for a search engine over their "
    "documents. Keep names, numbers and technical terms. Reply with the query only."
)
HYDE_SYSTEM = (
    "Write a short passage (two to four sentences) that could appear in a document and that answers the user's "
    "question. Invent plausible details if you must; write only the passage."
)


def rewrite_query(generator: Generator, question: str) -> str:
    raw = generator.complete(
        [{"role": "system", "content": REWRITE_SYSTEM}, {"role": "user", "content": question}], max_tokens=32, temperature=0.0
    )
    for line in raw.splitlines():
        line = _LABEL.sub("", clean_line(line)).strip()
        if line and not line.endswith(":"):
            return line
    return question


def hypothetical_passage(generator: Generator, question: str) -> str:
    raw = generator.complete(
        [{"role": "system", "content": HYDE_SYSTEM}, {"role": "user", "content": question}], max_tokens=120, temperature=0.0
    )
    text = " ".join(raw.split())
    return text or question


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
