"""Reranking the fused top passages: keep the few a judge finds most relevant.

The "advanced RAG" recipe over-retrieves and keeps the best 3 by a cross-encoder. No cross-encoder weights
ship on PyPI here, so two judges are offered: a sentence-transformers CrossEncoder model folder the user
points to, or the local LLM itself scoring each passage by the probability that it answers "yes".
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from .types import Source

JUDGE_SYSTEM = "You judge whether a passage helps answer a question. Reply with yes or no only."


class Reranker(Protocol):
    def scores(self, question: str, passages: Sequence[str]) -> list[float]:
        ...


def rerank(reranker: Reranker, question: str, sources: Sequence[Source], keep: int) -> list[Source]:
    """The `keep` best sources by the judge's score, renumbered 1..keep (ties keep the fused order)."""
    if not sources:
        return []
    scores = reranker.scores(question, [s.passage.text for s in sources])
    order = sorted(range(len(sources)), key=lambda i: -scores[i])[:keep]
    from dataclasses import replace

    return [replace(sources[i], n=position) for position, i in enumerate(order, start=1)]


class CrossEncoderReranker:
    def __init__(self, folder: Path):
        from sentence_transformers import CrossEncoder

        self.model = CrossEncoder(str(folder), device="cpu", local_files_only=True)

    def scores(self, question: str, passages: Sequence[str]) -> list[float]:
        return [float(s) for s in self.model.predict([(question, p) for p in passages])]


class LlmJudgeReranker:
    """Scores with log P("yes") from one token of the local LLM; the question comes first so its KV cache is reused."""

    def __init__(self, llama):
        self.llama = llama  # a llama_cpp.Llama

    def scores(self, question: str, passages: Sequence[str]) -> list[float]:
        out = []
        for passage in passages:
            messages = [
                {"role": "system", "content": JUDGE_SYSTEM},
                {"role": "user", "content": f"Question: {question}\n\nPassage: {' '.join(passage.split())}\n\nDoes the passage help answer the question?"},
            ]
            reply = self.llama.create_chat_completion(messages=messages, max_tokens=1, temperature=0.0, logprobs=True, top_logprobs=10)
            out.append(_yes_score(reply))
        return out


def _yes_score(reply: dict) -> float:
    choice = reply["choices"][0]
    try:
        top = choice["logprobs"]["content"][0]["top_logprobs"]
    except (KeyError, IndexError, TypeError):
        text = (choice.get("message", {}).get("content") or "").strip().lower()
        return 0.0 if text.startswith("yes") else -10.0
    yes = [math.exp(t["logprob"]) for t in top if t["token"].strip().lower() == "yes"]
    no = [math.exp(t["logprob"]) for t in top if t["token"].strip().lower() == "no"]
    p_yes, p_no = sum(yes), sum(no)
    return math.log((p_yes + 1e-9) / (p_yes + p_no + 1e-9))
