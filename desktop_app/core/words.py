"""Words compared in any language and script, as the grounding check (answers/grounding.py) and the page's highlight
(retrieval/evidence.py) compare an answer's sentence with a passage's.

Unicode word tokens (`\\w+`; Chinese and Japanese: pairs of characters, word_pieces.py), casefolded, accents dropped,
numbers in one spelling ("2,000", "2 000", "2000"; "1,5" is 1.5; "两千" is 2000), numbers spelled in words read as digits
in the text's language (spelled_numbers.py). A word matches one of the same stem (`_same_word`): they share all but their last
letters. Two words sharing only their first three letters and more than a last letter apart ("city"/"cities", but also
"from"/"frost") are one word only when the Snowball stemmer of the passages' language says so (in a language it has no
stemmer for, they are).
"""

from __future__ import annotations

import functools
import itertools
import re
import threading
from collections.abc import Callable, Iterable, Sequence

from .languages import SAMPLE_CHARS, likeliest_among
from .spelled_numbers import cjk_numerals, fold_letters, number_words, spelled_digits
from .stopwords import FUNCTION_WORDS
from .word_pieces import is_spaceless, spaced

NEW_WEIGHT = 4.0  # a word a claim adds to the question's (the fact it states) counts 4 times one it repeats
NUMBER_WEIGHT = 2.0  # a number (or code with digits) is the most specific thing a claim states: it counts twice a word
WINDOW_STEP = 20  # characters between the starts `around` tries: a few words, so a long sentence costs tens of tries, not hundreds
MIN_LETTERS = 4  # shorter words are mostly function words in most languages ("der", "the", "и", "των")
_STEM_SLACK = 3  # letters an inflected form may differ by at its end
_STEM_START = 3  # letters two forms of a word share at least (when they share no more, the stemmer decides)
# Snowball's stemmers (snowballstemmer, a well-kept pure-Python build of them) by the identifier's language codes.
_STEMMERS = {
    "ar": "arabic", "ca": "catalan", "cs": "czech", "da": "danish", "de": "german", "el": "greek", "en": "english", "es": "spanish",
    "et": "estonian", "eu": "basque", "fa": "persian", "fi": "finnish", "fr": "french", "ga": "irish", "hi": "hindi", "hu": "hungarian",
    "hy": "armenian", "id": "indonesian", "it": "italian", "lt": "lithuanian", "ne": "nepali", "nl": "dutch", "no": "norwegian",
    "pl": "polish", "pt": "portuguese", "ro": "romanian", "ru": "russian", "sr": "serbian", "sv": "swedish", "ta": "tamil", "tr": "turkish",
}  # fmt: skip
# A grouped number stands alone: digits after a letter are a code's ("V7 516" is a code and 516, not 7516). Three or
# more dotted numbers are one ("5.7.3", a section or a version): its last part is no number of its own.
_NUMBER = re.compile(r"(?<!\w)\d{1,3}(?:[,.\u00a0\u202f\u2009' ]\d{3})+(?![\d])|\d+(?:\.\d+){2,}|\d+(?:[.,]\d+)?")
MARK = re.compile(r"\[\d+(?:\s*,\s*\d+)*\]")  # a citation mark, "[2]" or "[1, 3]": no number the answer says
# A dotted name is one word, a code's: "write.csv" is not "write.table" (parts of two letters or more: "e.g." and "U.S." are not);
# so is a name joined by underscores, "read_csv" (not "read.csv").
# A letter written as a command-line option ("-k") is one word, a code's: the option a manual's line is about, not a
# letter too short to count ("-k" is not "-c", nor "-v" "-V"; "x-axis", "- item" and the initials "G.-F." hold none).
OPTION = re.compile(r"(?<![\w.-])--?[^\W\d_](?![\w-])")
_DOTTED = re.compile(r"[^\W\d_]{2}\w*(?:\.[^\W\d_]{2}\w*)+")  # parts of two letters or more: "e.g." and "U.S." are no names
_FOLDED_NUMBER = r"\d+(?:\.\d+)*"  # a number as _fold writes it: digits, a decimal or a dotted section's parts
_TOKEN = re.compile(rf"{_FOLDED_NUMBER}|{OPTION.pattern}|{_DOTTED.pattern}|\w+")
# A programming name joining letters and digits with underscores ("sha256_digest", "SHA3_256_DIGEST_SIZE") is one code:
# its digits are no number of their own ("sha256_digest" is not "sha3_256_digest"). `tokens` then gives its parts too.
_IDENTIFIER = re.compile(r"(?<!\w)(?=[^\W_]+_)(?=\w*\d)(?=\w*[^\W\d_])\w+")
DASHES = str.maketrans("\u2010\u2011\u2212", "---")  # a hyphen and a minus sign as typeset (a man page's "\u2212k") are "-"


def _number(match: re.Match) -> str:
    """"2,000", "2 000" and "2.000" (groups of three: thousands) are 2000; "1,50" and "1.5" are 1.5."""
    text = match.group(0)
    if re.fullmatch(r"\d{1,3}(?:[^\d]\d{3})+", text):
        return re.sub(r"\D", "", text).lstrip("0") or "0"
    if text.count(".") > 1:  # "5.7.3", "2.1.0": a section's or a version's number, as written
        return text
    whole, _, fraction = text.replace(",", ".").partition(".")
    return (whole.lstrip("0") or "0") + (f".{kept}" if (kept := fraction.rstrip("0")) else "")


def _fold(text: str) -> str:
    """Casefolded, accents dropped ("Malmö" = "malmo"), numbers in one spelling (Chinese and Japanese ones too: "两年" is "2 年");
    an option as written ("-v" is not "-V")."""
    pieces = re.split(f"({OPTION.pattern}|{_IDENTIFIER.pattern})", text.translate(DASHES))  # text, option or name, text, ...
    return "".join(
        (piece if piece.startswith("-") else fold_letters(piece)) if odd else _NUMBER.sub(lambda m: f" {_number(m)} ", cjk_numerals(fold_letters(piece)))
        for odd, piece in zip(itertools.cycle((False, True)), pieces)
    )


@functools.lru_cache(maxsize=4096)
def tokens(text: str) -> tuple[str, ...]:
    """The text's words and numbers, folded, a dotted name whole and then its parts (kept for the texts a review asks about again and again)."""
    return tuple(part for token in _TOKEN.findall(spaced(_fold(text))) for part in (token, *(filter(None, re.split(r"[._]", token)) if _is_name(token) else ())))


def _is_name(token: str) -> bool:
    return ("." in token or "_" in token.strip("_")) and not token[0].isdigit()


def is_number(token: str) -> bool:
    """A number, or a code: with digits ("IP67"), a dotted or underscored name ("write.csv", "read_csv"), an option ("-k"); a claim's must be in its passages, as written."""
    return any(c.isdigit() for c in token) or _is_name(token) or token.startswith("-")


_WRITTEN = re.compile(r"\w+(?:[._]\w+)*")  # a run of word characters, dots and underscores inside it (a sentence's end is no part)


def code_names(text: str) -> list[str]:
    """The terms of a text written as code, as a programmer or a datasheet writes them: a dotted name ("io.readBlock"), a
    name joined by underscores ("read_csv"), a word whose capital follows a small letter ("tessFold"), a word that starts
    with a letter and holds a digit ("RS485", "sha256"; not "1990s" or "4th"). By case and character class, so in any
    script with cases. An embedder reads such a term as pieces of other words; keyword search finds it as written."""
    def is_code(term: str) -> bool:
        if _DOTTED.fullmatch(term) or "_" in term.strip("_"):
            return True
        camel = term[0].islower() and any(c.isupper() for c in term[1:])
        # "m²" is a unit; a spaceless script's run is a clause, not a word: "その保証期間は1年間です" holds a digit and names no code
        return camel or (term[0].isalpha() and any(c.isdecimal() for c in term) and not is_spaceless(term))

    return [term for term in _WRITTEN.findall(text) if is_code(term)]


def code_terms(text: str) -> set[str]:
    """The text's terms written as code (`code_names`) as `tokens` gives each whole, folded ("tessFold": "tessfold")."""
    return {t for code in code_names(text) for t in tokens(code)[:1]}


def code_ends(codes: Iterable[str]) -> set[str]:
    """Each code's last dotted part: "io.readblock" and "readblock" name one function."""
    return {code.rsplit(".", 1)[-1] for code in codes}


def heading_names(words: Iterable[str], headings: Iterable[str]) -> set[str]:
    """Those of `words` that one of the headings writes as the last part of a dotted code: "drain" under "io.drain(path[, options])".
    A reference's reader names a function as its heading does, without its module ("the retries option of drain"). Only
    a dotted code's: a word a heading holds elsewhere ("path", "options") names nothing, and the stores can ask for the
    headings holding "." and the word, few in any library, instead of every heading holding the word."""
    ends = code_ends(code for heading in headings for code in code_terms(heading) if "." in code)
    return {w for w in words if _fold(w) in ends}


def content(text: str, spelled: bool = False) -> list[str]:
    """The claim's words that say something: numbers, codes, words of MIN_LETTERS letters or more (a function word that long, "with", "было",
    is in most passages: it barely counts), a spaceless script's character pairs. `spelled`: a number word as its digits ("three": "3")."""
    numbers = number_words(tokens(text), text) if spelled else {}
    return [numbers.get(t, t) for t in tokens(text) if is_number(t) or t in numbers or len(t) >= MIN_LETTERS or is_spaceless(t)]


# A number and the word after it ("64 * 1024 bytes"). A value a label states with no word after it ("Default: 64 * 1024",
# "size = 8"): the key's value, its unit unsaid. Only a label's: a bare number in prose or code ("c(10, 10)") may count
# anything, and the word a claim writes after it is then the thing counted, a fact of its own ("10 entries").
_UNIT = re.compile(rf"(?<![\w.])({_FOLDED_NUMBER})\s+([^\W\d_]\w*)")
_VALUE = re.compile(rf"[:=]\s*[`'\"]?\s*({_FOLDED_NUMBER}(?:\s*[-+*/^]\s*{_FOLDED_NUMBER})*)\s*[`'\"]?(?!\s*\w)")


@functools.lru_cache(maxsize=4096)
def bare_numbers(text: str) -> frozenset[str]:
    """The numbers of the values the text's labels state without a unit ("Default: 64 * 1024": 64 and 1024; not "120 m")."""
    return frozenset(n for value in _VALUE.findall(spaced(_fold(text))) for n in re.findall(_FOLDED_NUMBER, value))


def units(text: str) -> dict[str, str]:
    """Each word written right after a number (as `tokens` gives it), and that number: "bytes" in "64 * 1024 bytes", "Meter" in "120 Meter"."""
    return {word: number for number, word in _UNIT.findall(spaced(_fold(text)))}


def meaningful(text: str) -> list[str]:
    """`content` less the function words: what a question asks besides its frame ("descaling" in "What does section 2 of
    X say about descaling?"; nothing in "What is in section 2 of X?")."""
    return [w for w in content(text) if w not in FUNCTION_WORDS]


class Vocabulary:
    """The tokens of some passages, indexed by their first letters for the stem match."""

    def __init__(self, texts: Sequence[str]):
        self._sample, self._texts = " ".join(texts)[:SAMPLE_CHARS], tuple(texts)
        self.spelling = [(set(digits), text) for text in texts if (digits := spelled_digits(tokens(text), text))]  # "drei" (German): 3
        self._spelled_in: dict[str, Vocabulary] = {}  # each spelling text's own words, built when a claim's number asks
        self.written = {t for text in texts for t in tokens(text)}
        self.tokens = self.written | {number for digits, _ in self.spelling for number in digits}
        self._by_start: dict[str, list[str]] = {}
        self._stems: dict[str, bool] = {}
        for token in self.tokens:
            if len(token) >= _STEM_START and not is_number(token):
                self._by_start.setdefault(token[:_STEM_START], []).append(token)

    def spells(self, number: str, beside: Sequence[str]) -> bool:  # in a text holding another of the claim's words: "six bridges" is not "6 towers"
        return any(number in digits and (not beside or any(map(self._own(text).holds, beside))) for digits, text in self.spelling)

    def _own(self, text: str) -> Vocabulary:
        if text not in self._spelled_in:
            self._spelled_in[text] = Vocabulary([text])
        return self._spelled_in[text]

    def holds(self, token: str) -> bool:
        if token in self.tokens or is_number(token) or len(token) < MIN_LETTERS:
            return token in self.tokens
        if token not in self._stems:  # a review asks about the same words many times
            self._stems[token] = any(_same_word(token, other, lambda: self.language) for other in self._by_start.get(token[:_STEM_START], ()))
        return self._stems[token]

    def naming_more(self, terms: Iterable[str]) -> Vocabulary:
        """These texts with the terms among `terms` that name by a longer, dotted name a thing they hold ("pumps.spin"
        when they hold "spin"), each term's pieces too: a claim naming the thing asked by its full name tells nothing new by it."""
        longer = [t for t in terms if "." in t and any(map(self.holds, code_ends([t])))]
        return Vocabulary([*self._texts, *longer]) if longer else self

    @functools.cached_property
    def bare(self) -> frozenset[str]:  # the numbers of values stated with no unit ("Default: 64 * 1024"), read when a claim asks
        return frozenset(n for text in self._texts for n in bare_numbers(text))

    @functools.cached_property
    def language(self) -> str | None:  # read only when a stemmer must decide
        return likeliest_among(self._sample, _STEMMERS)


def _same_word(a: str, b: str, language: Callable[[], str | None] = lambda: None) -> bool:
    """One word in two forms: they share all but the last _STEM_SLACK letters of the shorter and at least
    _STEM_START letters, a short stem only with a short ending ("lie"/"lies", not "cat"/"catalog"), and when they
    share no more than _STEM_START, either one last letter apart ("July"/"Juli", in two languages) or as the stemmer of
    the passages' `language` has it ("city"/"cities", not "from"/"frost"); or the shorter, of MIN_LETTERS or more, starts the longer (an abbreviation: "temp", "temperature")."""
    short, long = sorted((len(a), len(b)))
    shared = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), short)
    if shared == short >= MIN_LETTERS:
        return True
    if not (shared >= max(_STEM_START, short - _STEM_SLACK) and (shared >= 5 or long - shared <= _STEM_SLACK)):
        return False
    stem = _stemmer(language()) if shared <= _STEM_START and long - shared > 1 else None
    return stem is None or stem(a) == stem(b)


@functools.cache
def _stemmer(language: str | None) -> Callable[[str], str] | None:
    """The Snowball stemmer of `language` as a cached function of a word; None for a language it has none for."""
    if language not in _STEMMERS:
        return None
    import snowballstemmer  # late: only a review needs it

    stemmer, lock = snowballstemmer.stemmer(_STEMMERS[language]), threading.Lock()

    @functools.lru_cache(maxsize=8192)
    def stem(word: str) -> str:
        with lock:  # a stemmer keeps its state while it works: one word at a time
            return stemmer.stemWord(word)

    return stem


def telling(token: str, asked: Vocabulary | None) -> float:
    """How much a claim's word tells: NEW_WEIGHT when the question (`asked`) does not hold it, times NUMBER_WEIGHT for a number."""
    return (1.0 if asked is not None and asked.holds(token) else NEW_WEIGHT) * (NUMBER_WEIGHT if is_number(token) else 1.0)


def around(sentence: str, said: Sequence[str], asked: Vocabulary, limit: int) -> str:
    """The `limit` characters of a longer sentence holding most of a claim's words (weighed by `told`), cut at spaces, the
    first such: a reference's options imported as one line are one long sentence, and its start held another option's
    value. Starts are tried every WINDOW_STEP characters or more; a spaceless script's sentence is cut after its start."""
    text = " ".join(sentence.split())
    if len(text) <= limit:
        return text
    starts = [0]
    for m in re.finditer(r" ", text):
        if m.end() - starts[-1] >= WINDOW_STEP and m.end() < len(text) - limit // 2:
            starts.append(m.end())
    return max((_cut(text, s, limit) for s in starts), key=lambda w: told(said, asked, Vocabulary([w])))  # the first of equals


def _cut(text: str, start: int, limit: int) -> str:
    """`limit` characters from `start`, ending at a space when one is near the end (a cut word, "SIGTE", would match a
    whole one, "SIGTERM"); a spaceless script's run, which may hold no space for hundreds of characters, is cut where it ends."""
    window = text[start : start + limit]
    space = window.rfind(" ")
    return window[:space] if start + limit < len(text) and space >= 0 and len(window) - space <= WINDOW_STEP else window


def told(said: Sequence[str], asked: Vocabulary, text: Vocabulary) -> float:
    """How much of a claim's words (`said`, as `tokens` gives them: a code, then its pieces) the text holds, each weighed by
    `telling`; a code's pieces only where the text lacks the code whole: "pumps.spin" is one name, not three."""
    pieces = {piece: code for code in said if is_number(code) for piece in tokens(code)[1:]}
    return sum(telling(t, asked) for t in said if text.holds(t) and not (t in pieces and text.holds(pieces[t])))
