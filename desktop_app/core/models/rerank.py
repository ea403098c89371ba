"""Reranking the fused top passages: keep the few a judge finds most relevant.

The "advanced RAG" recipe over-retrieves and keeps the best 3 by a cross-encoder. No cross-encoder weights
ship on PyPI here, so two judges are offered: a sentence-transformers CrossEncoder model folder the user
points to, or the local LLM itself scoring each passage by the probability that it answers "yes".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

from ..errors import AppError
from ..types import Source
from .llm import Generator

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
    """The local LLM answers yes or no per passage; "yes" passages move up, the fused order breaks ties.

    llama-cpp-python only returns log-probabilities for models loaded with logits_all=True, which slows every
    other call, so the judgement is binary. The question comes first in each prompt so its KV cache is reused.
    """

    def __init__(self, generator: Generator):
        self.generator = generator

    def scores(self, question: str, passages: Sequence[str]) -> list[float]:
        out = []
        for passage in passages:
            messages = [
                {"role": "system", "content": JUDGE_SYSTEM},
                {"role": "user", "content": f"Question: {question}\n\nPassage: {' '.join(passage.split())}\n\nDoes the passage help answer the question?"},
            ]
            reply = self.generator.complete(messages, max_tokens=2, temperature=0.0).strip().lower()
            out.append(1.0 if reply.startswith("yes") else 0.0)
        return out


_CROSS_ENCODERS: dict[str, Reranker] = {}  # loaded once per process: loading takes seconds


def reranker_named(name: str, generator: Callable[[], Generator]) -> Reranker:
    """The judge named in settings: "llm" (the local model) or a CrossEncoder model folder."""
    if name == "llm":
        return LlmJudgeReranker(generator())
    if name not in _CROSS_ENCODERS:
        folder = Path(name).expanduser()
        if not folder.is_dir():
            raise AppError(f"The reranker folder {folder} does not exist", hint="Point Settings at a sentence-transformers CrossEncoder folder, or use 'llm'.")
        _CROSS_ENCODERS[name] = CrossEncoderReranker(folder)
    return _CROSS_ENCODERS[name]
