"""Which parts of an overview a whole-document answer reads: the chapter asked for, the key sentences of a
whole document, the documents that best cover a topic. Each returns sentences as numbered passages (Sources)
whose citations highlight just the sentence on its page."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..document_overview import CentralSentence, Overview, OverviewSection
from ..models.embedder import Embedder
from ..storage.overviews import OverviewVectors
from ..types import Source
from ..words import meaningful, tokens

ABOUT_SENTENCES = 8  # key sentences of a whole document the model reads
ABOUT_CANDIDATES = 40  # chapters whose best sentence competes for those (evenly spread over a long flat outline)
PART_SENTENCES = 10
COMPARE_SENTENCES = 4  # per document
OUTLINE_LINES = 24  # top-level outline lines shown to the model (evenly spread when there are more)
WHICH_SECTIONS = 2  # a document's sections closest to the topic, cited in the answer
WHICH_SHOWN = 3  # documents named in a "which file" answer, at most
CLOSE_SECOND = 0.95  # another document is named too when its score is within this share of the best


def name_words(path: str, title: str) -> str:
    """A document's name as words: its file name's (without extension, "_" and "-" as spaces) and its title's."""
    words = " ".join(re.findall(r"[^\W_]+", Path(path).stem))
    return words if title in (Path(path).stem, Path(path).name) or not title.strip() else f"{words}: {title}"


def spread(items: Sequence, limit: int) -> list:
    """At most `limit` items evenly spread over the sequence, in order."""
    if len(items) <= limit:
        return list(items)
    return [items[round(i * (len(items) - 1) / (limit - 1))] for i in range(limit)] if limit > 1 else [items[0]]


def sentence_source(overview: Overview, section: OverviewSection, sentence: CentralSentence, n: int) -> Source:
    return Source(n=n, passage=overview.passage(section, sentence), rrf_score=0.0, ranks={}, similarity=sentence.score)


def numbered(overview: Overview, picked: Sequence[tuple[OverviewSection, CentralSentence]], first: int = 1) -> list[Source]:
    return [sentence_source(overview, section, sentence, n) for n, (section, sentence) in enumerate(picked, start=first)]


def outline_for_prompt(overview: Overview) -> list[OverviewSection]:
    return spread(overview.chapters(), OUTLINE_LINES)


def key_sentences(overview: Overview, vector: np.ndarray | None, embedder: Embedder, limit: int = ABOUT_SENTENCES) -> list[tuple[OverviewSection, CentralSentence]]:
    """The sentences closest to the whole document's meaning: each chapter's most central sentence competes (its
    few most central when the document has fewer chapters than `limit`), then the best `limit` are kept in reading order."""
    best: list[tuple[OverviewSection, CentralSentence]] = []
    chapters = overview.chapters()
    each = max(1, math.ceil(limit / max(len(chapters), 1)))
    for chapter in chapters:
        found = [(s, c) for s in overview.subtree(chapter) for c in s.sentences]
        best += sorted(sorted(found, key=lambda sc: -sc[1].score)[:each], key=lambda sc: (sc[1].page, sc[1].start))
    best = spread(best, ABOUT_CANDIDATES)
    if len(best) > limit and vector is not None:
        closeness = embedder.embed([c.text for _, c in best]) @ vector
        keep = set(np.argsort(-closeness)[:limit].tolist())
        best = [pair for i, pair in enumerate(best) if i in keep]
    return best[:limit]


_TITLE_WORD = re.compile(r"\d+(?:\.\d+)*|\w+")  # "2.1. Version" -> "2.1", "version"


def find_part(overview: Overview, ref: str) -> OverviewSection | None:
    """The section a "chapter 6" / "appendix B" / "section 2.1" names: one whose title starts with that number or letter
    (after at most one word, as in "Chapter 6: ..."), top levels first; else the ref-th chapter when it is a number. A
    dotted number is one word: "2.1" is section 2.1, not chapter 2, and "4" is not "4.3.2 Argument matching"."""
    wanted = ref.casefold()
    for level in sorted({s.level for s in overview.sections}):
        for section in overview.sections:
            words = _TITLE_WORD.findall(section.title.casefold())
            if section.level == level and wanted in words[:2] and (words[0] == wanted or not words[0][:1].isdigit()):
                return section
    chapters = overview.chapters()
    if ref.isdigit() and 1 <= int(ref) <= len(chapters):
        return chapters[int(ref) - 1]
    head, dot, rest = ref.partition(".")
    if dot and rest and (section := find_part(overview, head)) is not None:
        # A PDF's bookmarks often drop the subsections' numbers ("Variations on read.table" is 2.1 on the page):
        # "2.1" is then the first section directly under chapter 2, counted in the outline.
        for number in map(int, rest.split(".")):
            below = overview.subtree(section)[1:]
            top = min((s.level for s in below), default=0)
            children = [s for s in below if s.level == top]
            if not 1 <= number <= len(children):
                return None
            section = children[number - 1]
        return section
    return None


def part_sentences(overview: Overview, part: OverviewSection, limit: int = PART_SENTENCES) -> list[tuple[OverviewSection, CentralSentence]]:
    """The central sentences of a section and its subsections, the best `limit` of them in reading order."""
    found = [(s, c) for s in overview.subtree(part) for c in s.sentences]
    if len(found) > limit:
        # Every subsection keeps its best sentence before any gets a second one.
        firsts = sorted(((s, max(s.sentences, key=lambda c: c.score)) for s in overview.subtree(part) if s.sentences), key=lambda sc: -sc[1].score)
        chosen = firsts[:limit]
        rest = sorted((sc for sc in found if sc not in chosen), key=lambda sc: -sc[1].score)
        found = chosen + rest[: max(0, limit - len(chosen))]
    return sorted(found, key=lambda sc: (sc[1].page, sc[1].start))


@dataclass(frozen=True)
class Coverage:
    """How well a document covers a topic: its score and its sections closest to it (positions, best first)."""

    document_id: int
    score: float
    sections: tuple[int, ...]


def name_share(topic: str, name: str) -> float:
    """The share of the topic's words that the document's name holds (`name_words`): a person names a file for
    what it is about, when the name says anything ("garden-compost.pdf"); a code ("kx4-7.pdf") holds none."""
    asked = set(meaningful(topic))
    return len(asked & set(tokens(name))) / len(asked) if asked else 0.0


def rank_by_topic(topic_vector: np.ndarray, vectors: dict[int, OverviewVectors], topic: str = "", names: Mapping[int, str] | None = None) -> list[Coverage]:
    """Documents by how close their overview is to the topic: the mean of the whole document's closeness (its
    passages' mean) and its name's `name_share` of the topic's words (`names`: each document's `name_words`). On
    the dev set's topic books (docs/whole-documents.md) the passages' mean was the best content score tried
    (against its closest sections', votes of the library's closest sections, centred means). The name was first
    compared by its vector: a specification named in words was chosen over a library's manual named by a code,
    whose content is about the topic, as a code's vector says nothing and any name's sits near some topic."""
    out = []
    for document_id, found in vectors.items():
        if found.document is None:
            continue
        score = (float(found.document @ topic_vector) + name_share(topic, (names or {}).get(document_id, ""))) / 2
        closeness = [(float(v @ topic_vector), p) for p, v in enumerate(found.sections) if v is not None]
        best = tuple(p for _, p in sorted(closeness, reverse=True)[:WHICH_SECTIONS])
        out.append(Coverage(document_id, score, best))
    return sorted(out, key=lambda c: -c.score)


def shown_coverage(ranked: Sequence[Coverage]) -> list[Coverage]:
    """The best document, and the next ones when they come close to it."""
    if not ranked:
        return []
    best = ranked[0].score
    return [ranked[0]] + [c for c in ranked[1:WHICH_SHOWN] if best > 0 and c.score >= CLOSE_SECOND * best]
