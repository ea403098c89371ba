"""Does what a passage says state a claim? The one grounding check of an answer, in any language and script.

A claim (a sentence or a list line) is compared with the passages it cites, together, by their words: Unicode word tokens (`\\w+`; Chinese and Japanese:
pairs of characters), casefolded, accents dropped, numbers in one spelling ("2,000", "2 000", "2000"; "1,5" is 1.5).
1. Every number of the claim must be in the passages (a changed figure is a wrong fact): as digits, or spelled ("drei" in a German text: spelled_numbers.py)
   in a passage holding another of the claim's words too (a number word is often another thing's number).
2. score = the weighted share of the claim's content words (MIN_LETTERS letters or more, no word list) the passages hold. A word matches one of the same
   stem: equal, or sharing all but the last few letters (`_same_word`: "Москва"/"Москве", "Bäume"/"Baum"). Words the claim adds to the question count
   NEW_WEIGHT, words it repeats 1 (a page says "formed in" for "origin"); each weight times the word's rarity among the passages read (`_rarity`, their IDF:
   "write" tells a page about writing tables from one about reading them, "table" does not); a number counts NUMBER_WEIGHT times a word.
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

from ..spelled_numbers import fold_letters, number_words, spelled_digits
from ..word_pieces import is_spaceless, spaced

# Tune half of tests/data/citation_support.jsonl (claims alone; bench/citation_check_quality.py): 0.7 flags 2 of 35 right, passes 18 of 35 wrong.
THRESHOLD = 0.7
NEW_WEIGHT = 4.0  # a word the claim adds to the question's (the fact it states) counts 4 times one it repeats
NUMBER_WEIGHT = 2.0  # a number (or code with digits) is the most specific thing a claim states: it counts twice a word
MIN_LETTERS = 4  # shorter words are mostly function words in most languages ("der", "the", "и", "των")
_STEM_SLACK = 3  # letters an inflected form may differ by at its end
_STEM_START = 3  # letters two forms of a word share at least
# A grouped number stands alone: digits after a letter are a code's ("V7 516" is a code and 516, not 7516).
_NUMBER = re.compile(r"(?<!\w)\d{1,3}(?:[,.\u00a0\u202f\u2009' ]\d{3})+(?![\d])|\d+(?:[.,]\d+)?")
MARK = re.compile(r"\[\d+(?:\s*,\s*\d+)*\]")  # a citation mark, "[2]" or "[1, 3]"
_TOKEN = re.compile(r"\d+(?:\.\d+)?|\w+")


@dataclass(frozen=True)
class Grounding:
    grounded: bool
    score: float  # weighted share of the claim's content words the passages hold (1.0 with none)
    reason: str  # why, for a notice and the warning's tooltip
    missing: tuple[str, ...] = ()  # the claim's words and numbers the passages lack, as the claim writes them


def _number(match: re.Match) -> str:
    """"2,000", "2 000" and "2.000" (groups of three: thousands) are 2000; "1,50" and "1.5" are 1.5."""
    text = match.group(0)
    if re.fullmatch(r"\d{1,3}(?:[^\d]\d{3})+", text):
        return re.sub(r"\D", "", text).lstrip("0") or "0"
    whole, _, fraction = text.replace(",", ".").partition(".")
    return (whole.lstrip("0") or "0") + (f".{kept}" if (kept := fraction.rstrip("0")) else "")


def _fold(text: str) -> str:
    """Casefolded, accents dropped ("Malmö" = "malmo"), numbers in one spelling."""
    return _NUMBER.sub(lambda m: f" {_number(m)} ", fold_letters(text))


@functools.lru_cache(maxsize=4096)
def tokens(text: str) -> tuple[str, ...]:
    """The text's words and numbers, folded (kept for the texts a review asks about again and again)."""
    return tuple(_TOKEN.findall(spaced(_fold(text))))


def is_number(token: str) -> bool:
    return any(c.isdigit() for c in token)


def content(text: str, spelled: bool = False) -> list[str]:
    """The claim's words that say something: numbers, codes, words of MIN_LETTERS letters or more (a function word that long, "with", "было",
    is in most passages: it barely counts), a spaceless script's character pairs. `spelled`: a number word as its digits ("three": "3")."""
    numbers = number_words(tokens(text), text) if spelled else {}
    return [numbers.get(t, t) for t in tokens(text) if is_number(t) or len(t) >= MIN_LETTERS or is_spaceless(t)]


class Vocabulary:
    """The tokens of some passages, indexed by their first letters for the stem match."""

    def __init__(self, texts: Sequence[str]):
        self.spelling = [(set(digits), text) for text in texts if (digits := spelled_digits(tokens(text), text))]  # "drei" (German): 3
        self.written = {t for text in texts for t in tokens(text)}
        self.tokens = self.written | {number for digits, _ in self.spelling for number in digits}
        self._by_start: dict[str, list[str]] = {}
        self._stems: dict[str, bool] = {}
        for token in self.tokens:
            if len(token) >= _STEM_START and not is_number(token):
                self._by_start.setdefault(token[:_STEM_START], []).append(token)

    def spells(self, number: str, beside: Sequence[str]) -> bool:  # in a text holding one of the claim's other words too: "six provinces" is not "6 districts"
        return any(number in digits and (not beside or any(map(Vocabulary([text]).holds, beside))) for digits, text in self.spelling)

    def holds(self, token: str) -> bool:
        if token in self.tokens or is_number(token) or len(token) < MIN_LETTERS:
            return token in self.tokens
        if token not in self._stems:  # a review asks about the same words many times
            self._stems[token] = any(_same_word(token, other) for other in self._by_start.get(token[:_STEM_START], ()))
        return self._stems[token]


@functools.lru_cache(maxsize=2048)  # one review asks the same words many times; bounded, as it keeps the passages it saw
def _rarity(token: str, among: tuple[Vocabulary, ...]) -> float:
    """1 + log((N + 1) / (df + 1)) over the N passages read, df of which hold the word: the passages' own IDF. A word
    that tells the passages apart counts more. One none of them holds counts as one only one holds: it may be a
    name the model brought, or its paraphrase ("last" for "are replaced every"); only the claim's numbers are sure."""
    return 1.0 + math.log((len(among) + 1) / (max(1, sum(v.holds(token) for v in among)) + 1)) if among else 1.0


def _same_word(a: str, b: str) -> bool:
    """One word in two forms: they share all but the last _STEM_SLACK letters of the shorter and at least
    _STEM_START letters, a short stem only with a short ending ("lie"/"lies", not "cat"/"catalog"); or the shorter,
    of MIN_LETTERS or more, starts the longer (an abbreviation: "temp", "temperature")."""
    short, long = sorted((len(a), len(b)))
    shared = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), short)
    if shared == short >= MIN_LETTERS:
        return True
    return shared >= max(_STEM_START, short - _STEM_SLACK) and (shared >= 5 or long - shared <= _STEM_SLACK)


def judge_claim(claim: str, passages: Sequence[str] | Vocabulary, question: str | Vocabulary = "", among: Sequence[Vocabulary] = (), agrees: bool = False, exact: bool = False) -> Grounding:
    """Do the passages, together, state the claim? `question`: the words the claim may repeat from it count less. `among`: all the
    passages the model read; a word few of them hold tells them apart, and counts more. `agrees`: the claim's nearest sentence in meaning
    is in these passages, so its words no passage read holds count as held. `exact`: each word must be held, as each number (review.py)."""
    vocabulary = passages if isinstance(passages, Vocabulary) else Vocabulary(passages)
    claim = MARK.sub(" ", claim)
    said = content(claim)
    if not said:
        return Grounding(True, 1.0, "the claim states nothing to check")
    asked = question if isinstance(question, Vocabulary) else Vocabulary([question]) if question else None
    among = tuple(among)
    weights = [(1.0 if asked is not None and asked.holds(t) else NEW_WEIGHT) * (NUMBER_WEIGHT if is_number(t) else 1.0) * _rarity(t, among) for t in said]
    spelled = number_words(tokens(claim), claim)  # "three": 3
    held = [(t in vocabulary.written if is_number(t) else vocabulary.holds(t)) or (t in spelled or is_number(t)) and vocabulary.spells(spelled.get(t, t), [w for w in said if w != t]) for t in said]
    if agrees:  # its own wording (no passage read, nor the question, holds it) is held when its answer is the passages'
        known = [h or any(v.holds(t) for v in among) for t, h in zip(said, held)]
        added = [k and (asked is None or not asked.holds(t)) for t, k in zip(said, known)]  # what it adds that they know
        own = [not (k or is_number(t) or (asked is not None and asked.holds(t))) for t, k in zip(said, known)]
        if any(a and h and is_number(t) for t, a, h in zip(said, added, held)) or sum(own) < sum(added):
            held = [h or o for h, o in zip(held, own)]
    score = sum(w for w, h in zip(weights, held) if h) / sum(weights)
    written = {next(iter(tokens(w)), ""): w for w in re.findall(r"\w+", spaced(claim))} if not all(held) else {}
    missing = tuple(dict.fromkeys(written.get(t, t) for t, h in zip(said, held) if not h))
    numbers = [t for t, h in zip(said, held) if not h and is_number(t)]
    grounded = not numbers and score >= THRESHOLD and not (exact and not all(held))
    lack = f"contain {', '.join(numbers)}" if numbers else f"say {', '.join(missing[:6])}"
    return Grounding(grounded, round(score, 3), "the cited passages state it" if grounded else f"the cited passages do not {lack}", missing)
