"""Asking: a question runs on the model runner, its typed events (core/events.py) fill the transcript and the
fusion panel as they arrive; Stop cancels it; Re-run searches again with the panel's edited queries.

An answer that ends without AnswerDone (stopped before it began, or failed) still keeps its question in the
chat: `Library.ask_in_chat` stores only finished answers, so a small job on the same runner stores it.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from PySide6.QtCore import QTimer

from ...core.events import (
    SEARCHING,
    AnswerDone,
    AskEvent,
    EvidenceSelected,
    FiltersRead,
    QueriesGenerated,
    QuestionRewritten,
    SourcesRanked,
    SqlRan,
    StageStarted,
    Token,
    stage_text,
)
from ...core.library import Library
from ...core.types import AskResult, QuestionFilters, Timings
from ..chat_panel import ChatPanel
from ..chat_view import ChatEntry
from ..fusion_panel import FusionPanel
from ..library_panel import LibraryPanel
from ..models import DocumentsModel
from ..workers import Job, JobRunner
from .chats import ChatController, chat_title
from .feedback import Feedback
from .model_loading import ModelController

STOPPED = "Stopped."


@dataclass(frozen=True)
class ChatStarted:
    """The ask job created the new chat its question opens."""

    chat_id: int
    title: str


STOPPED_EARLY = "(stopped before the answer began)"


@dataclass
class _Asking:
    """One question on its way: what the GUI knows of it so far."""

    chat_id: int | None  # None until the job has created the new chat
    question: str
    mode: str
    entry: ChatEntry  # the assistant's entry in the transcript, filled as events arrive
    standalone: str = ""  # a follow-up's standalone rewrite, when it differs
    filters: QuestionFilters | None = None  # the files, pages, types or dates the question limits itself to
    queries: tuple[str, ...] = ()  # as generated (the panel's list may be edited meanwhile)
    dropped: tuple[str, ...] = ()
    done: bool = False  # AnswerDone arrived
    failed: bool = False  # the job raised (e.g. the new chat could not be created); the error was shown
    asked_at: float = field(default_factory=time.perf_counter)  # the answer's clock starts here, model loading included
    stage: str = ""  # the step under way, as the transcript says it


WAITING_FOR_MODEL = "Waiting for the model to load"
STARTING = "Starting"


def result_so_far(asking: _Asking, ranked: SourcesRanked, rrf_k: float) -> AskResult:
    """What is known once the sources are ranked, before the answer: the fusion panel shows it, and a citation
    clicked while the answer streams finds its passage among the context."""
    return AskResult(
        question=asking.question, mode=asking.mode, queries=asking.queries, dropped_queries=asking.dropped, standalone_question=asking.standalone,
        filters=asking.filters, lists=ranked.lists, rrf_k=rrf_k, sources=ranked.sources, context=ranked.context,
        answer="", citations=(), found=True, timings=Timings(), answered_from=ranked.answered_from,
    )  # fmt: skip


def relay(job: Job, events: Iterator[AskEvent], keep: Callable[[AnswerDone], AnswerDone] | None = None) -> Iterator[AskEvent]:
    """A question's events on their way to the window (`keep` sees the AnswerDone first). On Stop before the
    answer starts nothing is worth keeping, so the stream ends; once it streams, the pipeline stops at the next token."""
    answering = False
    try:
        for event in events:
            answering = answering or isinstance(event, SourcesRanked)
            if keep is not None and isinstance(event, AnswerDone):
                event = keep(event)
            yield event
            if job.cancel.is_set() and not answering:
                return
    finally:
        events.close()


def chat_started(library: Library, asking: _Asking) -> Iterator[ChatStarted]:
    """A new chat, titled after its first question, is created in the job: never a database write in the window."""
    if asking.chat_id is None:
        title = chat_title(asking.question)
        asking.chat_id = library.create_chat(title)
        yield ChatStarted(asking.chat_id, title)


def edited_notice(queries: list[str]) -> str:
    return f"Answered from the {len(queries)} search quer{'y' if len(queries) == 1 else 'ies'} you edited (see the panel)."


@dataclass(eq=False)
class AskController:
    library: Library
    jobs: JobRunner  # the model runner
    chat_panel: ChatPanel
    fusion_panel: FusionPanel
    library_panel: LibraryPanel  # its ticks and collection limit the documents searched
    documents: DocumentsModel
    chats: ChatController
    models: ModelController
    feedback: Feedback
    # The side panel's page: cleared when a question is asked (the last answer's page is not this one's), then the
    # finished answer's first citation shown on its page. Late-bound: the evidence controller is made after this one.
    clear_evidence: Callable[[], None] = lambda: None
    show_citation: Callable[[int, int], object] = lambda entry_index, n: None
    job: Job | None = field(default=None, init=False)  # the running question; None when idle
    asking: _Asking | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        # Once a second the waiting answer's line shows the time since the question.
        self.ticker = QTimer(self.chat_panel)
        self.ticker.setInterval(1000)
        self.ticker.timeout.connect(self._tick)

    @property
    def running(self) -> bool:
        return self.job is not None

    def _begin(self, question: str, mode: str) -> _Asking | None:
        """The question and an empty answer in the transcript; None while another question runs."""
        if self.job is not None:
            return None
        if not self.documents.rowCount():
            self.feedback.say("Add documents first: drop PDFs on the window or press Ctrl+O.", 8000)
        view = self.chat_panel.view
        self.clear_evidence()
        view.add(ChatEntry("user", question))
        asking = _Asking(self.chats.current, question, mode, ChatEntry("assistant", "", streaming=True))
        asking.stage = STARTING if self.models.ready else WAITING_FOR_MODEL
        view.add(asking.entry)
        self._tick(asking)
        return asking

    def _tick(self, asking: _Asking | None = None) -> None:
        asking = asking or self.asking
        if asking is None or asking.entry.text or not asking.entry.streaming:
            return
        asking.entry.stage = f"{asking.stage}... {time.perf_counter() - asking.asked_at:.0f} s"
        self.chat_panel.view.schedule_render()

    def _run(self, asking: _Asking, work) -> Job:
        def failed(exc: BaseException) -> None:
            asking.failed = True
            self.feedback.report(exc)

        job = Job("ask", work, on_item=lambda event: self._show(asking, job, event), on_done=lambda: self._ended(asking), on_error=failed)
        self.job, self.asking = job, asking
        self.ticker.start()
        self.chat_panel.set_generating(True)
        self.fusion_panel.rerun.setEnabled(False)
        self.models.show_answering()
        return self.jobs.submit(job)

    def ask(self, question: str) -> Job | None:
        asking = self._begin(question, self.chat_panel.mode.currentData())
        if asking is None:
            return None
        self.chat_panel.input.clear()
        allowed = self.library_panel.allowed_documents()
        self.fusion_panel.show_result(None)
        self.fusion_panel.show_queries(question, [])
        library = self.library

        def work(job: Job):
            # ask_in_chat rewrites a follow-up from the chat's history and stores the question and the answer.
            yield from chat_started(library, asking)
            yield StageStarted(SEARCHING)  # the job has begun: the model is loaded
            yield from relay(job, library.ask_in_chat(asking.chat_id, question, mode=asking.mode, allowed_documents=allowed, cancel=job.cancel, asked_at=asking.asked_at))

        return self._run(asking, work)

    def _show(self, asking: _Asking, job: Job, event: AskEvent) -> None:
        entry, view = asking.entry, self.chat_panel.view
        if isinstance(event, ChatStarted):
            self.chats.adopt(event.chat_id, event.title)
        elif isinstance(event, StageStarted):
            asking.stage = stage_text(event.stage, event.passages, event.seconds)
            self._tick(asking)
        elif isinstance(event, QuestionRewritten):
            asking.standalone = event.standalone if event.standalone != event.original else ""
            self.fusion_panel.show_searched_as(asking.standalone)
        elif isinstance(event, FiltersRead):
            asking.filters = event.filters
            asking.standalone = event.filters.searched if event.filters.searched != asking.question else ""
            self.fusion_panel.show_searched_as(asking.standalone)
            self.fusion_panel.show_filters(event.filters, asking.question)
        elif isinstance(event, QueriesGenerated):
            asking.queries, asking.dropped = event.queries, event.dropped
            self.fusion_panel.show_queries(asking.question, list(event.queries), event.dropped)
            if event.notice:
                entry.notices.append(event.notice)
        elif isinstance(event, SourcesRanked):
            entry.result = result_so_far(asking, event, self.library.settings.rrf_k)
            self.fusion_panel.show_result(entry.result, update_queries=False)
        elif isinstance(event, EvidenceSelected):
            # On screen at once: a first look while the model writes its queries, then the evidence it reads.
            entry.quotes, entry.quotes_first_look = event.quotes, event.preliminary
            view.render()
        elif isinstance(event, SqlRan):
            self.fusion_panel.show_sql_run(event.result)
        elif isinstance(event, Token):
            entry.text += event.text
            view.schedule_render()
        elif isinstance(event, AnswerDone):
            asking.done = True
            result = event.result
            if job.cancel.is_set():
                result = dataclasses.replace(result, notices=(*result.notices, STOPPED))
            entry.text = result.answer
            entry.result = result
            entry.notices = list(result.notices)
            entry.streaming = False
            self.fusion_panel.show_result(result)
            view.render()
            shown_at = next((i for i, e in enumerate(view.entries) if e is entry), None)  # None: another chat is open
            if result.citations and shown_at is not None:
                self.show_citation(shown_at, result.citations[0].n)

    def _ended(self, asking: _Asking) -> None:
        if asking.done:
            self._idle()
            return
        if asking.chat_id is None and asking.failed:  # the new chat could not be created (the error was shown)
            self.chat_panel.view.set_entries([])  # the question goes back to the box
            self.chat_panel.input.setPlainText(asking.question)
            self._idle()
            return
        entry = asking.entry
        entry.streaming = False
        entry.text = entry.text or STOPPED_EARLY
        entry.notices.append(STOPPED)
        self.chat_panel.view.render()
        question, answer = asking.question, entry.text

        def keep(job: Job):
            yield from chat_started(self.library, asking)  # stopped before the job began: the new chat is created now
            self.library.add_chat_turn(asking.chat_id, question, answer)

        def adopt(event: ChatStarted) -> None:
            self.chats.adopt(event.chat_id, event.title)

        # The question counts as answered once it is stored, so a new one cannot start before.
        self.jobs.submit(Job("keep the stopped answer", keep, on_item=adopt, on_error=self.feedback.report, on_done=self._idle))

    def _idle(self) -> None:
        self.job, self.asking = None, None
        self.ticker.stop()
        self.chat_panel.set_generating(False)
        self.chats.refresh()
        self.chat_panel.input.setFocus()
        self.models.show_idle()

    def stop(self) -> None:
        if self.job is not None:
            self.job.cancel.set()
            self.feedback.say("Stopping...", 3000)

    def without_filter(self, filters: QuestionFilters, phrase: str) -> Job | None:
        """Asks again without one of the question's filters (its chip was removed): its words are searched instead.

        A new turn of the chat, asked as the text the filters were read from (a follow-up's standalone rewrite)."""
        asking = self._begin(filters.text, self.chat_panel.mode.currentData())
        if asking is None:
            return None
        self.fusion_panel.show_result(None)
        self.fusion_panel.show_queries(filters.text, [])
        allowed = self.library_panel.allowed_documents()
        library = self.library
        ignored = filters.without(phrase)

        def keep(done: AnswerDone) -> AnswerDone:
            library.add_chat_turn(asking.chat_id, filters.text, done.result.answer, done.result)
            return done

        def work(job: Job):
            yield from chat_started(library, asking)
            yield StageStarted(SEARCHING)
            events = library.ask(filters.text, asking.mode, allowed, cancel=job.cancel, asked_at=asking.asked_at, ignored_filters=ignored)
            yield from relay(job, events, keep)

        return self._run(asking, work)

    def rerun(self, question: str, queries: list[str]) -> Job | None:
        """Answers again from the panel's edited queries, as a new turn of the chat that keeps them with its answer.

        `question` is what was searched (a follow-up's standalone rewrite), so it is not rewritten again.
        """
        if not queries:
            self.feedback.say("Add a query to search with.", 5000)
            return None
        asking = self._begin(question, "fusion")
        if asking is None:
            return None
        asking.queries = tuple(queries)
        self.fusion_panel.show_queries(question, list(queries))
        allowed = self.library_panel.allowed_documents()
        library = self.library

        def keep(done: AnswerDone) -> AnswerDone:
            """Kept in the chat, with its queries and a notice saying so, before the window hears of it."""
            done = AnswerDone(dataclasses.replace(done.result, notices=(*done.result.notices, edited_notice(queries))))
            library.add_chat_turn(asking.chat_id, question, done.result.answer, done.result)
            return done

        def work(job: Job):
            yield from chat_started(library, asking)
            yield StageStarted(SEARCHING)
            yield from relay(job, library.ask(question, "fusion", allowed, cancel=job.cancel, queries=list(queries), asked_at=asking.asked_at), keep)

        return self._run(asking, work)
