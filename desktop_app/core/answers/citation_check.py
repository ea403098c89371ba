"""Checks each cited sentence against the passage it cites, so unsupported citations can be flagged.

A sentence is supported by passage [n] when the words it quotes appear in the passage, or when most
of its content words (numbers included) do. Small models sometimes cite [2] for a fact from [1] or
from nowhere; this makes that visible instead of lending the answer false authority.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..types import Source

SUPPORT_THRESHOLD = 0.5
_SENTENCE = re.compile(r"[^.!?\n]+(?:[.!?]+|$)")
_MARK = re.compile(r"\[(\d+(?:\s*,\s*\d+)*)\]")
_QUOTE = re.compile(r"[\"\u201c]([^\"\u201d]{8,})[\"\u201d]")
_STOP = frozenset(
    "a an and are as at be been but by can could did do does for from had has have how if in into is it its of on or "
    "so than that the their them then there these they this those to was we were what when where which who will with "
    "would you your also not no yes any all more most other some such per about".split()
)


@dataclass(frozen=True)
class CitationCheck:
    n: int
    sentence: str
    supported: bool
    overlap: float  # share of the sentence's content words found in the passage


def content_words(text: str) -> set[str]:
    words = set()
    for w in re.findall(r"[\w.,-]+", text.lower()):
        w = w.strip(".,-")
        if not w or w in _STOP:
            continue
        words.add(w.replace(",", "") if re.fullmatch(r"[\d,.]+", w) else w)
    return words


def supports(words: set[str], passage_words: set[str]) -> bool:
    """Most of the sentence's content words are in the passage, or every word with a digit in it is
    ("The IP rating of the PX-40 is IP67": px-40 and ip67 are the facts; "rating" may not be written)."""
    if not words:
        return True
    facts = {w for w in words if any(c.isdigit() for c in w)}
    return len(words & passage_words) / len(words) >= SUPPORT_THRESHOLD or (bool(facts) and facts <= passage_words)


def _sentences_with_citations(answer: str) -> list[tuple[str, list[int]]]:
    # Citations usually follow the full stop ("... 85 degrees. [1]"): attach a leading marker to the previous sentence.
    out: list[tuple[str, list[int]]] = []
    text = re.sub(r"([.!?])\s*((?:\[\d+(?:\s*,\s*\d+)*\]\s*)+)", r" \2\1 ", answer)
    for match in _SENTENCE.finditer(text):
        sentence = match.group(0).strip()
        numbers = [int(n) for m in _MARK.finditer(sentence) for n in m.group(1).split(",")]
        if numbers:
            out.append((_MARK.sub("", sentence).strip(), numbers))
    return out


def check_citations(answer: str, context: Sequence[Source]) -> list[CitationCheck]:
    checks = []
    for sentence, numbers in _sentences_with_citations(answer):
        words = content_words(sentence)
        quotes = _QUOTE.findall(sentence)
        for n in dict.fromkeys(numbers):
            if not 1 <= n <= len(context):
                checks.append(CitationCheck(n, sentence, False, 0.0))
                continue
            passage = context[n - 1].passage.text
            passage_words = content_words(passage)
            overlap = len(words & passage_words) / len(words) if words else 1.0
            quoted_ok = bool(quotes) and all(" ".join(q.lower().split()) in " ".join(passage.lower().split()) for q in quotes)
            checks.append(CitationCheck(n, sentence, quoted_ok or supports(words, passage_words), overlap))
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
    out = answer
    # Work backwards so earlier offsets stay valid.
    for index in range(len(pieces) - 1, -1, -1):
        start, end = pieces[index]
        sentence = out[start:end]
        numbers = [int(n) for m in _MARK.finditer(sentence) for n in m.group(1).split(",")]
        if not numbers:
            continue
        words = content_words(_MARK.sub("", sentence))
        if not words and index > 0:
            # Markers after the full stop ("... 11 bar. [2]") are a piece of their own: they cite the sentence before.
            words = content_words(_MARK.sub("", out[pieces[index - 1][0] : pieces[index - 1][1]]))
        if not words:
            continue
        passage_words = [content_words(s.passage.text) for s in context]
        overlaps = [len(words & pw) / len(words) for pw in passage_words]
        supported = [supports(words, pw) for pw in passage_words]
        # The best supporting passage: most shared words among those that support the sentence.
        best = max((i for i in range(len(context)) if supported[i]), key=lambda i: overlaps[i], default=-1)
        fixed = sentence
        for n in dict.fromkeys(numbers):
            cited_ok = 1 <= n <= len(context) and supported[n - 1]
            if cited_ok or best < 0 or best + 1 in numbers:
                continue
            fixed = re.sub(rf"\[{n}\]", f"[{best + 1}]", fixed)
            changes[n] = best + 1
        if changes:
            fixed = re.sub(r"(\[\d+\])(?:\s*\1)+", r"\1", fixed)  # "[1][1]" after two wrong markers pointed at one passage
        out = out[:start] + fixed + out[end:]
    return out, changes
