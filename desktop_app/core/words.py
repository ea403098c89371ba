"""Words compared in any language and script, as the grounding check (answers/grounding.py) and the page's highlight
(retrieval/evidence.py) compare an answer's sentence with a passage's.

Unicode word tokens (`\\w+`; Chinese and Japanese: pairs of characters, word_pieces.py), casefolded, accents dropped,
numbers in one spelling ("2,000", "2 000", "2000"; "1,5" is 1.5), numbers spelled in words read as digits in the text's
language (spelled_numbers.py). A word matches one of the same stem (`_same_word`), so no stemmer and no word list.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from .spelled_numbers import fold_letters, number_words, spelled_digits
from .word_pieces import is_spaceless, spaced

NEW_WEIGHT = 4.0  # a word a claim adds to the question's (the fact it states) counts 4 times one it repeats
NUMBER_WEIGHT = 2.0  # a number (or code with digits) is the most specific thing a claim states: it counts twice a word
MIN_LETTERS = 4  # shorter words are mostly function words in most languages ("der", "the", "и", "των")
_STEM_SLACK = 3  # letters an inflected form may differ by at its end
_STEM_START = 3  # letters two forms of a word share at least
# A grouped number stands alone: digits after a letter are a code's ("V7 516" is a code and 516, not 7516).
_NUMBER = re.compile(r"(?<!\w)\d{1,3}(?:[,.\u00a0\u202f\u2009' ]\d{3})+(?![\d])|\d+(?:[.,]\d+)?")
_TOKEN = re.compile(r"\d+(?:\.\d+)?|\w+")


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


def _same_word(a: str, b: str) -> bool:
    """One word in two forms: they share all but the last _STEM_SLACK letters of the shorter and at least
    _STEM_START letters, a short stem only with a short ending ("lie"/"lies", not "cat"/"catalog"); or the shorter,
    of MIN_LETTERS or more, starts the longer (an abbreviation: "temp", "temperature")."""
    short, long = sorted((len(a), len(b)))
    shared = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), short)
    if shared == short >= MIN_LETTERS:
        return True
    return shared >= max(_STEM_START, short - _STEM_SLACK) and (shared >= 5 or long - shared <= _STEM_SLACK)


def telling(token: str, asked: Vocabulary | None) -> float:
    """How much a claim's word tells: NEW_WEIGHT when the question (`asked`) does not hold it, times NUMBER_WEIGHT for a number."""
    return (1.0 if asked is not None and asked.holds(token) else NEW_WEIGHT) * (NUMBER_WEIGHT if is_number(token) else 1.0)
