"""Checks each cited sentence against the passage it cites, so unsupported citations can be flagged.

A sentence is supported by its passage when the passage holds what the sentence says, not only what it
names. Small models cite [2] for a fact from [1], state facts from memory, or change a number; naming
the product is not enough ("The PX-40 is made in Germany [2]" cites a page that names the PX-40 but says
nothing about Germany). So a sentence is supported (`support`) when

1. every number it states is in the passage ("2000", "2,000" and "2 000" are one number; "two" is 2);
2. every identifier it states is in the passage (a word mixing letters and digits: a model number, a code);
3. at least SUPPORT_THRESHOLD of its content terms are in the passage or its document's title, names
   (capitalised words) counting twice. Terms are compared after light normalisation: suffixes stripped
   ("replaced", "replacement" -> "replac"), units unified ("85 °C" = "85 degrees Celsius", "24 V" =
   "24 volts"), words broken at a line end joined, answer framing ("according to the document") ignored;

or when it quotes the passage word for word. The check is lexical on purpose: cheap, no model, and its
verdict is explained by the terms the passage lacks (`Support.missing`). It cannot see meaning: the
passage's own words in another relation ("the bearings are replaced every 2,000 hours" when the seals
are), a negation, or a number the passage uses for another fact pass; a paraphrase with several new
words ("Bell Labs" for "Bell Laboratories", "performs" for "is used for") is flagged.

Measured on tests/data/citation_support.jsonl: 123 hand-written (sentence, passage) pairs from the
sample datasheet and R-intro.pdf, 59 supported (paraphrases, units and separators written differently,
reordered clauses) and 64 unsupported (the same identifiers with an absent or different fact, a wrong
number, a supported part plus an invented one, the right fact cited to the wrong passage). The split
was fixed before any tuning; SUPPORT_THRESHOLD and NAME_WEIGHT were chosen on the "tune" half only
(0.75 is the highest threshold that flags no supported tune sentence). A per-clause rule made no
difference on the tune half and was dropped; so was the embedder's similarity between the sentence and
its closest passage sentence (MiniLM, tune half: the unsupported sentences it would add scored 0.55
and 0.58, a supported one 0.60: too thin a margin for 2 of the 13 misses). One bug (decimals such as "1.5" taken apart into "1" and
"5" in the passage) was found while reading the test half's errors and fixed. The positive class is
UNSUPPORTED, what the check must flag: precision = flagged sentences that are unsupported; recall =
unsupported sentences flagged; "kept" = supported sentences left unflagged (the other class's recall).
`python -m bench.citation_check_quality` prints:

    split  n    unsupported  check  precision  recall  supported kept
    tune    70           35    old      1.000   0.114           1.000
    tune    70           35    new      1.000   0.629           1.000
    test    53           29    old      0.750   0.103           0.958
    test    53           29    new      1.000   0.793           1.000
    all    123           64    old      0.875   0.109           0.983
    all    123           64    new      1.000   0.703           1.000

"old" is the rule before this one (half the content words, or every word with a digit in it, in the
passage), applied to the whole sentence; in the app it also split sentences at decimal points, which
flagged two more supported sentences. tests/unit/test_citation_check.py holds these numbers as a floor.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..stopwords import FUNCTION_WORDS
from ..types import Source

# Both chosen on the "tune" half of tests/data/citation_support.jsonl (see the module docstring).
SUPPORT_THRESHOLD = 0.75
NAME_WEIGHT = 2  # a wrong or invented name is a wrong fact: it counts twice
# A full stop followed at once by a letter or digit ("10.4", "help.start") does not end a sentence.
_SENTENCE = re.compile(r"(?:[^.!?\n]|[.!?](?=\w))+(?:[.!?]+|$)")
_MARK = re.compile(r"\[(\d+(?:\s*,\s*\d+)*)\]")


def _marked_numbers(text: str) -> list[int]:
    """The passage numbers of the citation marks in a text, in order ("[1, 3] ... [2]" -> 1, 3, 2)."""
    return [int(n) for m in _MARK.finditer(text) for n in m.group(1).split(",")]
_QUOTE = re.compile(r"[\"\u201c]([^\"\u201d]{8,})[\"\u201d]")
_STOP = FUNCTION_WORDS | frozenset(
    "but had has have if more most other not no yes per "
    # function words and modals that carry no fact of their own
    "up down out over under between each every both either neither nor just very must may might shall "
    "approximately around roughly least degree degrees after before during until through within "
    "anything something everything here "
    # answer framing: how the model refers to its sources, not what they say
    "according document documents passage passages context excerpt source sources datasheet manual "
    "states stated says said mentions mentioned notes noted indicates indicated specifies specified".split()
)
_NUMBER_WORDS = dict(
    zip("zero one two three four five six seven eight nine ten eleven twelve".split(), map(str, range(13)))
) | {"twenty": "20", "thirty": "30", "forty": "40", "fifty": "50", "hundred": "100", "thousand": "1000"}
# Units, by their usual spellings and symbols (general SI and trade units, not taken from any document).
_UNITS = {
    alias: unit
    for unit, aliases in {
        "celsius": "celsius degc", "fahrenheit": "fahrenheit degf", "kelvin": "kelvin",
        "volt": "volt volts v vdc vac", "kilovolt": "kv kilovolt kilovolts", "millivolt": "mv millivolt millivolts",
        "ampere": "a amp amps ampere amperes", "milliampere": "ma milliamp milliamps milliampere milliamperes",
        "watt": "w watt watts", "kilowatt": "kw kilowatt kilowatts", "ohm": "ohm ohms",
        "hertz": "hz hertz", "kilohertz": "khz kilohertz", "megahertz": "mhz megahertz", "gigahertz": "ghz gigahertz",
        "millisecond": "ms msec millisecond milliseconds", "second": "s sec secs second seconds",
        # "min" alone is minimum (_ABBREVIATIONS): a minute only after a number or "per"
        "minute": "min mins minute minutes", "hour": "h hr hrs hour hours", "day": "day days d",
        "millimetre": "mm millimetre millimetres millimeter millimeters",
        "centimetre": "cm centimetre centimetres centimeter centimeters",
        "metre": "m metre metres meter meters", "kilometre": "km kilometre kilometres kilometer kilometers",
        "litre": "l lt litre litres liter liters", "millilitre": "ml millilitre millilitres milliliter milliliters",
        "gram": "g gram grams", "kilogram": "kg kilo kilos kilogram kilograms", "milligram": "mg milligram milligrams",
        "pound": "lb lbs pound pounds", "bar": "bar bars", "pascal": "pa pascal pascals", "kilopascal": "kpa kilopascal kilopascals",
        "psi": "psi", "byte": "byte bytes", "kilobyte": "kb kilobyte kilobytes", "megabyte": "mb megabyte megabytes",
        "gigabyte": "gb gigabyte gigabytes", "rpm": "rpm", "percent": "percent pct",
    }.items()
    for alias in aliases.split()
}
# Aliases that are also ordinary words or letters ("a", "m", "s"): a unit only right after a number.
_UNIT_AFTER_NUMBER_ONLY = frozenset("a v w s h d m l g ms pa lt min mins".split())
# Abbreviations common in datasheets and tables ("Max. temp").
_ABBREVIATIONS = {"max": "maximum", "min": "minimum", "mins": "minimum", "temp": "temperature", "temps": "temperature"}
_SUFFIXES = (
    ("izations", ""), ("ization", ""), ("ations", ""), ("ation", ""), ("ments", ""), ("ment", ""), ("ings", ""),
    ("ing", ""), ("ions", ""), ("ion", ""), ("ies", "y"), ("ied", "y"), ("ers", ""), ("er", ""), ("ed", ""),
    ("ed", "e"), ("es", ""), ("es", "e"), ("ly", ""), ("s", ""),  # ("ed", "e"): "used" is "use" when "us" is too short
)


@dataclass(frozen=True)
class Term:
    text: str  # the normalised form compared with the passage's
    kind: str  # "number", "identifier", "name" or "word"


@dataclass(frozen=True)
class Support:
    supported: bool
    share: float  # weighted share of the sentence's content terms found in the passage
    missing: tuple[str, ...]  # the sentence's terms the passage lacks (normalised), for an explanation


@dataclass(frozen=True)
class CitationCheck:
    n: int
    sentence: str
    supported: bool
    overlap: float  # weighted share of the sentence's content terms found in the passage


def _stem(word: str) -> str:
    """Light suffix stripping, enough to match "replaced" with "replacement" and "rating" with "rated"."""
    for suffix, replacement in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) + len(replacement) >= 3:
            if suffix == "s" and word.endswith(("ss", "us", "is")):
                continue  # "brushless", "status", "axis": no plural to strip
            word = word[: len(word) - len(suffix)] + replacement
            break
    return word[:-1] if len(word) > 3 and word.endswith("e") else word


def _clean(text: str) -> str:
    """The same spelling for the same thing, in sentences and passages alike."""
    text = re.sub(r"(\w)-\s*\n\s*(\w)", r"\1\2", text)  # "pack-\nages": a word broken at the line end
    text = text.replace("\u2212", "-").replace("\u2013", "-").replace("\u2019", "'")
    text = re.sub(r"[°º]\s*C\b|\u2103", " celsius ", text)
    text = re.sub(r"[°º]\s*F\b|\u2109", " fahrenheit ", text)
    text = text.replace("%", " percent ")
    text = re.sub(r"/\s*(min|h|hr|s|sec)\b", r" per \1 ", text)  # "40 L/min": the unit after "per" is a unit
    # Thousands separators: "2,000", "2 000" and "2\u202f000" are 2000.
    text = re.sub(
        r"(?<![\d.,])\d{1,3}(?:[,\u00a0\u202f\u2009 ]\d{3})+(?![\d]|[.,]\d)",
        lambda m: re.sub(r"\D", "", m.group(0)),
        text,
    )
    return re.sub(r"(?<![\w.])\.(\d)", r"0.\1", text)  # ".2" is 0.2


def _number(token: str) -> str:
    """One spelling per value: "5.0" is 5, "007" is 7."""
    whole, _, fraction = token.partition(".")
    whole, fraction = whole.lstrip("0") or "0", fraction.rstrip("0")
    return f"{whole}.{fraction}" if fraction else whole


def _is_identifier(parts: list[str]) -> bool:
    """ "PX-40", "IP67", "UTF-8" name a thing; "10-by-10", "2-dimensional", "40-litre" are phrases."""
    if not any(c.isdigit() for c in "".join(parts)):
        return False
    if len(parts) == 1:
        return True
    words = [p for p in parts if not p.isdigit()]
    return all(p not in _STOP and p not in _UNITS and p not in _NUMBER_WORDS and len(p) <= 4 for p in words)


def terms(text: str) -> list[Term]:
    """The content terms of a text: numbers, identifiers, names and (stemmed) words, stop words left out."""
    out: list[Term] = []
    previous_was_number = False
    first_word = True
    for token in re.findall(r"[^\W_]+(?:[-.'][^\W_]+)*", _clean(text)):
        token = re.sub(r"'s$", "", token)
        if re.fullmatch(r"\d+(?:\.\d+)?(?:-\d+(?:\.\d+)?)*", token):  # a number, or a range "10-85"
            out.extend(Term(_number(n), "number") for n in token.split("-"))
            previous_was_number, first_word = True, False
            continue
        parts = [p for p in re.split(r"[-.']", token) if p]
        if _is_identifier([p.lower() for p in parts]):
            out.append(Term(("." if token[0].isdigit() else "").join(parts).lower(), "identifier"))
            previous_was_number, first_word = False, False
            continue
        for part in parts:
            lower = part.lower()
            if part.isdigit():
                out.append(Term(_number(part), "number"))
                previous_was_number = True
                continue
            capitalised = part[0].isupper() and len(part) > 1 and not first_word
            first_word = False
            if lower in _NUMBER_WORDS:
                out.append(Term(_NUMBER_WORDS[lower], "number"))
                previous_was_number = True
                continue
            if lower in _UNITS and (previous_was_number or lower not in _UNIT_AFTER_NUMBER_ONLY):
                out.append(Term(_UNITS[lower], "word"))
            elif lower in _ABBREVIATIONS:
                out.append(Term(_stem(_ABBREVIATIONS[lower]), "word"))
            elif lower not in _STOP:
                out.append(Term(_stem(lower), "name" if capitalised else "word"))
            previous_was_number = lower == "per"  # "litres per min": a unit follows "per" as it follows a number
    return out


def passage_vocabulary(text: str, title: str = "") -> frozenset[str]:
    """Everything a sentence's terms are looked up in: the passage's terms and its document's title
    (a page of the "PX-40 Pump Datasheet" is about the pump even when it does not say so), with
    hyphenated and dotted words also whole and in parts ("semi-colon" = "semicolon"), and words
    with digits also by their letters ("IP67" holds "ip" for "the IP rating"; ".RData5", a footnote
    mark glued on, holds "rdata")."""
    text = f"{title}\n\n{text}" if title else text
    vocabulary = {t.text for t in terms(text)}
    for token in re.findall(r"[^\W_]+(?:[-.'][^\W_]+)+|[^\W\d_]+\d+\b", _clean(text)):
        if re.fullmatch(r"[\d.-]+", token):
            continue  # "1.5", "5.7.3": a number or section number, not a word to take apart
        lower = token.lower()
        vocabulary.add(_stem(re.sub(r"[-.']", "", lower)))
        vocabulary.add(_stem(re.sub(r"\d+$", "", lower)))
        vocabulary.update(_stem(p) for p in re.split(r"[-.']", lower) if p and not p.isdigit())
    return frozenset(vocabulary)


def support(sentence: str, passage: str | frozenset[str]) -> Support:
    """Does the passage (its text, or its `passage_vocabulary`) hold what the sentence says? Every number
    and identifier of the sentence must be in it, and SUPPORT_THRESHOLD of its terms, names counting twice."""
    vocabulary = passage if isinstance(passage, frozenset) else passage_vocabulary(passage)
    claim = terms(sentence)
    if not claim:
        return Support(True, 1.0, ())
    missing = tuple(dict.fromkeys(t.text for t in claim if t.text not in vocabulary))
    weights = [NAME_WEIGHT if t.kind == "name" else 1 for t in claim]
    share = sum(w for t, w in zip(claim, weights) if t.text in vocabulary) / sum(weights)
    fact_missing = any(t.kind in ("number", "identifier") and t.text not in vocabulary for t in claim)
    return Support(not fact_missing and share >= SUPPORT_THRESHOLD, share, missing)


def supports(sentence: str, passage: str | frozenset[str]) -> bool:
    return support(sentence, passage).supported


def _quoted(sentence: str, passage: str) -> bool:
    """The sentence quotes the passage word for word: supported whatever the other words."""
    quotes = _QUOTE.findall(sentence)
    flat = " ".join(passage.lower().split())
    return bool(quotes) and all(" ".join(q.lower().split()) in flat for q in quotes)


def _sentences_with_citations(answer: str) -> list[tuple[str, list[int]]]:
    # Citations usually follow the full stop ("... 85 degrees. [1]"): attach a leading marker to the previous sentence.
    out: list[tuple[str, list[int]]] = []
    text = re.sub(r"([.!?])\s*((?:\[\d+(?:\s*,\s*\d+)*\]\s*)+)", r" \2\1 ", answer)
    for match in _SENTENCE.finditer(text):
        sentence = match.group(0).strip()
        numbers = _marked_numbers(sentence)
        if numbers:
            out.append((_MARK.sub("", sentence).strip(), numbers))
    return out


def check_citations(answer: str, context: Sequence[Source]) -> list[CitationCheck]:
    checks = []
    vocabularies: dict[int, frozenset[str]] = {}
    for sentence, numbers in _sentences_with_citations(answer):
        for n in dict.fromkeys(numbers):
            if not 1 <= n <= len(context):
                checks.append(CitationCheck(n, sentence, False, 0.0))
                continue
            passage = context[n - 1].passage
            if n not in vocabularies:
                vocabularies[n] = passage_vocabulary(passage.text, passage.title)
            verdict = support(sentence, vocabularies[n])
            checks.append(CitationCheck(n, sentence, _quoted(sentence, passage.text) or verdict.supported, verdict.share))
    return checks


_NUMBER = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?(?![\w])")


def _numbers(text: str) -> set[str]:
    return {n.replace(",", "").rstrip(".") for n in _NUMBER.findall(_MARK.sub(" ", text))}


def ungrounded_numbers(answer: str, question: str, context: Sequence[Source]) -> set[str]:
    """The numbers the answer states that no passage (and not the question) contains; empty when any is grounded.

    A small model asked about something the documents do not cover sometimes answers from memory and cites
    [1] anyway ("The default port of Redis is 6379 [1]"). When not one of the answer's numbers is in the
    passages, the answer did not come from them.
    """
    stated = _numbers(answer) - _numbers(question)
    if not stated:
        return set()
    in_passages = set().union(*(_numbers(s.passage.text) for s in context)) if context else set()
    return set() if stated & in_passages else stated


def unfounded_facts(answer: str, question: str, cited: Sequence[Source]) -> set[str]:
    """The facts the answer states (numbers, identifiers and names the question does not hold) when not one of
    them is in a passage it cites; empty when any is, or when it states none.

    `ungrounded_numbers`' case from the other side: the model often answers a question about something the
    library does hold, asking for a fact its pages do not state, from memory, and cites the page about that
    thing ("Jesse Owens was born in Alabama [1]" citing a page that never names the state). Numbers elsewhere
    in the context do not save such an answer: what it cites is what the user will check."""
    asked = {t.text for t in terms(question)}
    stated = {t.text for t in terms(_MARK.sub(" ", answer)) if t.kind in ("number", "identifier", "name")} - asked
    if not stated or not cited:
        return set()
    vocabulary = frozenset().union(*(passage_vocabulary(s.passage.text, s.passage.title) for s in cited))
    return set() if stated & vocabulary else stated


def repair_citations(answer: str, context: Sequence[Source]) -> tuple[str, dict[int, int]]:
    """Point a citation at the passage that really holds the sentence, when exactly that is clear.

    Small models often get the number wrong ("IP67 [3]" when passage [2] says IP67). When the cited
    passage does not support the sentence but another passage does (and best), the marker is changed
    in that sentence. Returns the new answer and {old number: new number} for the notice.
    """
    changes: dict[int, int] = {}
    pieces = []
    for match in _SENTENCE.finditer(answer) if answer else ():
        pieces.append((match.start(), match.end()))
    if not pieces:
        return answer, changes
    vocabularies = [passage_vocabulary(s.passage.text, s.passage.title) for s in context]
    out = answer
    # Work backwards so earlier offsets stay valid.
    for index in range(len(pieces) - 1, -1, -1):
        start, end = pieces[index]
        sentence = out[start:end]
        numbers = _marked_numbers(sentence)
        if not numbers:
            continue
        claim = _MARK.sub("", sentence)
        if not terms(claim) and index > 0:
            # Markers after the full stop ("... 11 bar. [2]") are a piece of their own: they cite the sentence before.
            claim = _MARK.sub("", out[pieces[index - 1][0] : pieces[index - 1][1]])
        if not terms(claim):
            continue
        verdicts = [support(claim, vocabulary) for vocabulary in vocabularies]
        # The best supporting passage: most of the sentence's terms among those that support it.
        best = max((i for i, v in enumerate(verdicts) if v.supported), key=lambda i: verdicts[i].share, default=-1)
        fixed = sentence
        for n in dict.fromkeys(numbers):
            cited_ok = 1 <= n <= len(context) and verdicts[n - 1].supported
            if cited_ok or best < 0 or best + 1 in numbers:
                continue
            fixed = re.sub(rf"\[{n}\]", f"[{best + 1}]", fixed)
            changes[n] = best + 1
        if changes:
            fixed = re.sub(r"(\[\d+\])(?:\s*\1)+", r"\1", fixed)  # "[1][1]" after two wrong markers pointed at one passage
        out = out[:start] + fixed + out[end:]
    return out, changes


def cite_uncited(answer: str, context: Sequence[Source]) -> tuple[str, list[int]]:
    """Cite a sentence that states a figure or code but cites nothing with the passage that says it.

    A small model sometimes states the answer in one sentence and cites only the next: "The IP rating of the
    PX-40 is IP67. This datasheet covers installation ... [1]". The answer's own fact then points nowhere and
    the page the user is shown is the other sentence's. Only sentences with a number or identifier are cited
    (a fact the user will want to check), only when a passage supports the whole sentence, and then the best
    supporting one, unless a later citation on the same line already points at it (a model often cites once at
    the end of a paragraph). Returns the new answer and the passage numbers added, in order."""
    pieces = [(m.start(), m.end()) for m in _SENTENCE.finditer(answer)] if answer else []
    vocabularies: list[frozenset[str]] | None = None
    out, added = answer, []
    for index in range(len(pieces) - 1, -1, -1):  # backwards, so earlier offsets stay valid
        start, end = pieces[index]
        sentence = out[start:end]
        following = out[pieces[index + 1][0] : pieces[index + 1][1]] if index + 1 < len(pieces) else ""
        if _MARK.search(sentence) or (_MARK.search(following) and not terms(_MARK.sub("", following))):
            continue  # cited, or cited by the markers right after its full stop ("... 11 bar. [2]")
        if "not found" in sentence.lower() or not any(t.kind in ("number", "identifier") for t in terms(sentence)):
            continue
        if vocabularies is None:
            vocabularies = [passage_vocabulary(s.passage.text, s.passage.title) for s in context]
        verdicts = [support(sentence, vocabulary) for vocabulary in vocabularies]
        best = max((i for i, v in enumerate(verdicts) if v.supported), key=lambda i: (verdicts[i].share, -i), default=-1)
        line_end = out.find("\n", end)
        if best < 0 or best + 1 in _marked_numbers(out[end : None if line_end < 0 else line_end]):
            continue  # nothing holds it, or the paragraph's closing citation already points at what does
        body = sentence.rstrip()
        stop = len(body) - 1 if body[-1:] in ".!?" else len(body)
        out = out[:start] + body[:stop] + f" [{best + 1}]" + body[stop:] + sentence[len(body) :] + out[end:]
        added.insert(0, best + 1)
    return out, added
