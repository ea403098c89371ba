"""After the answer: the checks that keep it honest, and the citations it ends up with.

In order: an answer with no supported citation that states numbers no passage contains, or numbers, codes and
names none of which the passages it cites contain, came from the model's memory and becomes the not-found answer;
a citation pointing at the wrong passage is moved to the one that says it; an answer citing nothing gets a notice;
a citation whose passage may not back its sentence is flagged.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..types import Citation, Source
from .citation_check import check_citations, repair_citations, unfounded_facts, ungrounded_numbers
from .streaming import not_found_answer

_CITATION = re.compile(r"\[(\d+(?:\s*,\s*\d+)*)\]")


@dataclass(frozen=True)
class ReviewedAnswer:
    answer: str
    found: bool
    citations: tuple[Citation, ...]
    notices: tuple[str, ...]


def cited_numbers(answer: str) -> list[int]:
    numbers: list[int] = []
    for match in _CITATION.finditer(answer):
        for part in match.group(1).split(","):
            n = int(part)
            if n not in numbers:
                numbers.append(n)
    return numbers


def citations_of(answer: str, context: Sequence[Source]) -> list[Citation]:
    """The passages the answer cites, in the order first cited; numbers outside the context are ignored."""
    out = []
    for n in cited_numbers(answer):
        if 1 <= n <= len(context):
            out.append(Citation.from_passage(n, context[n - 1].passage))
    return out


def review_answer(
    answer: str,
    found: bool,
    question: str,
    context: Sequence[Source],
    sources: Sequence[Source],
    answered: bool = True,
    general_knowledge: bool = False,
) -> ReviewedAnswer:
    """`answered`: False when no answer was asked for (search only); `sources` name the closest pages of a refusal."""
    notices: list[str] = []
    written = answer
    if found and answer:
        answer, repaired = repair_citations(answer, context)
        for old, new in sorted(repaired.items()):
            notices.append(f"Citation [{old}] pointed at a passage that does not say this; it now points at [{new}].")
    # Judged after the repair: a fact cited to the wrong passage number is still the documents' fact.
    if answered and found and answer and not general_knowledge and not any(c.supported for c in check_citations(answer, context)):
        invented = ungrounded_numbers(answer, question, context)
        unfounded = set() if invented else unfounded_facts(answer, question, [context[n - 1] for n in cited_numbers(answer) if 1 <= n <= len(context)])
        if invented or unfounded:
            where = "no passage contains" if invented else "the passages it cites do not contain"
            facts = ", ".join(sorted(invented or unfounded))
            notices = [f"The model answered \u201c{written.strip()[:200]}\u201d, but {where} {facts}: that answer did not come from your documents."]
            answer, found = not_found_answer(sources or context), False
    citations = citations_of(answer, context) if found else []
    if answered and found and not citations:
        notices.append("The answer cites no passage; check it against the sources.")
    unsupported = {c.n for c in check_citations(answer, context) if not c.supported} if found else set()
    if unsupported:
        citations = [dataclasses.replace(c, supported=c.n not in unsupported) for c in citations]
        marks = ", ".join(f"[{n}]" for n in sorted(unsupported))
        notices.append(f"Citation {marks} may not support the sentence that cites it; check the passage.")
    return ReviewedAnswer(answer, found, tuple(citations), tuple(notices))
