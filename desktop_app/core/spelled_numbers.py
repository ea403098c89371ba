"""Numbers written as words ("drei Jahre", "three years", "двенадцать"), read as the digits they stand for, so the
grounding check matches an answer's "3 years" with a page's "drei Jahre" or "three years", and an answer's "four
years" does not pass over a page's "3 years".

num2words (a well-kept library that spells numbers in about 50 languages) spells 2 to SPELLED_UP_TO, the round
hundreds up to a thousand and the round thousands up to ten thousand ("dreitausend Liter"); those spellings are read back into digits, a spelling of several words ("twenty-one",
"vingt et un") as one number. A text's number words are read only in its own language (the identifier's likeliest
among the languages num2words spells), because a number word of one language is an ordinary word of another ("fire"
is four in Norwegian, "once" eleven in Spanish). One is left as a word: it is also an article or a pronoun in most
languages ("ein", "un", "one of"). A number is read in every form num2words writes it in: the cases and genders of
Russian, Ukrainian, Finnish ... ("трёх", "двадцати двух", "kolmessa"). Not read: forms num2words does not write (Polish
and Czech cases), and ordinals ("third", which in many languages is also a fraction).

Chinese and Japanese write numbers in characters ("两年", "三十五平方米", "三千", "六点五", "3万"), which num2words spells
for neither as a text writes them; `cjk_numerals` reads them as digits by the characters' one grammar (a digit, then
十 百 千, then 万 or 亿 over all before). A lone 一 or 零 is left as it stands: it is in more words than numbers ("一些",
"统一", "零件"), as one is left a word elsewhere; so is an ordinal ("第三章", chapter three).
"""

from __future__ import annotations

import functools
import inspect
import itertools
import re
import threading
import unicodedata
from collections.abc import Callable

from .languages import likeliest_among
from .word_pieces import is_spaceless

SPELLED_UP_TO = 100
_CJK_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_CJK_UNITS = {"十": 10, "百": 100, "千": 1000}
_CJK_GROUPS = {"万": 10**4, "萬": 10**4, "亿": 10**8, "億": 10**8}
_DIGIT = "".join(_CJK_DIGITS)
# A number starts with a digit or 十 (a group sign first is a word: "万一", "千万"); "点" and digits after it are its decimals.
# After 第 it is an ordinal, a chapter's or a step's ("第三章"), left as it stands, as ordinals are in other languages.
_CJK_NUMBER = re.compile(f"(?<!第)(?:(?<![\\d.,])\\d+(?:\\.\\d+)?(?=[万萬亿億])|[{_DIGIT}十])[{_DIGIT}十百千万萬亿億]*(?:点[{_DIGIT}]+)?")
# What num2words' converters take for a number's form, under the names and codes they use (Russian "g", Ukrainian
# and Finnish "genitive"); each converter refuses the ones it does not know.
_CASES = ("n", "g", "d", "a", "i", "p", "nominative", "genitive", "dative", "accusative", "instrumental", "locative", "partitive",
          "essive", "translative", "inessive", "elative", "illative", "adessive", "ablative", "allative", "abessive", "comitative")  # fmt: skip
_INFLECTIONS: dict[str, tuple[object, ...]] = {"case": _CASES, "gender": ("m", "f", "n", "feminine", "neuter"), "plural": (True,), "feminine": (True,)}
_PROBES = (2, 3, 5, 21, 22, 40, 100, 300, 1000, 2000)  # numbers whose words differ by form where any do: two forms writing these alike are one
_VALUES = (*range(2, SPELLED_UP_TO + 1), *range(200, 1001, 100), *range(2000, 10001, 1000))


def fold_letters(text: str) -> str:
    """Casefolded, accents dropped ("Malmö" = "malmo", "Zwölf" = "zwolf"), as the grounding check compares words."""
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text).casefold())
    return "".join(c for c in text if not unicodedata.combining(c))


def preload() -> None:
    """Build the spellings on a background thread (about a quarter of a second), started when a question is asked, so
    that its answer's review finds them ready."""
    if _spellings.cache_info().currsize == 0:
        threading.Thread(target=_spellings, name="number words", daemon=True).start()


@functools.cache
def _spellings() -> dict[str, dict[tuple[str, ...], str]]:
    """language -> (its folded words for a number, in every form num2words writes it -> the number's digits); built once."""
    from num2words import CONVERTER_CLASSES, num2words  # late: only a review needs it

    tables: dict[str, dict[tuple[str, ...], str]] = {}
    for language, converter in CONVERTER_CLASSES.items():
        if "_" in language:  # a regional variant ("en_IN") spells as its language, or writes lakhs
            continue
        spelled: dict[tuple[str, ...], str] = {}
        for form in _forms(converter, functools.partial(num2words, lang=language)):
            try:
                spelled.update({tuple(re.findall(r"\w+", fold_letters(num2words(n, lang=language, **form)))): str(n) for n in _VALUES})
            except Exception:  # noqa: BLE001 - a converter num2words lists but cannot run (it raises its own errors)
                continue
        if spelled:
            tables[language] = {words: digits for words, digits in spelled.items() if words and not any(map(is_spaceless, words))}
    return tables


def _forms(converter: object, spell: Callable[..., str]) -> list[dict[str, object]]:
    """The keyword arguments for each form of a number a converter writes: the plain one, and in a language whose
    numbers inflect (Russian "трёх" is three's genitive, Finnish "kolmessa" its inessive), each case, gender and
    plural num2words takes for it. A combination is kept when it writes some numbers otherwise than those kept before."""
    parameters = inspect.signature(converter.to_cardinal).parameters
    open_ended = any(p.kind is p.VAR_KEYWORD for p in parameters.values())
    names = [name for name in _INFLECTIONS if name in parameters or open_ended and name != "feminine"]
    forms: dict[tuple[str, ...], dict[str, object]] = {}
    for values in itertools.product(*((None, *_INFLECTIONS[name]) for name in names)):
        form = {name: value for name, value in zip(names, values) if value is not None}
        try:
            forms.setdefault(tuple(spell(n, **form) for n in _PROBES), form)
        except Exception:  # noqa: BLE001 - a value this converter does not know: it raises its own error
            continue
    return list(forms.values())


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


def cjk_numerals(text: str) -> str:
    """The text with each number written in Chinese or Japanese characters as its digits, between spaces:
    "保修期为两年" -> "保修期为 2 年", "六点五公斤" -> "6.5 公斤", "3万元" -> "30000 元"."""
    return _CJK_NUMBER.sub(_cjk_digits, text)


# Two neighbouring digits, the second one more (or 三五, "three to five"), say about how many: "三四天" is three or four
# days, "十五六岁" 15 or 16 years, "七八十" 70 or 80. Read as both numbers; three or more digits in a row are read one by
# one ("一九九八年", 1998).
_ABOUT = re.compile(f"(?<![{_DIGIT}])([一二两兩三四五六七八])([二三四五六七八九])(?![{_DIGIT}])")


def _cjk_digits(match: re.Match) -> str:
    written = match.group(0)
    if written in ("一", "零", "〇"):
        return written
    about = _ABOUT.search(written)
    if about and (_CJK_DIGITS[about[2]] - _CJK_DIGITS[about[1]] == 1 or about[0] == "三五"):
        low, high = (written[: about.start()] + digit + written[about.end() :] for digit in about.groups())
        return f" {_cjk_number(low)} {_cjk_number(high)} "
    return f" {_cjk_number(written)} "


def _cjk_number(written: str) -> str:
    whole, _, decimals = written.partition("点")
    lead = re.match(r"\d+(?:\.\d+)?", whole)
    if lead is None and not any(c in _CJK_UNITS or c in _CJK_GROUPS for c in whole):  # digit by digit: "二〇二四" is 2024
        number = "".join(str(_CJK_DIGITS[c]) for c in whole)
    else:
        groups: list[tuple[float, int]] = []  # (value, its group sign's size): "一亿五千万" is 1亿 and 5000万
        section, digit = 0, float(lead.group(0)) if lead else None
        for c in whole[lead.end() if lead else 0 :]:
            if c in _CJK_DIGITS:
                digit = _CJK_DIGITS[c]
            elif c in _CJK_UNITS:  # "十二" is 12: a unit with no digit before it counts one
                section += int((1 if digit is None else digit) * _CJK_UNITS[c])
                digit = None
            else:  # 万, 亿: of all before it since a larger group sign
                size, value = _CJK_GROUPS[c], section + (digit or 0)
                while groups and groups[-1][1] < size:
                    value += groups.pop()[0]
                groups.append((value * size, size))
                section, digit = 0, None
        value = sum(v for v, _ in groups) + section + (digit or 0)
        number = str(int(value)) if value == int(value) else str(value)
    fraction = "".join(str(_CJK_DIGITS[c]) for c in decimals)
    return f"{number}{'.' + fraction if fraction else ''}"
