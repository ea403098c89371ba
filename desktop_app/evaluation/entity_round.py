"""A second round of queries: the entities named in the first round's top passages.

A multi-hop question ("the three oldest mills of a valley and their millers") often needs one document
per member of a group the model cannot list from memory. The first round finds the list-like passage;
this round asks the LLM which names in those passages the question is about, and searches each name.
It costs a second LLM call that reads the passages (issue 4: measured on 10 dev questions only, +0.075
Recall@10 for about 7x the query-writing time; not in the app, kept for experiments as the eval variant
`fusion-entity-round`, see variants.py).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.models.llm import Generator
from ..core.retrieval.query_parsing import parse_queries
from ..core.types import Source

ENTITY_SYSTEM = (
    "You read search results and list the specific people, places, organisations, works or things that the "
    "question asks about and that the passages name. Write one name per line, only names found in the passages, "
    "with no numbering and no explanations."
)


def entity_messages(question: str, passages: Sequence[Source], words_each: int) -> list[dict[str, str]]:
    blocks = []
    for number, source in enumerate(passages, start=1):
        words = source.passage.text.split()
        blocks.append(f"[{number}] {' '.join(words[:words_each])}")
    return [
        {"role": "system", "content": ENTITY_SYSTEM},
        # The question comes last so the model answers about it after reading the passages.
        {"role": "user", "content": "Passages:\n" + "\n".join(blocks) + f"\n\nQuestion: {question}\n\nNames the question asks about:"},
    ]


def entity_queries(generator: Generator, question: str, passages: Sequence[Source], known: Sequence[str], limit: int, words_each: int = 80, tokens_each: int = 8) -> list[str]:
    """Up to `limit` names from the passages, skipping what the first round already searched."""
    if not passages or limit <= 0:
        return []
    raw = generator.complete(entity_messages(question, passages, words_each), max_tokens=tokens_each * limit + 8, temperature=0.0)
    names = parse_queries(raw, question, limit + len(known))
    searched = {q.strip().lower() for q in known}
    return [n for n in names if n.strip().lower() not in searched][:limit]
