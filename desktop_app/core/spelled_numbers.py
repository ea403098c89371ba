"""Numbers written as words ("drei Jahre", "three years", "двенадцать"), read as the digits they stand for, so the
grounding check matches an answer's "3 years" with a page's "drei Jahre" or "three years", and an answer's "four
years" does not pass over a page's "3 years".

num2words (a well-kept library that spells numbers in about 50 languages) spells 2 to SPELLED_UP_TO, the round
hundreds up to a thousand and the round thousands up to ten thousand ("dreitausend Liter"); those spellings are read back into digits, a spelling of several words ("twenty-one",
"vingt et un") as one number. A text's number words are read only in its own language (the identifier's likeliest
among the languages num2words spells), because a number word of one language is an ordinary word of another ("fire"
is four in Norwegian, "once" eleven in Spanish). One is left as a word: it is also an article or a pronoun in most
languages ("ein", "un", "one of"). Not read: scripts written without spaces (Chinese, Japanese), inflected forms of a
number ("трёх" for "три") and ordinals ("third", which in many languages is also a fraction).
"""

from __future__ import annotations

import functools
import re
import unicodedata

from .languages import likeliest_among
from .word_pieces import is_spaceless

SPELLED_UP_TO = 100
_VALUES = (*range(2, SPELLED_UP_TO + 1), *range(200, 1001, 100), *range(2000, 10001, 1000))


def fold_letters(text: str) -> str:
    """Casefolded, accents dropped ("Malmö" = "malmo", "Zwölf" = "zwolf"), as the grounding check compares words."""
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text).casefold())
    return "".join(c for c in text if not unicodedata.combining(c))


@functools.cache
def _spellings() -> dict[str, dict[tuple[str, ...], str]]:
    """language -> (its folded words for a number -> the number's digits); built once, in about a tenth of a second."""
    from num2words import CONVERTER_CLASSES, num2words  # late: only a review needs it

    tables: dict[str, dict[tuple[str, ...], str]] = {}
    for language in CONVERTER_CLASSES:
        if "_" in language:  # a regional variant ("en_IN") spells as its language, or writes lakhs
            continue
        try:
            spelled = {tuple(re.findall(r"\w+", fold_letters(num2words(n, lang=language)))): str(n) for n in _VALUES}
        except Exception:  # noqa: BLE001 - a converter num2words lists but cannot run (it raises its own errors)
            continue
        tables[language] = {words: digits for words, digits in spelled.items() if words and not any(map(is_spaceless, words))}
    return tables


@functools.cache
def _first_words() -> frozenset[str]:
    """Every word a spelled number starts with, in any language: a text holding none needs no language read."""
    return frozenset(words[0] for table in _spellings().values() for words in table)


@functools.lru_cache(maxsize=4096)  # a review builds the words of the same sentences again and again
def _spans(words: tuple[str, ...], text: str) -> list[tuple[int, int, str]]:
    """(start, end, digits) of each number `words` (folded, as fold_letters folds them, from `text`) spell in `text`'s
    language, the longest spelling first: "vingt et un" is one number, 21, not 20 and two words."""
    if _first_words().isdisjoint(words):
        return []
    tables = _spellings()
    table = tables.get(likeliest_among(text, tables) or "", {})
    longest = max(map(len, table), default=0)
    spans, at = [], 0
    while at < len(words):
        size = next((n for n in range(longest, 0, -1) if tuple(words[at : at + n]) in table), 0)
        if size:
            spans.append((at, at + size, table[tuple(words[at : at + size])]))
        at += size or 1
    return spans


def spelled_digits(words: tuple[str, ...], text: str) -> tuple[str, ...]:
    """The digits of the numbers `words` spell: ("die", "garantie", "betragt", "drei", "jahre") -> ("3",)."""
    return tuple(digits for _, _, digits in _spans(words, text))


def number_words(words: tuple[str, ...], text: str) -> dict[str, str]:
    """Each of `words` that spells a number alone -> its digits: ("three", "years") -> {"three": "3"}."""
    return {words[start]: digits for start, end, digits in _spans(words, text) if end == start + 1}
