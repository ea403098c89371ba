"""After the answer: the checks that keep it honest, and the citations it ends up with.

In order: a citation pointing at the wrong passage is moved to the one that says it, and a sentence stating a
figure with no citation gets the passage that says it (citation_check.py). An answer whose cited
pages never mention the relation the question asks about ("born", "retired from acting"), while the answer
states it, joined the subject to a fact from elsewhere and becomes the not-found answer. An answer none of whose
citations is supported (a sentence naming the question's subject is not supported by a page that never names
it, nor one answering "who / how many" by a page holding none of its names or numbers) came from the model's
memory, not the documents, and becomes the not-found answer, when it states numbers no passage contains; or
numbers, codes and names none of which the passages it cites contain; or the subject's name, which none of
the passages it cites names; or a figure the question asks for that none of the pages about the subject holds
(question_fit.py). So does an answer of the wrong kind: one that only repeats the question, names no one to
"who did X?", or gives another dimension than the one asked. An answer citing nothing gets a notice; a
citation whose passage may not back its sentence is flagged.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..types import Citation, Source
from .citation_check import CitationCheck, check_citations, cite_uncited, repair_citations, unfounded_facts, ungrounded_numbers
from .question_fit import Page, answer_not_on, answer_outside, as_written, is_list_answer, missing_kind, off_subject, relation_not_on, subject_names
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
            out.append(Citation.from_passage(n, context[n - 1].passage, context[n - 1].also))
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
    listed = bool(answer) and is_list_answer(answer)  # a list's lines are matched to passages by list_lines.py
    if found and answer:
        answer, repaired = repair_citations(answer, context)
        for old, new in sorted(repaired.items()):
            notices.append(f"Citation [{old}] pointed at a passage that does not say this; it now points at [{new}].")
        if not listed:
            answer, cited = cite_uncited(answer, context)
            for n in cited:
                notices.append(f"A sentence stating a figure cited no passage; it now cites [{n}], which says it.")
    # Judged after the repair: a fact cited to the wrong passage number is still the documents' fact.
    fits = found and bool(answer) and not listed  # a list answer is checked line by line (list_lines.py)
    checks = check_citations(answer, context) if found and answer else []
    page = _pages(context)
    if fits:
        checks = _fit_checked(checks, question, page)
    if answered and found and answer and not general_knowledge:
        why = _not_from_documents(answer, question, context, checks, page if fits else None)
        if why:
            notices = [f"The model answered \u201c{written.strip()[:200]}\u201d, but {why}: that answer did not come from your documents."]
            answer, found = not_found_answer(sources or context), False
        elif fits:
            lacking = missing_kind(answer, question)
            if lacking:
                notices = [f"The model answered \u201c{written.strip()[:200]}\u201d, which does not say {lacking}: that does not answer the question."]
                answer, found = not_found_answer(sources or context), False
    citations = citations_of(answer, context) if found else []
    if answered and found and not citations:
        notices.append("The answer cites no passage; check it against the sources.")
    unsupported = {c.n for c in checks if not c.supported} if found else set()
    if unsupported:
        citations = [dataclasses.replace(c, supported=c.n not in unsupported) for c in citations]
        marks = ", ".join(f"[{n}]" for n in sorted(unsupported))
        notices.append(f"Citation {marks} may not support the sentence that cites it; check the passage.")
    return ReviewedAnswer(answer, found, tuple(citations), tuple(notices))


def _pages(context: Sequence[Source]) -> Callable[[int], Page]:
    """Passage n of the context (1-based) as question_fit reads it, each built once however often it is asked for."""
    built: dict[int, Page] = {}

    def page(n: int) -> Page:
        if n not in built:
            passage = context[n - 1].passage
            built[n] = Page.of(passage.text, passage.title)
        return built[n]

    return page


def _fit_checked(checks: Sequence[CitationCheck], question: str, page: Callable[[int], Page]) -> list[CitationCheck]:
    """The citation checks, with a sentence unsupported by a passage that never names the question's subject when
    the sentence does, that holds none of the names or numbers the sentence answers a "who / how many" with, or
    none of the question's words for the relation the sentence states ("born")."""
    return [
        dataclasses.replace(check, supported=False)
        if check.supported and _not_on_page(check.sentence, question, page(check.n))
        else check
        for check in checks
    ]


def _not_on_page(sentence: str, question: str, page: Page) -> bool:
    return bool(off_subject(sentence, question, [page]) or answer_not_on(sentence, question, page) or relation_not_on(sentence, question, [page]))


def _not_from_documents(
    answer: str, question: str, context: Sequence[Source], checks: Sequence[CitationCheck], page: Callable[[int], Page] | None
) -> str | None:
    """Why the answer did not come from the documents, for the notice; None when it may have. With `page`, an answer
    whose cited pages never mention the relation asked about; then, when no citation is supported, invented numbers
    and facts, and (with `page`) the question's subject and the figure asked for (question_fit.py)."""
    numbers = [n for n in cited_numbers(answer) if 1 <= n <= len(context)]
    if page is not None and numbers:
        # Before the sentence checks: a page can support a sentence the answer quotes from it while the sentence
        # that answers cites nothing ("X developed the vaccine. This was the first ... [2]").
        unmentioned = relation_not_on(answer, question, [page(n) for n in numbers])
        if unmentioned:
            said = " or ".join(f"\u201c{as_written({word}, question)}\u201d" for word in sorted(unmentioned, key=lambda w: question.lower().find(w)))
            return f"the passages it cites never mention {said}"
    if any(c.supported for c in checks):
        return None
    invented = ungrounded_numbers(answer, question, context)
    if invented:
        return f"no passage contains {', '.join(sorted(invented))}"
    unfounded = unfounded_facts(answer, question, [context[n - 1] for n in numbers])
    if unfounded:
        return f"the passages it cites do not contain {', '.join(sorted(unfounded))}"
    if page is None:
        return None
    cited_pages = [page(n) for n in numbers]
    absent = {name for c in checks for name in off_subject(c.sentence, question, cited_pages)} if cited_pages else set()
    if absent:
        return f"the passages it cites never name {as_written(absent, question)}"
    # The fact asked for ("How many ...": a number) must come from a page about the subject: of the pages the answer
    # cites (when it cites none, the pages it read), the ones that name every name of the question.
    names = subject_names(question)
    about = [p for p in (cited_pages or [page(n) for n in range(1, len(context) + 1)]) if all(p.names(name) for name in names)]
    outside = answer_outside(answer, question, about)
    if outside:
        where = "the passages it cites" if cited_pages else "the passages it read"
        subject = f" about {as_written(names, question)}" if names else ""
        return f"{where}{subject} do not contain {', '.join(sorted(outside))}"
    return None
