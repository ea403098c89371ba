"""Texts the LLM writes to be searched instead of the question (from the LangChain chapter).

- rewrite (rewrite-retrieve-read): the LLM rewrites the question into one search query; only it is searched.
- hyde: the LLM writes a hypothetical passage that would answer the question; its embedding is searched.
"""

from __future__ import annotations

import re

from ..models.llm import Generator
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
