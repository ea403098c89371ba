"""A section's most central sentences: those closest to the mean meaning of its passages. No LLM; any language.

The passages' vectors are already stored by the meaning index, so a section's mean costs nothing to compute.
Only the sentences of its few most central passages are embedded (a handful per section, not every sentence
of the book): a sentence close to the mean is almost always inside a passage close to it.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

import numpy as np

from ..document_overview import CentralSentence
from ..ingest.chunking import sentence_spans
from ..models.embedder import Embedder

CENTRAL_PASSAGES = 2  # per section, the passages whose sentences are candidates
MAX_CANDIDATES = 8  # per section, sentences embedded
SENTENCES_PER_SECTION = 2
MIN_WORDS = 5
MAX_CHARS = 320
MIN_LETTER_SHARE = 0.6  # code, formulas and index lines are mostly not letters: not what a section is about


@dataclass(frozen=True)
class Passage:
    """A stored text passage, as the builder reads it: where it sits and its vector."""

    chunk_id: int
    page: int
    start: int
    end: int
    text: str
    vector: np.ndarray


@dataclass(frozen=True)
class Span:
    """A section's own text: from (page, offset) up to (not including) the next section's start."""

    first: tuple[int, int]
    stop: tuple[int, int] | None  # None: to the end of the document

    def holds(self, page: int, offset: int) -> bool:
        return (page, offset) >= self.first and (self.stop is None or (page, offset) < self.stop)


def unit(vectors: np.ndarray) -> np.ndarray | None:
    """The normalised mean of some vectors; None for none."""
    if len(vectors) == 0:
        return None
    mean = np.asarray(vectors, dtype=np.float32).mean(axis=0)
    norm = float(np.linalg.norm(mean))
    return mean / norm if norm > 0 else None


def is_readable_sentence(text: str) -> bool:
    letters = sum(c.isalpha() for c in text if not c.isspace())
    visible = sum(1 for c in text if not c.isspace())
    return len(re.findall(r"\w+", text)) >= MIN_WORDS and len(text) <= MAX_CHARS and visible > 0 and letters / visible >= MIN_LETTER_SHARE


def candidates(passages: Sequence[Passage], span: Span, mean: np.ndarray, headings: Collection[str] = ()) -> list[CentralSentence]:
    """The sentences of the section's most central passages that lie in its span, each once, none of them a
    heading of the outline (`headings`, case-folded) (score 0 for now)."""
    ranked = sorted(passages, key=lambda p: -float(p.vector @ mean))[:CENTRAL_PASSAGES]
    out: list[CentralSentence] = []
    seen: set[str] = set()
    for passage in ranked:
        for s, e in sentence_spans(passage.text):
            text = " ".join(passage.text[s:e].split())
            start = passage.start + s
            key = text.casefold()
            if key in seen or key in headings or not is_readable_sentence(text) or not span.holds(passage.page, start):
                continue
            seen.add(key)
            out.append(CentralSentence(text, passage.page, start, passage.start + e, passage.chunk_id, 0.0))
    return out[:MAX_CANDIDATES]


def pick_central(candidates_by_section: Sequence[list[CentralSentence]], means: Sequence[np.ndarray | None], embedder: Embedder) -> list[tuple[CentralSentence, ...]]:
    """Each section's SENTENCES_PER_SECTION candidates closest to its mean, in reading order. One embedding call
    for the whole document: batches of similar lengths pad little."""
    flat = [c for group in candidates_by_section for c in group]
    vectors = embedder.embed([c.text for c in flat]) if flat else np.zeros((0, 1), dtype=np.float32)
    out, row = [], 0
    for group, mean in zip(candidates_by_section, means):
        scored = []
        for i, sentence in enumerate(group):
            score = float(vectors[row + i] @ mean) if mean is not None else 0.0
            scored.append(CentralSentence(sentence.text, sentence.page, sentence.start, sentence.end, sentence.chunk_id, score))
        row += len(group)
        best = sorted(scored, key=lambda c: -c.score)[:SENTENCES_PER_SECTION]
        out.append(tuple(sorted(best, key=lambda c: (c.page, c.start))))
    return out
