"""A list answer's lines checked against the evidence: one line per named thing, each saying something it found.

A small model writing a list answer (answers/prompts.py `list_instruction`) fails in two ways the evidence
can see, since it knows which named things the passages mention (answers/evidence.py):
- it writes a line for a name no passage mentions ("- Neymar: 5 [4]"): that line cannot come from the
  documents, and the code's own "not found" line for the name then contradicts it. The line becomes the
  not-found line, once.
- it writes the name and a citation and nothing else ("- Apple: [3]"): the user learns nothing. The line
  gets a sentence naming the thing in quotation marks (it is the document's text, not the model's): from the
  passage the line cites when that passage names it, else the sentence the evidence chose for the name.
Lines that state something about a found name are the model's answer and stay as written.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..types import Citation, Quote, Source
from .evidence import NOT_FOUND_LINE, not_found_line, sentence_citation, split_sentences, words
from .question_fit import LIST_ITEM as _ITEM
from .review import cited_numbers

_MARKS = re.compile(r"\s*\[\d+(?:\s*,\s*\d+)*\]")


@dataclass(frozen=True)
class CheckedList:
    answer: str
    unfounded: tuple[str, ...]  # names no passage mentions whose model-written line became the not-found line
    quoted: tuple[str, ...]  # names whose line said nothing and now quotes the evidence
    unlisted: tuple[str, ...]  # names no passage mentions and the model wrote no line for (the caller adds theirs)

    def notices(self) -> list[str]:
        """Why lines changed, for the notices under the answer."""
        out = []
        if self.unfounded:
            them = "it" if len(self.unfounded) == 1 else "them"
            out.append(
                f"No passage found mentions {', '.join(self.unfounded)}: the model's line about {them} did not come from your "
                "documents and now says not found."
            )
        if self.quoted:
            them = "it" if len(self.quoted) == 1 else "them"
            out.append(
                f"The model named {', '.join(self.quoted)} without saying anything about {them}; each such line now quotes a "
                "sentence naming it from the passages the model read."
            )
        return out


def _about(item: str, names: Sequence[str]) -> str | None:
    """The name a list item is about: the first whose distinctive words all start the item (before its colon,
    or within its first words when it has none)."""
    head = item.split(":", 1)[0] if ":" in item else " ".join(item.split()[:6])
    have = words(head)
    return next((n for n in names if words(n) and words(n) <= have), None)


def _says_nothing(item: str, name: str) -> bool:
    """Nothing but the name, punctuation and citation marks ("Apple: [3]", "Sachin Tendulkar [1]"); a number is
    something said ("Messi: 28 [3]"), right or wrong, and is left to the checks after the answer."""
    text = _MARKS.sub(" ", item)
    return not re.search(r"\d", text) and not (words(text) - words(name))


def _sentence_for(name: str, item: str, context: Sequence[Source]) -> Citation | None:
    """The first sentence naming `name` in the passage the line cites, as a citation of just that sentence:
    the model's choice of passage is kept when it holds the name."""
    for n in cited_numbers(item):
        if 1 <= n <= len(context):
            for sentence in split_sentences(context[n - 1]):
                if words(name) & words(sentence.text):
                    return sentence_citation(sentence, n)
    return None


def check_list_answer(
    answer: str, found: Sequence[str], missing: Sequence[str], quotes: Sequence[Quote], context: Sequence[Source] = ()
) -> CheckedList:
    """`found`: the names the model read evidence for; `missing`: the names no candidate passage mentions;
    `quotes`: the evidence's sentences, each with the name it was chosen for; `context`: the passages the model
    read, numbered as it cites them (a line's own citation is kept when its passage names the thing)."""
    quote_for = {q.name: q for q in quotes if q.name}
    lines, unfounded, quoted = [], [], []
    for line in answer.split("\n"):
        item = _ITEM.match(line)
        if item is None:
            lines.append(line)
            continue
        text = item.group(1)
        name_found = _about(text, found)
        name_missing = None if name_found else _about(text, missing)
        if name_missing is not None:
            if name_missing not in unfounded and NOT_FOUND_LINE not in text.lower():
                unfounded.append(name_missing)
            if not any(line == not_found_line(name_missing) for line in lines):
                lines.append(not_found_line(name_missing))
            continue
        if name_found is not None and _says_nothing(text, name_found):
            quote = _sentence_for(name_found, text, context) or (quote_for[name_found].citation if name_found in quote_for else None)
            if quote is not None:
                head = _MARKS.sub("", text).strip().rstrip(":-\u2013\u2014 ").strip() or name_found
                lines.append(f"- {head}: \u201c{quote.text}\u201d [{quote.n}]")
                quoted.append(name_found)
                continue
        lines.append(line)
    listed = {n for n in missing if any(line == not_found_line(n) for line in lines)}
    return CheckedList("\n".join(lines), tuple(unfounded), tuple(quoted), tuple(n for n in missing if n not in listed))
