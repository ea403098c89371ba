"""Does what a passage says state a claim? The one grounding check of an answer, in any language and script.

A claim (a sentence or a list line) is compared with the passages it cites, together, by their words (core/words.py): Unicode word tokens (`\\w+`; Chinese
and Japanese: pairs of characters), casefolded, accents dropped, numbers in one spelling ("2,000", "2 000", "2000"; "1,5" is 1.5).
1. Every number and term written as code ("tessFold", "io.readBlock": words.code_names) of the claim must be in the passages as written (another figure
   or name is a wrong fact); a number as digits or spelled ("drei": spelled_numbers.py), in a passage holding another claim word (a number word may be another thing's).
2. score = the weighted share of the claim's content words (MIN_LETTERS letters or more, no word list) the passages hold. A word matches one of the same
   stem: equal, or sharing all but the last few letters (`_same_word`: "Москва"/"Москве", "Bäume"/"Baum"). Words the claim adds to the question count
   NEW_WEIGHT, words it repeats 1 (core/words.py's `telling`; a page says "formed in" for "origin"); each weight times the word's rarity among the passages
   read (`_rarity`, their IDF: "write" tells a page about writing tables from one about reading them, "table" does not); a number counts NUMBER_WEIGHT times
   a word. A word right after a number a label states bare is held ("64 * 1024 bytes" of "Default: 64 * 1024"): its unit, as the model reads it.
3. Meaning (`agrees`, from review.py's embedder): when the sentence nearest the claim, of all those read, is in the cited passages, the claim's own wording
   (words no passage read nor the question holds: "people live in" for "has ... inhabitants") counts as held, provided what it adds that the passages hold
   includes a number they state or outnumbers its own words. Meaning vouches for wording, not content: a colour or a name no passage holds stays missing; a
   number, or a word another passage holds, is never credited.
Grounded: no number missing and score >= THRESHOLD; the words the passages lack explain a verdict (`missing`). Well under a millisecond a claim. It cannot
see a negation or words in another relation (docs/grounding.md, bench/relation_swaps.py); review.py asks the model about a claim the words fail
(model_check.py).
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..spelled_numbers import number_words
from ..word_pieces import spaced
from ..words import MARK, Vocabulary, code_terms, content, is_number, telling, tokens, units

# Tune half of tests/data/citation_support.jsonl (claims alone; bench/citation_check_quality.py): 0.7 flags 2 of 35 right, passes 18 of 35 wrong.
THRESHOLD = 0.7


@dataclass(frozen=True)
class Grounding:
    grounded: bool
    score: float  # weighted share of the claim's content words the passages hold (1.0 with none)
    reason: str  # why, for a notice and the warning's tooltip
    missing: tuple[str, ...] = ()  # the claim's words and numbers the passages lack, as the claim writes them
    numbers: tuple[str, ...] = ()  # the claim's numbers the passages lack, as digits ("two": "2")


@functools.lru_cache(maxsize=2048)  # one review asks the same words many times; bounded, as it keeps the passages it saw
def _rarity(token: str, among: tuple[Vocabulary, ...]) -> float:
    """1 + log((N + 1) / (df + 1)) over the N passages read, df of which hold the word: the passages' own IDF. A word
    that tells the passages apart counts more. One none of them holds counts as one only one holds: it may be a
    name the model brought, or its paraphrase ("last" for "are replaced every"); only the claim's numbers are sure."""
    return 1.0 + math.log((len(among) + 1) / (max(1, sum(v.holds(token) for v in among)) + 1)) if among else 1.0


def judge_claim(claim: str, passages: Sequence[str] | Vocabulary, question: str | Vocabulary = "", among: Sequence[Vocabulary] = (), agrees: bool = False, exact: bool = False) -> Grounding:
    """Do the passages, together, state the claim? `question`: the words the claim may repeat from it count less. `among`: all the
    passages the model read; a word few of them hold tells them apart, and counts more. `agrees`: the claim's nearest sentence in meaning
    is in these passages, so its words no passage read holds count as held. `exact`: each word must be held, as each number (review.py)."""
    vocabulary = passages if isinstance(passages, Vocabulary) else Vocabulary(passages)
    claim = MARK.sub(" ", claim)
    said, unit_of = content(claim, spelled=True), units(claim)  # a spelled number ("two", "drei") as its digits; each number's unit word
    if not said:
        return Grounding(True, 1.0, "the claim states nothing to check")
    asked = question if isinstance(question, Vocabulary) else Vocabulary([question]) if question else None
    among = tuple(among)
    weights = [telling(t, asked) * _rarity(t, among) for t in said]
    codes = code_terms(claim)  # "tessFold" is checked as written, as a number is: folded, its case is lost
    as_written = [is_number(t) or t in codes for t in said]
    held = [t in vocabulary.written or vocabulary.spells(t, [w for w in said if w != t]) if w else vocabulary.holds(t) or unit_of.get(t) in vocabulary.bare for t, w in zip(said, as_written)]
    if agrees:  # its own wording (no passage read, nor the question, holds it) is held when its answer is the passages'
        known = [h or any(v.holds(t) for v in among) for t, h in zip(said, held)]
        added = [k and (asked is None or not asked.holds(t)) for t, k in zip(said, known)]  # what it adds that they know
        own = [not (k or is_number(t) or (asked is not None and asked.holds(t))) for t, k in zip(said, known)]
        if any(a and h and is_number(t) for t, a, h in zip(said, added, held)) or sum(own) < sum(added):
            held = [h or o for h, o in zip(held, own)]
    score = sum(w for w, h in zip(weights, held) if h) / sum(weights)
    spelled = number_words(tokens(claim), claim)  # "three": "3", shown as the claim writes it
    written = {spelled.get(t := next(iter(tokens(w)), ""), t): w for w in re.findall(r"\w+", spaced(claim))} if not all(held) else {}
    missing = tuple(dict.fromkeys(written.get(t, t) for t, h in zip(said, held) if not h))
    numbers = [t for t, h, w in zip(said, held, as_written) if not h and w]
    grounded = not numbers and score >= THRESHOLD and not (exact and not all(held))
    lack = f"contain {', '.join(dict.fromkeys(written.get(t, t) for t in numbers))}" if numbers else f"say {', '.join(missing[:6])}"
    return Grounding(grounded, round(score, 3), "the cited passages state it" if grounded else f"the cited passages do not {lack}", missing, tuple(numbers))
