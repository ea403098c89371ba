"""A section's most central sentences: those closest to the mean meaning of its passages. No LLM; any language.

The passages' vectors are already stored by the meaning index, so a section's mean costs nothing to compute.
Only the sentences of its few most central passages are embedded (a handful per section, not every sentence
of the book): a sentence close to the mean is almost always inside a passage close to it.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from ..document_overview import CentralSentence
from ..ingest.chunking import bracket_balance, reading_spans
from ..models.embedder import Embedder

CENTRAL_PASSAGES = 2  # per section, the passages whose sentences are candidates
# Per section, sentences embedded: embedding is nearly all of an overview's time (R-FAQ: 103 of 113 s under a
# load of 28 on 2 cores, 561 sentences), so the candidates are first narrowed by their words (`specificity`).
MAX_CANDIDATES = 4
EMBEDDED_CHARS = 200  # a sentence's first words place it: its tail costs embedding time (tokens) and adds little
SENTENCES_PER_SECTION = 2
# A document keeps at least this many central sentences, however few its sections: a short manual with no outline
# is one section, and two sentences of it were all its abstract was written from.
DOCUMENT_SENTENCES = 8
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


# How sentences end in most scripts; a candidate without one is often a line of code, a formula or a caption.
SENTENCE_ENDS = ".!?…。！？।۔።"


def heading_key(text: str) -> str:
    """A heading's words without its numbering ("1.1 The R environment" and "The R environment" are one key)."""
    words = re.findall(r"\w+", text.casefold())
    while words and words[0].isdigit():
        words.pop(0)
    return " ".join(words)


def heading_words(heading: str) -> str:
    """A heading key without its numbers: how a heading reads inside a line ("2.1 Reeds at dusk" -> "reeds at dusk")."""
    return " ".join(w for w in heading.split() if not w.isdigit())


def only_headings(text: str, headings: Collection[str]) -> bool:
    """The text is nothing but outline headings (`heading_words` of them) run together ("2 Colonies 2.1 Reeds": a
    chapter's heading and its first section's on one line), their numbers aside."""
    words = heading_words(heading_key(text)).split()
    split_at = {0}  # positions up to which the words are whole headings
    for end in range(1, len(words) + 1):
        if any(" ".join(words[start:end]) in headings for start in split_at):
            split_at.add(end)
    return bool(words) and len(words) in split_at


def brackets_balanced(text: str) -> bool:
    """Every bracket the text opens it closes, and it closes none it did not open: a piece a chunk's edge cut inside
    brackets (`chunking.bracketed_spans` joins those it can) reads as a fragment (".), the former marked out by ...")."""
    left_open, unopened = bracket_balance(text)
    return not left_open and not unopened


def is_readable_sentence(text: str) -> bool:
    letters = sum(c.isalpha() for c in text if not c.isspace())
    visible = sum(1 for c in text if not c.isspace())
    return (len(re.findall(r"\w+", text)) >= MIN_WORDS and len(text) <= MAX_CHARS and visible > 0 and letters / visible >= MIN_LETTER_SHARE
            and brackets_balanced(text))


def word_counts(passages: Iterable[Passage]) -> Counter[str]:
    return Counter(w for p in passages for w in re.findall(r"\w+", p.text.casefold()))


def specificity(sentence: str, section_words: Counter[str], document_words: Counter[str]) -> float:
    """How much a sentence's words belong to its section: the mean share of each word's uses in the document
    that fall in the section (a word used everywhere, in any language, counts for little)."""
    words = set(re.findall(r"\w+", sentence.casefold()))
    if not words:
        return 0.0
    return sum(section_words[w] / document_words[w] for w in words if document_words[w]) / len(words)


def sentences_per_section(sections: int) -> int:
    """How many central sentences each of a document's sections keeps: SENTENCES_PER_SECTION, more when it has few."""
    return max(SENTENCES_PER_SECTION, math.ceil(DOCUMENT_SENTENCES / max(sections, 1)))


def candidates(
    passages: Sequence[Passage], span: Span, mean: np.ndarray, headings: Collection[str] = (), document_words: Counter[str] | None = None,
    kept: int = SENTENCES_PER_SECTION,
) -> list[CentralSentence]:
    """The sentences of the section's most central passages that lie in its span, each once, none of them a
    heading of the outline (`headings`, as `heading_key`s), those ending as sentences do when there are any; the MAX_CANDIDATES most specific to the section when
    there are more (`document_words`: the whole document's word counts). Scored by their passage's closeness
    to the mean until they are embedded. `kept`: sentences the section keeps; more kept, more passages and candidates read."""
    most = MAX_CANDIDATES * kept // SENTENCES_PER_SECTION
    ranked = sorted(passages, key=lambda p: -float(p.vector @ mean))[: CENTRAL_PASSAGES * kept // SENTENCES_PER_SECTION]
    out: list[CentralSentence] = []
    seen: set[str] = set()
    runs = {heading_words(h) for h in headings}
    for passage in ranked:
        for s, e, _ in reading_spans(passage.text):  # a label with its value, a lead-in with what it introduces
            text = " ".join(passage.text[s:e].split())
            start = passage.start + s
            key = text.casefold()
            if key in seen or only_headings(text, runs) or not is_readable_sentence(text) or not span.holds(passage.page, start):
                continue
            seen.add(key)
            out.append(CentralSentence(text, passage.page, start, passage.start + e, passage.chunk_id, float(passage.vector @ mean)))
    ended = [c for c in out if c.text.rstrip("\"'”’)]").endswith(tuple(SENTENCE_ENDS))]
    out = ended or out  # whole sentences first, when the section has any
    if len(out) > most and document_words:
        section_words = word_counts(passages)
        specific = sorted(out, key=lambda c: -specificity(c.text, section_words, document_words))[:most]
        out = [c for c in out if c in specific]
    return out[:most]


def pick_central(
    candidates_by_section: Sequence[list[CentralSentence]], means: Sequence[np.ndarray | None], embedder: Embedder, kept: int = SENTENCES_PER_SECTION
) -> list[tuple[CentralSentence, ...]]:
    """Each section's `kept` candidates closest to its mean, in reading order. One embedding call for the whole
    document: batches of similar lengths pad little."""
    # A section with no more candidates than it keeps needs no embedding: they keep their passage's score.
    compared = [len(group) > kept and mean is not None for group, mean in zip(candidates_by_section, means)]
    flat = [c for group, embed in zip(candidates_by_section, compared) if embed for c in group]
    vectors = embedder.embed([c.text[:EMBEDDED_CHARS] for c in flat]) if flat else np.zeros((0, 1), dtype=np.float32)
    out, row = [], 0
    for group, mean, embed in zip(candidates_by_section, means, compared):
        scored = list(group)
        if embed:
            scored = [
                CentralSentence(c.text, c.page, c.start, c.end, c.chunk_id, float(vectors[row + i] @ mean)) for i, c in enumerate(group)
            ]
            row += len(group)
        best = sorted(scored, key=lambda c: -c.score)[:kept]
        out.append(tuple(sorted(best, key=lambda c: (c.page, c.start))))
    return out
