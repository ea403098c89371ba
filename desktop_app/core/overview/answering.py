"""Whole-document questions answered from overviews, as the same typed events as a passage answer.

    SourcesRanked (the key sentences given to the model) -> StageStarted(reading) -> Token ... -> AnswerDone

No search queries are written and no passages searched. The model reads the document's outline and its
numbered central sentences; its citations point at those sentences, on the pages where they are. What was
used is said in `AskResult.answered_from` ("Answered from the outline of R-intro.pdf, chapter 6") and as a
notice. "Which of my files covers Z" needs no model: the overviews are ranked by their closeness to Z.
A document's abstract (what "what is X about?" gets) is written once and cached (abstract.py).
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..languages import language_clause
from ..answers.review import citations_of, review_answer
from ..answers.streaming import stream_answer
from ..document_overview import PAGE_RUNS, CentralSentence, Overview, OverviewSection
from ..events import READING, AnswerDone, AskEvent, SourcesRanked, StageStarted, Token
from ..models.embedder import Embedder
from ..models.llm import Generator as LLM
from ..settings import Settings
from ..storage.store import Store
from ..retrieval.question_filters import WithoutFilters
from ..types import AskResult, Passage, QuestionFilters, Source, Timings
from . import overview_prompts as prompts
from .building import build_and_save
from .intent import COMPARE, CONTENTS, PAGES, PART, WHICH, Restated, WholeDocumentQuestion, classify, may_be_whole_document_question
from .page_span import headings_of, page_sentences, section_of, sections_on
from .selection import (
    COMPARE_SENTENCES,
    OUTLINE_LINES,
    PART_SENTENCES,
    WHICH_SHOWN,
    find_part,
    key_sentences,
    name_words,
    numbered,
    outline_for_prompt,
    part_sentences,
    rank_by_topic,
    sentence_source,
    shown_coverage,
)


@dataclass(frozen=True)
class Plan:
    """What an answer reads and how: the numbered key sentences, the prompt, and what the panel says was used."""

    context: tuple[Source, ...]
    messages: list[dict[str, str]] | None  # None: the answer is `ready`, no model call
    answered_from: str
    ready: str = ""  # a cached abstract, or an answer written without the model
    abstract_of: int | None = None  # the document whose abstract this answer is (cached once written)
    restated: Callable[[str], str] | None = None  # what the answer's sentences may restate of the question, read without it
    headings: tuple[str, ...] = ()  # each key sentence's headings in the outline the model read with it (review.py's `under`)


class NotFromOverview(Exception):
    """The overview cannot answer this whole-document question; the message says why, and the passage search takes it."""


class NotReady(NotFromOverview):
    def __init__(self, name: str):
        super().__init__(f"The overview of {name} is not ready yet (its meaning index is still being built), so this was answered from passages.")


def whole_document_question(store: Store, question: str) -> WholeDocumentQuestion | None:
    """The question's whole-document intent, or None for an ordinary question."""
    # A document named outright is meant even outside the ticked ones (naming it is the scope);
    # "which of my files" ranks the documents in scope (plan_answer).
    return classify(question, store.documents()) if may_be_whole_document_question(question) else None


def overview_of(store: Store, embedder: Embedder, document_id: int) -> Overview:
    """A named document's overview, built now if the queue has not reached it (its meaning index is complete)."""
    overview = store.overview(document_id)
    if overview is not None:
        return overview
    document = store.document(document_id)
    if document is None or document.status != "ready":
        raise NotReady(Path(document.path).name if document else str(document_id))
    built = build_and_save(store, embedder, document_id)
    if built is None:
        raise NotReady(Path(document.path).name)
    return built


def plan_answer(
    store: Store, embedder: Embedder, routed: WholeDocumentQuestion, question: str, allowed_documents: Sequence[int] | None, filters: QuestionFilters | None = None
) -> Plan:
    """What to read for a whole-document question. Raises NotFromOverview when the overview cannot answer it (not
    built yet, or a chapter its outline does not have): the passage search then takes the question. `filters`: the
    question's (PAGES: the run of pages and the file its sentences may restate)."""
    if routed.kind == WHICH:
        return _plan_which(store, embedder, routed, allowed_documents)
    if not routed.documents:  # described, not named: the one document its words point to, or ask which
        described = _described(store, embedder, routed.topic, allowed_documents)
        if isinstance(described, Plan):
            return described
        routed = dataclasses.replace(routed, documents=(described,))
    if routed.kind == PAGES:
        return _plan_pages(store, embedder, routed, question, filters)
    overviews = [overview_of(store, embedder, i) for i in routed.documents]
    if routed.kind == COMPARE:
        return _plan_compare(store, embedder, overviews[0], overviews[1], question)
    overview = overviews[0]
    name = Path(overview.file).name
    if sum(Path(d.path).name == name for d in store.documents()) > 1:  # two folders' manual.html: say which
        name = f"{name} ({overview.title})"
    if routed.kind == CONTENTS:
        return _plan_contents(overview, name)
    if routed.kind == PART:
        part = find_part(overview, routed.part)
        if part is None:
            raise NotFromOverview(f"The outline of {name} has no part numbered {routed.part}, so this was answered from passages.")
        picked = part_sentences(overview, part)
        context = numbered(overview, picked)
        pages = f"page {part.page}" if part.last_page == part.page else f"pages {part.page}–{part.last_page}"
        block = prompts.document_block(overview.file, overview.title, overview.subtree(part)[:OUTLINE_LINES], context)
        instruction = prompts.INSTRUCTIONS["part"].format(part=f'"{part.title}"', name=name)
        restated = Restated(_file_names(overview), routed.part)
        return Plan(tuple(context), prompts.overview_messages([block], question, instruction), f"Answered from the outline of {name}, {part.title} ({pages})", restated=restated, headings=_headings(overview, picked))
    vector = _document_vector(store, overview.document_id)
    picked = key_sentences(overview, vector, embedder)
    context = numbered(overview, picked)
    block = prompts.document_block(overview.file, overview.title, outline_for_prompt(overview), context)
    # The kept abstract is in the instructions' language: a question whose prompt asks for its own (the same clause
    # overview_messages adds) gets one written in it, which is not kept in its place.
    in_default_language = not language_clause(question, [block])
    abstract_of = overview.document_id if in_default_language else None
    # A kept abstract is read by the same check as a fresh one (answer_from_overviews), so it needs the same context.
    check_with = {"abstract_of": abstract_of, "restated": Restated(_file_names(overview)), "headings": _headings(overview, picked)}
    if overview.abstract and in_default_language:
        return Plan(tuple(context), None, f"Answered from the abstract of {name} (written earlier from its overview)", ready=overview.abstract, **check_with)
    instruction = prompts.INSTRUCTIONS["abstract"].format(name=name)
    return Plan(tuple(context), prompts.overview_messages([block], question, instruction), f"Answered from the overview of {name}", **check_with)


def _plan_pages(store: Store, embedder: Embedder, routed: WholeDocumentQuestion, question: str, filters: QuestionFilters | None) -> Plan:
    """"Summarize pages 10-12 of X": those pages' central sentences, numbered as a chapter's are, under the outline's
    sections on them (when its overview is built); the model summarises them citing each."""
    document = store.document(routed.documents[0])
    if document is None or document.status != "ready":
        raise NotReady(Path(document.path).name if document else str(routed.documents[0]))
    first, last = routed.pages[0], min(routed.pages[1], max(document.pages, routed.pages[0]))
    name, span = Path(document.path).name, f"{document.unit} {first}" if first == last else f"{document.unit}s {first}\u2013{last}"
    overview = store.overview(document.id)
    picked = page_sentences(store, embedder, document.id, (first, last), overview, PART_SENTENCES)
    if not picked:
        raise NotFromOverview(f"{span.capitalize()} of {name} {'has' if first == last else 'have'} no text indexed for meaning, so this was answered from passages.")
    context = [
        Source(n, Passage(c.chunk_id, document.id, document.path, document.title, c.page, c.start, c.end, c.text, section=s.cited_section if (s := section_of(overview, c)) else None), 0.0, {}, c.score)
        for n, c in enumerate(picked, start=1)
    ]
    block = prompts.document_block(document.path, document.title, sections_on(overview, (first, last))[:OUTLINE_LINES], context)
    instruction = prompts.INSTRUCTIONS["part"].format(part=span, name=name)
    # "Pages 10-12 of X describe ...": where the sentences are, which their text need not say (as "chapter 6" for a part).
    restated = WithoutFilters(tuple(store.document_names()), filters) if filters is not None else Restated((name, Path(name).stem))
    return Plan(tuple(context), prompts.overview_messages([block], question, instruction), f"Answered from the key sentences of {name}, {span}", restated=restated, headings=headings_of(overview, picked))


CONTENTS_LINES = 60  # outline lines a contents answer lists at most ("... and N more")


def _plan_contents(overview: Overview, name: str) -> Plan:
    """"Which chapters does X have?": its outline's chapters, each with its page and cited there (a click opens it),
    written without the model. With fewer than three chapters, their sections are listed under them. An outline of
    page runs (no table of contents, no headings) has no chapters to list: the passage search takes the question."""
    if overview.outline_source == PAGE_RUNS or not overview.sections:
        raise NotFromOverview(f"{name} has no table of contents or headings the app could read, so this was answered from passages.")
    chapters = overview.chapters()
    listed = [s for c in chapters for s in overview.subtree(c) if s.level <= c.level + 1] if len(chapters) < 3 else list(chapters)
    context = [Source(n, overview.passage(s), 0.0, {}, 0.0) for n, s in enumerate(listed[:CONTENTS_LINES], start=1)]
    lines = [f"{'  ' * (s.level > chapters[0].level)}- {s.title} (p. {s.page}) [{n}]" for n, s in enumerate(listed[:CONTENTS_LINES], start=1)]
    more = f"\n… and {len(listed) - CONTENTS_LINES} more" if len(listed) > CONTENTS_LINES else ""
    return Plan(tuple(context), None, f"Answered from the outline of {name}", ready="\n".join(lines) + more)


def _headings(overview: Overview, picked: Sequence[tuple[OverviewSection, CentralSentence]]) -> tuple[str, ...]:
    return tuple(f"{overview.heading_path(section)} (p. {section.page})" for section, _ in picked)  # as the outline shows them


def _described(store: Store, embedder: Embedder, topic: str, allowed_documents: Sequence[int] | None) -> int | Plan:
    """The document "summarize the router manual" means: the only one searched, else the one whose overview is
    closest to the words that describe it ("router") with no other close to it (as "which of my files" names
    one). Else a Plan that asks which, naming the closest; nothing is guessed."""
    searched = [d.id for d in store.documents() if d.kind == "text" and d.chunks > 0 and (allowed_documents is None or d.id in allowed_documents)]
    if len(searched) == 1:
        return searched[0]  # its overview is built now if the queue has not reached it
    vectors = {i: v for i, v in store.overview_vectors(searched).items() if v.document is not None}
    if len(vectors) < len(searched):  # chosen among some of them, the one meant could be one without
        raise NotFromOverview(
            f"{len(searched) - len(vectors)} of the {len(searched)} documents searched have no overview yet (they are built after the meaning index), so this was answered from passages."
        )
    ranked = rank_by_topic(embedder.embed([topic])[0], vectors, topic, _names(store)) if topic and vectors else []
    shown = shown_coverage(ranked)
    if len(shown) == 1:
        return shown[0].document_id
    names = [Path(d.path).name for i in ([c.document_id for c in ranked[:WHICH_SHOWN]] or list(vectors)[:WHICH_SHOWN]) if (d := store.document(i))]
    if not names:
        raise NotFromOverview("Your library has no document to summarise, so this was answered from passages.")
    answer = f"Which document do you mean? Name it in the question, for example “Summarize {names[0]}”. " + (
        f"Closest to “{topic}”: " if topic else "Your documents include: ") + ", ".join(names) + "."
    return Plan((), None, f"Asked which of {len(vectors)} documents is meant", ready=answer)


def _file_names(overview: Overview) -> tuple[str, ...]:
    return Path(overview.file).name, Path(overview.file).stem


def _names(store: Store) -> dict[int, str]:
    return {d.id: name_words(d.path, d.title) for d in store.documents()}


def _document_vector(store: Store, document_id: int) -> np.ndarray | None:
    found = store.overview_vectors([document_id]).get(document_id)
    return found.document if found is not None else None


def _plan_compare(store: Store, embedder: Embedder, first: Overview, second: Overview, question: str) -> Plan:
    blocks, context, headings = [], [], ()
    for overview in (first, second):
        vector = _document_vector(store, overview.document_id)
        picked = key_sentences(overview, vector, embedder, COMPARE_SENTENCES)
        mine = numbered(overview, picked, first=len(context) + 1)
        blocks.append(prompts.document_block(overview.file, overview.title, outline_for_prompt(overview)[:12], mine, len(context) + 1))
        context += mine
        headings += _headings(overview, picked)
    names = Path(first.file).name, Path(second.file).name
    instruction = prompts.INSTRUCTIONS["compare"].format(name=names[0], other=names[1])
    restated = Restated(_file_names(first) + _file_names(second))
    return Plan(tuple(context), prompts.overview_messages(blocks, question, instruction), f"Answered from the overviews of {names[0]} and {names[1]}", restated=restated, headings=headings)


def _plan_which(store: Store, embedder: Embedder, routed: WholeDocumentQuestion, allowed_documents: Sequence[int] | None) -> Plan:
    vectors = store.overview_vectors(allowed_documents)
    topic_vector = embedder.embed([routed.topic])[0]
    shown = shown_coverage(rank_by_topic(topic_vector, vectors, routed.topic, _names(store)))
    context: list[Source] = []
    lines = []
    for coverage in shown:
        overview = store.overview(coverage.document_id)
        if overview is None:
            continue
        picked = []
        for position in coverage.sections:
            section = overview.sections[position]
            if section.sentences:
                picked.append((section, max(section.sentences, key=lambda c: c.score)))
        marks = ""
        for section, sentence in picked:
            context.append(sentence_source(overview, section, sentence, len(context) + 1))
            marks += f"[{len(context)}]"
        places = "; ".join(f"{s.title} (p. {s.page})" for s, _ in picked)
        lead = "Most about it: " if not lines else "Also close: "
        lines.append(f"{lead}{Path(overview.file).name}" + (f", see {places} {marks}" if places else ""))
    searched = len(vectors)
    if not lines:
        answer = "None of your documents has an overview yet; they are built after the meaning index."
    else:
        answer = "\n".join(lines)
    return Plan(tuple(context), None, f"Answered from the overviews of {searched} document{'s' if searched != 1 else ''}", ready=answer)


def answer_from_overviews(
    store: Store,
    embedder: Embedder,
    generator: Callable[[], LLM],
    settings: Settings,
    plan: Plan,
    question: str,
    mode: str,
    started: float,
    cancel: threading.Event | None = None,
    standalone_question: str = "",
    filters: QuestionFilters | None = None,
) -> Iterator[AskEvent]:
    context = plan.context
    yield SourcesRanked((), context, context, answered_from=plan.answered_from)
    yield StageStarted(READING, len(context))
    answer_started = time.perf_counter()
    stopped: list[str] = []  # the notice of a reply stopped for repeating itself
    if plan.messages is None:
        first_token_at = time.perf_counter()
        yield Token(plan.ready)
        answer, found = plan.ready, True
    else:
        pieces = generator().stream(plan.messages, max_tokens=settings.max_answer_tokens, temperature=settings.temperature)
        answer, found, first_token_at = yield from stream_answer(pieces, lambda: "The overview does not say.", cancel, stopped)
    end = time.perf_counter()
    # The same grounding check as for passage answers: a claim citing nothing gets the key sentence that states
    # it, a wrong citation moves, an unsupported one is flagged. It vetoes nothing here (general_knowledge): a
    # summary is the model's own words over the overview, and the person asked for exactly that.
    # An answer the app wrote itself ("which file") cites what it was made from: nothing to check. A kept abstract is
    # checked again, so it is served with the flags it was first shown with.
    written = plan.messages is not None
    checked = written or plan.abstract_of is not None
    answer = (prompts.without_instruction_echoes(answer) or answer) if checked else answer
    reviewed = review_answer(answer, found, question, context, context, general_knowledge=True, embedder=embedder, unlocated=plan.restated, under=plan.headings) if checked else None
    answer = reviewed.answer if reviewed else answer
    citations = reviewed.citations if reviewed else tuple(citations_of(answer, context))
    if written and plan.abstract_of is not None and found and not (cancel is not None and cancel.is_set()):
        store.save_abstract(plan.abstract_of, answer, settings.model)  # kept as shown, with the citations it got
    notices = [plan.answered_from, *stopped, *(reviewed.notices if reviewed else ())]  # "The answer cites no passage" when it still cites none
    yield AnswerDone(
        AskResult(
            question=question, mode=mode, queries=(), dropped_queries=(), lists=(), rrf_k=settings.rrf_k, sources=context, context=context,
            answer=answer, citations=citations, found=found, timings=Timings.with_answer(started, answer_started, first_token_at, end),
            notices=tuple(notices), standalone_question=standalone_question, answered_from=plan.answered_from, filters=filters,
        )
    )
