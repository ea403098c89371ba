"""Filters written in the question (self-query): "in R-data.pdf", "on pages 10-20", "in my Word files",
"documents added this week", "since 2026-11-01".

Read by a small grammar, not by the model: it is deterministic and testable, costs no time before the
queries are written, and matches file names against the library's real document names (the model would
have to be shown every name, and may misspell one). The words it knows, per language, are in
filter_words.py. Each part it finds is a `FilterPart`: removed from the text that is searched, applied
exactly as a collection is (retrieval/scope.py), shown as a chip the person can remove.

A file name with an extension that matches no document is kept as a part with no documents: the answer
says there is no such document rather than searching everything.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path

from ..formats import FORMATS, format_of, suffixes
from ..types import ADDED, FILE, FORMAT, PAGES, DocumentName, FilterPart, QuestionFilters
from ..word_pieces import GLUED, SPACELESS
from .filter_words import LANGUAGES, FilterWords

# A name without its extension shorter than this is no file name ("in R", "in a"): it is searched as words.
MIN_NAME = 3


# A question's filter words may touch their neighbours without a space: "在R-data.pdf中", "R-data.pdf에서".
_START = rf"(?<![^\W{GLUED}])"  # no word character of a spaced script before: where "(?<!\w)" would be
_END = rf"(?![^\W{GLUED}])"


def _alternatives(words: Iterable[str]) -> str:
    return "|".join(sorted(set(words), key=len, reverse=True))


def _joined(pick: Callable[[FilterWords], Iterable[str]]) -> str:
    return _alternatives(w for language in LANGUAGES for w in pick(language))


def _then_space(pick: Callable[[FilterWords], Iterable[str]]) -> str:
    """Every language's words of one kind, each followed by the space a writer puts after it: none after a word of a
    script written without spaces ("在R-data.pdf"). Matches nothing when no language has such words."""
    words = {w for language in LANGUAGES for w in pick(language)}
    unspaced = {w for w in words if re.search(f"[{SPACELESS}]", w)}
    forms = [rf"(?:{_alternatives(group)}){space}" for group, space in ((words - unspaced, r"\s+"), (unspaced, r"\s*")) if group]
    return rf"(?:{'|'.join(forms) or '(?!)'})"


_ARTICLES = rf"(?:{_then_space(lambda w: w.articles)}){{0,2}}"
_PLACE = rf"(?:{_then_space(lambda w: w.places)}{_ARTICLES})"
_OWNER = _joined(lambda w: w.owner_places)
# Before a name with its extension: "of R-data.pdf" too.
_FILE_PLACE = rf"(?:{_then_space(lambda w: (*w.places, *w.owner_places))}{_ARTICLES})"
_AFTER_PLACE = rf"(?:\s*(?:{_joined(lambda w: w.after_places)}))"  # "R-data.pdf中", "R-data.pdfで"
_NUMBER = r"(\d+)"
_DIGITS = re.compile(r"\d+")  # \d is any script's decimal digit; int() reads them all
_SPACED_JOINERS = _joined(lambda w: (j for j in w.range_joiners if not re.search(f"[{SPACELESS}]", j)))
_UNSPACED_JOINERS = _joined(lambda w: (j for j in w.range_joiners if re.search(f"[{SPACELESS}]", j)))
_JOIN = rf"\s*(?:[-–—~～〜]|\s(?:{_SPACED_JOINERS})\s|{_UNSPACED_JOINERS})\s*"
# The place is optional before an article: "¿Qué dice la página 2?" leaves "¿Qué dice?", not "¿Qué dice la?".
_PAGE_PLACE = rf"(?:{_then_space(lambda w: (*w.places, *w.page_places))}?{_ARTICLES})"
_PAGES = re.compile(rf"{_START}{_PAGE_PLACE}?(?:{_joined(lambda w: w.page_words)})\s*{_NUMBER}(?:{_JOIN}{_NUMBER})?{_END}", re.IGNORECASE)
# Around the number: "第3页", "第3至5页", "第3到第5页"; after it, then a particle: "3ページに", "3~5페이지의".
_ORDINAL, _COUNTER = _joined(lambda w: w.page_before_number), _joined(lambda w: w.page_after_number)
_PAGES_AROUND = re.compile(rf"{_START}{_PAGE_PLACE}?(?:{_ORDINAL})\s*{_NUMBER}(?:{_JOIN}(?:{_ORDINAL})?\s*{_NUMBER})?\s*(?:{_COUNTER}){_AFTER_PLACE}?", re.IGNORECASE)
_PAGES_COUNTED = re.compile(rf"{_START}{_PAGE_PLACE}?{_NUMBER}(?:{_JOIN}{_NUMBER})?\s*(?:{_COUNTER})(?:{_AFTER_PLACE}|(?=\s*(?:{_joined(lambda w: w.page_needs)})))", re.IGNORECASE)
_FILE_NOUN = _joined(lambda w: w.file_nouns)


def _format_words(name: str, kind: str) -> str:
    """Every language's words for a file format (its name in formats.py) of one kind (a FilterWords field), as one
    alternation; "" when no language has any."""
    words = [w for language in LANGUAGES for w in getattr(language, kind).get(name, ())]
    return rf"(?:{_alternatives(words)})" if words else ""


def _format_pattern(alone: str, before: str, after: str) -> re.Pattern:
    """ "my PDFs", "the Word files", "den PDF-Dateien", "los archivos Word", after an optional "in the"."""
    forms = [f for f in (alone, before and rf"{before}[\s-]?(?:{_FILE_NOUN})", after and rf"(?:{_FILE_NOUN})\s+{after}") if f]
    return re.compile(rf"{_START}(?:{_PLACE}|{_ARTICLES})(?:{'|'.join(forms)}){_END}{_AFTER_PLACE}?", re.IGNORECASE)


_FORMATS = [
    (name, _format_pattern(*words))
    for name in (f.name for f in FORMATS)
    if any(words := [_format_words(name, kind) for kind in ("formats_alone", "formats_before_noun", "formats_after_noun")])
]
_INDEFINITE = re.compile(rf"{_START}{_then_space(lambda w: w.indefinite)}$", re.IGNORECASE)  # "to a text file": no filter
_SUFFIXES = _alternatives(s.lstrip(".") for s in suffixes())
# A file name with an importable extension: "report.docx", "R-data.pdf" (no spaces: a spaced name is matched
# only when the library has it).
_FILE_TOKEN = re.compile(rf"{_START}(?<![/\\]){_FILE_PLACE}?[\"'“‘]?(\w[\w.+~-]*\.(?:{_SUFFIXES}))[\"'”’]?{_END}{_AFTER_PLACE}?", re.IGNORECASE)

_DATE = r"(\d{4})-(\d{1,2})-(\d{1,2})|(\d{1,2})\.(\d{1,2})\.(\d{4})"
_ADDED = _joined(lambda w: w.added)
_SINCE, _AFTER, _BEFORE = (_joined(lambda w, k=k: getattr(w, k)) for k in ("since", "after", "before"))
_DATED = re.compile(rf"(?<!\w)(?:(?:{_ADDED})\s+(?:(?P<after>{_SINCE}|{_AFTER})|(?P<before>{_BEFORE}))|(?P<since>{_SINCE}))\s+(?:{_DATE})(?!\w)", re.IGNORECASE)
_PERIOD_NAMES = {phrase: key for lang in LANGUAGES for key, phrases in lang.periods.items() for phrase in phrases}
_LAST_DAYS = "|".join(rf"{a}\s*\d+\s*{b}" for a, b in {lang.last_days for lang in LANGUAGES} if a)
_PERIOD = rf"(?P<period>{_alternatives(_PERIOD_NAMES)}|{_LAST_DAYS})"
# Between the period and "added": a space, none ("本周添加的"), or a particle ("이번 주에 추가된").
_GAP = rf"\s*(?:(?:{_joined(lambda w: w.after_places)})\s*)?"
_RELATIVE = re.compile(rf"{_START}(?:(?:{_ADDED}){_GAP}{_PERIOD}|{_PERIOD.replace('period', 'period2')}{_GAP}(?:{_ADDED})){_END}", re.IGNORECASE)


def _midnight(day: datetime) -> datetime:
    return day.replace(hour=0, minute=0, second=0, microsecond=0)


def _utc(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M:%S")


def _period(name: str, now: datetime) -> tuple[datetime, datetime | None]:
    """A named period as local [start, end) (end None: until now)."""
    today = _midnight(now)
    week = today - timedelta(days=today.weekday())  # weeks start on Monday (ISO 8601)
    month = today.replace(day=1)
    days = _DIGITS.search(name)
    if days:
        return now - timedelta(days=int(days.group())), None
    return {
        "today": (today, None),
        "yesterday": (today - timedelta(days=1), today),
        "this_week": (week, None),
        "last_week": (week - timedelta(days=7), week),
        "this_month": (month, None),
        "last_month": ((month - timedelta(days=1)).replace(day=1), month),
    }[name]


def _date(match: re.Match, now: datetime) -> datetime | None:
    groups = [g for g in match.groups()[-6:]]
    year, month, day = (groups[0], groups[1], groups[2]) if groups[0] else (groups[5], groups[4], groups[3])
    try:
        return datetime(int(year), int(month), int(day), tzinfo=now.tzinfo)
    except (TypeError, ValueError):  # no such day ("2026-02-30"): not a date, searched as words
        return None


def _page_part(match: re.Match) -> FilterPart | None:
    first = int(match.group(1))
    last = int(match.group(2)) if match.group(2) else first
    first, last = min(first, last), max(first, last)
    if first < 1:
        return None
    label = f"page {first}" if first == last else f"pages {first}-{last}"
    return FilterPart(PAGES, match.group(0), label, pages=(first, last))


def _names(document: DocumentName) -> tuple[tuple[str, bool], ...]:
    """A document's names as a person may write them, each with whether it may stand alone (with its
    extension it is unmistakably a file; without it, a name needs "in"/"from"... before it). Its title counts
    only as a file name (with an extension): a title is how the document names its subject, so a question about
    that subject writes it too ("the largest towns in <a title>") and would be limited to that one document."""
    file = Path(document.path).name
    names = ((file, True), (Path(file).stem, False))
    return (*names, (document.title, True)) if format_of(document.title) else names


def _spans(text: str, library: Sequence[DocumentName], now: datetime) -> list[tuple[int, int, FilterPart]]:
    found: list[tuple[int, int, FilterPart]] = []
    named: dict[str, list[DocumentName]] = {}
    folded = text.casefold()
    for document in library:
        for name, alone in _names(document):
            # A plain substring test first: a library of 10,000 documents is 30,000 names, few of them in the question.
            if (alone or len(name.strip()) >= MIN_NAME) and name.casefold() in folded:
                named.setdefault(f"{name.casefold()}|{alone}", []).append(document)
    for key, documents in named.items():
        name, alone = key.rsplit("|", 1)
        # Without its extension a name needs "in"/"from" before it, or "of" after a number ("pages 3-4 of R-intro"),
        # or a place after it where a language puts it there ("说明书中", "マニュアルで").
        quoted = rf"[\"'“‘]?{re.escape(name)}[\"'”’]?(?!-){_END}"
        if alone == "True":
            pattern = rf"{_START}{_FILE_PLACE}?{quoted}{_AFTER_PLACE}?"
        else:
            pattern = rf"(?:{_START}{_PLACE}|(?<=\d)\s+(?:{_OWNER})\s+){quoted}{_AFTER_PLACE}?|{_START}{quoted}{_AFTER_PLACE}"
        for match in re.finditer(pattern, text, re.IGNORECASE):
            label = Path(documents[0].path).name
            found.append((match.start(), match.end(), FilterPart(FILE, match.group(0), label, documents=tuple(sorted({d.id for d in documents})))))
    known = {Path(d.path).name.casefold() for d in library}
    for match in _FILE_TOKEN.finditer(text):
        token = match.group(1).casefold()
        # Glued to the words before it ("请问R-data.pdf"), a token may begin before the name: a known name ending it is that file.
        if token not in known and not any(token.endswith(name) and re.fullmatch(rf"[\w.+~-]*[{GLUED}]", token[: -len(name)]) for name in known):
            found.append((match.start(), match.end(), FilterPart(FILE, match.group(0), match.group(1))))
    for match in (*_PAGES.finditer(text), *_PAGES_AROUND.finditer(text), *_PAGES_COUNTED.finditer(text)):
        part = _page_part(match)
        if part:
            found.append((match.start(), match.end(), part))
    for name, pattern in _FORMATS:
        for match in (m for m in pattern.finditer(text) if not _INDEFINITE.search(text[: m.start()])):
            found.append((match.start(), match.end(), FilterPart(FORMAT, match.group(0), f"{name} files", format=name)))
    for match in _DATED.finditer(text):
        day = _date(match, now)
        if day is None:
            continue
        if match.group("before"):
            part = FilterPart(ADDED, match.group(0), f"added before {day:%Y-%m-%d}", added_before=_utc(day))
        else:
            part = FilterPart(ADDED, match.group(0), f"added since {day:%Y-%m-%d}", added_after=_utc(day))
        found.append((match.start(), match.end(), part))
    for match in _RELATIVE.finditer(text):
        period = (match.group("period") or match.group("period2")).lower()
        name = _PERIOD_NAMES.get(" ".join(period.split()), period)
        label = "added " + (name.replace("_", " ") if name in _PERIOD_NAMES.values() else "in the last {} days".format(int(_DIGITS.search(name).group())))
        start, end = _period(name, now)
        part = FilterPart(ADDED, match.group(0), label, added_after=_utc(start), added_before=_utc(end) if end else "")
        found.append((match.start(), match.end(), part))
    return found


def _without_overlaps(spans: list[tuple[int, int, FilterPart]], blocked: list[tuple[int, int]]) -> list[tuple[int, int, FilterPart]]:
    """The longest span wins where two overlap ("in R-data.pdf" over "in R-data"); spans over an ignored phrase go."""
    kept: list[tuple[int, int, FilterPart]] = []
    for start, end, part in sorted(spans, key=lambda s: (-(s[1] - s[0]), s[0])):
        taken = blocked + [(s, e) for s, e, _ in kept]
        if all(end <= s or start >= e for s, e in taken):
            kept.append((start, end, part))
    return sorted(kept, key=lambda s: s[0])


def _cut(text: str, spans: Sequence[tuple[int, int, FilterPart]]) -> str:
    """The text without the spans, its spaces and punctuation tidied ("What is X in a.pdf?" -> "What is X?")."""
    out, last = "", 0
    for start, end, _ in spans:
        out += text[last:start] + " "
        last = end
    out += text[last:]
    out = re.sub(r"\s+([,.;:?!])", r"\1", " ".join(out.split()))
    out = re.sub(rf"(?<=[{SPACELESS}]) (?=[{SPACELESS}])", "", out)  # "请问R-data.pdf中如何" -> "请问如何", unspaced as written
    out = re.sub(r"([,;:])(?=[,.;:?!]|$)", "", out)  # a comma left before the end or another mark
    out = re.sub(r"\s*[(\[\uff08][\s,;:\u3001]*[)\]\uff09]", "", out)  # brackets left holding nothing: "X? (in a.pdf)" -> "X?"
    return out.strip(" ,;:")


def read_filters(text: str, library: Sequence[DocumentName], ignored: Sequence[str] = (), now: datetime | None = None) -> QuestionFilters:
    """The filters `text` states, matched against the library's documents; phrases in `ignored` are not read."""
    now = now or datetime.now().astimezone()
    blocked = [(m.start(), m.end()) for phrase in ignored if phrase for m in re.finditer(re.escape(phrase), text, re.IGNORECASE)]
    spans = _without_overlaps(_spans(text, library, now), blocked)
    if not spans:
        return QuestionFilters(text, text, (), tuple(ignored))
    searched = _cut(text, spans) or text
    return QuestionFilters(text, searched, tuple(part for _, _, part in spans), tuple(ignored))


def with_earlier(filters: QuestionFilters, earlier: Sequence[str], library: Sequence[DocumentName], now: datetime | None = None) -> QuestionFilters:
    """A follow-up's filters with those of the chat's turn before it (`earlier`: their phrases) of each kind it states none of:
    "and what about ODBC?" after a question "in R-data.pdf" is asked of that file, "and on pages 30-32?" of those pages of it.
    Pages go with their file: a follow-up naming another file is asked of all of it. The phrases are read again against
    today's library (a file removed since says so); one the person removed stays out. They are added to the text the
    filters were read from, in brackets, so a re-run or a removed chip reads them as written."""
    kinds = {part.kind for part in filters.parts} | ({PAGES} if any(part.kind == FILE for part in filters.parts) else set())  # pages were another file's
    kept = tuple(part for part in read_filters("; ".join(earlier), library, filters.ignored, now).parts if part.kind not in kinds) if earlier else ()
    if not kept:
        return filters
    return QuestionFilters(f"{filters.text} ({'; '.join(part.phrase for part in kept)})", filters.searched, (*filters.parts, *kept), filters.ignored)


def no_match_answer(filters: QuestionFilters, library: Sequence[DocumentName], allowed_chunks: set[int] | None) -> str | None:
    """What to answer when the filters leave nothing to search, instead of searching everything: a named file
    the library does not have (with the names closest to it), or filters no passage meets. None: search."""
    if filters.unknown_files:
        names = {Path(d.path).name.casefold(): Path(d.path).name for d in library}
        lines = []
        for name in filters.unknown_files:
            close = [names[n] for n in difflib.get_close_matches(name.casefold(), list(names), n=3, cutoff=0.6)]
            lines.append(f"No document named {name} in your library." + (f" Did you mean {' or '.join(close)}?" if close else ""))
        return " ".join(lines)
    if allowed_chunks is not None and not allowed_chunks:
        return f"No passage in your library matches the question's filters ({', '.join(p.label for p in filters.parts)})."
    return None


@dataclass
class WithoutFilters:
    """A claim without the phrases that restate `asked`'s filters, read by the same grammar ("La page 2 de X.pdf
    décrit ...": the page its passage is on, which its text need not say); other words are kept. A value, not a
    closure, so a recorded review (bench/answer_cache.py) can be stored and judged again."""

    library: tuple[DocumentName, ...]
    asked: QuestionFilters
    _seen: dict[str, str] = field(default_factory=dict, repr=False, compare=False)  # the review reads a claim once per passage

    def __call__(self, claim: str) -> str:
        if claim not in self._seen:
            wanted, out = {(p.kind, p.label) for p in self.asked.parts}, claim
            for part in read_filters(claim, self.library).parts:
                if (part.kind, part.label) in wanted:
                    out = out.replace(part.phrase, " ")
            self._seen[claim] = out
        return self._seen[claim]
