"""Answer-level metrics, as pure functions: what the user reads, not the ranking behind it.

- cited-evidence recall: the share of a question's relevant documents the answer cites
  (a citation [n] -> the n-th passage of the prompt -> its document -> its record);
- citation precision: the share of the documents the answer cites that are relevant;
- loose accuracy (FanOutQA's): the share of gold answer strings found in the answer, compared
  case- and punctuation-insensitively, numbers without thousands separators;
- supported share: the share of cited sentences the app's citation check accepts.

An answer that cites nothing (a "not found" answer, or one whose model forgot the brackets) has
recall 0 and NO precision: it claims nothing to be precise about. Its precision is None and is left
out of the mean; the share of answers that cite anything is reported beside it, so a mode cannot
look precise by citing less.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Iterable, Mapping, Sequence

from ..core.word_pieces import spaced

# FanOutQA strips these (fanoutqa/norm.py remove_punct); we strip every non-word character, so
# "U.S." and "U.S" compare alike and a hyphen or an apostrophe does not hide a name.
_PUNCTUATION = re.compile(r"[^\w\s]")
_THOUSANDS = re.compile(r"(?<!\d)\d{1,3}(?:,\d{3})+(?!\d)")


def flatten_answer(answer: object) -> list[str]:
    """FanOutQA's answer (str, number, bool, list or dict, nested) as the strings loose accuracy looks for.

    As fanoutqa/eval/string.py `answer_in_text` scores it: a list counts each item, a dict each key and
    each value, a bool is "yes"/"no". Whole numbers stored as floats lose their ".0".
    """
    if isinstance(answer, bool):
        return ["yes" if answer else "no"]
    if isinstance(answer, Mapping):
        return [s for key, value in answer.items() for s in (*flatten_answer(key), *flatten_answer(value))]
    if isinstance(answer, (list, tuple)):
        return [s for item in answer for s in flatten_answer(item)]
    if isinstance(answer, float) and answer.is_integer():
        return [str(int(answer))]
    text = str(answer).strip()
    return [text] if text else []


def normalize_text(text: str) -> str:
    """Lower case, numbers without thousands separators, no punctuation, single spaces; Chinese and Japanese as
    their pairs of characters (word_pieces.py), so a name inside a run of them is a run of whole words too.

    FanOutQA also lemmatizes with spaCy; we do not (no spaCy model here), so "country" does not
    match "countries": our accuracy is a little stricter than theirs on plural answers.
    """
    text = _THOUSANDS.sub(lambda m: m.group(0).replace(",", ""), text.lower())
    return " ".join(spaced(_PUNCTUATION.sub(" ", text)).split())


def gold_found(gold: Sequence[str], answer: str) -> list[bool]:
    """For each gold string: does the answer contain it, as whole words after normalizing both?"""
    haystack = f" {normalize_text(answer)} "
    found = []
    for item in gold:
        needle = normalize_text(item)
        found.append(bool(needle) and f" {needle} " in haystack)
    return found


def loose_accuracy(gold: Sequence[str], answer: str) -> float | None:
    """The share of gold strings found in the answer; None when there is no gold answer."""
    if not gold:
        return None
    found = gold_found(gold, answer)
    return sum(found) / len(found)


def all_correct(gold: Sequence[str], answer: str) -> bool | None:
    """Every part of the gold answer is in the answer; None when there is no gold answer."""
    return all(gold_found(gold, answer)) if gold else None


def cited_evidence_recall(cited: Iterable[str], relevant: Iterable[str]) -> float:
    """The share of the relevant records that the answer cites (0 when it cites none of them)."""
    relevant = set(relevant)
    return len(set(cited) & relevant) / len(relevant) if relevant else 0.0


def citation_precision(cited: Iterable[str], relevant: Iterable[str]) -> float | None:
    """The share of the cited records that are relevant; None when the answer cites nothing."""
    cited = set(cited)
    return len(cited & set(relevant)) / len(cited) if cited else None


def supported_share(checks: Sequence[tuple[str, bool]]) -> float | None:
    """The share of cited sentences that every one of their citations supports.

    `checks` is one (claim, supported) pair per cited claim (evaluation/claims.py `judged_claims`, which judges
    a claim against all the passages it cites together). A claim with an unsupported citation counts as
    unsupported: that is the claim the window marks with a warning.
    None when the answer cites nothing.
    """
    by_sentence: dict[str, bool] = {}
    for sentence, supported in checks:
        by_sentence[sentence] = by_sentence.get(sentence, True) and supported
    return sum(by_sentence.values()) / len(by_sentence) if by_sentence else None


def mean_of(values: Iterable[float | bool | None]) -> float | None:
    """The mean of the defined values (None ones are left out); None when there are none."""
    kept = [float(v) for v in values if v is not None]
    return statistics.fmean(kept) if kept else None


def median_of(values: Iterable[float | None]) -> float | None:
    kept = [v for v in values if v is not None]
    return statistics.median(kept) if kept else None
