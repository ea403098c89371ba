"""Asking: a question runs on the model runner, its typed events (core/events.py) fill the transcript and the
fusion panel as they arrive; Stop cancels it; Re-run searches again with the panel's edited queries.

An answer that ends without AnswerDone (stopped before it began, or failed) still keeps its question in the
chat: `Library.ask_in_chat` stores only finished answers, so a small job on the same runner stores it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from ...core.events import (
    AnswerDone,
    AskEvent,
    EvidenceSelected,
    QueriesGenerated,
    QuestionRewritten,
    SourcesRanked,
    SqlRan,
    Token,
)
from ...core.library import Library
from ...core.types import AskResult, Timings
from ..chat_panel import ChatPanel
from ..chat_view import ChatEntry
from ..fusion_panel import FusionPanel
from ..library_panel import LibraryPanel
from ..models import DocumentsModel
from ..workers import Job, JobRunner
from .chats import ChatController
from .feedback import Feedback
from .model_loading import ModelController

STOPPED = "Stopped."
STOPPED_EARLY = "(stopped before the answer began)"


@dataclass
class _Asking:
    """One question on its way: what the GUI knows of it so far."""

    chat_id: int
    question: str
    mode: str
    entry: ChatEntry  # the assistant's entry in the transcript, filled as events arrive
    standalone: str = ""  # a follow-up's standalone rewrite, when it differs
    queries: tuple[str, ...] = ()  # as generated (the panel's list may be edited meanwhile)
    dropped: tuple[str, ...] = ()
    done: bool = False  # AnswerDone arrived


def result_so_far(asking: _Asking, ranked: SourcesRanked, rrf_k: float) -> AskResult:
    """What is known once the sources are ranked, before the answer: the fusion panel shows it, and a citation
    clicked while the answer streams finds its passage among the context."""
    return AskResult(
        question=asking.question, mode=asking.mode, queries=asking.queries, dropped_queries=asking.dropped, standalone_question=asking.standalone,
        lists=ranked.lists, rrf_k=rrf_k, sources=ranked.sources, context=ranked.context,
        answer="", citations=(), found=True, timings=Timings(),
    )  # fmt: skip


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
    job: Job | None = field(default=None, init=False)  # the running question; None when idle

    @property
    def running(self) -> bool:
        return self.job is not None

    def ask(self, question: str) -> Job | None:
        if self.job is not None:
            return None
        if not self.documents.rowCount():
            self.feedback.say("Add documents first: drop PDFs on the window or press Ctrl+O.", 8000)
        chat_id = self.chats.chat_for(question)
        if chat_id is None:
            return None
        self.chats.refresh()
        self.chat_panel.input.clear()
        view = self.chat_panel.view
        view.add(ChatEntry("user", question))
        asking = _Asking(chat_id, question, self.chat_panel.mode.currentData(), ChatEntry("assistant", "", streaming=True))
        view.add(asking.entry)
        allowed = self.library_panel.allowed_documents()
        self.fusion_panel.show_result(None)
        self.fusion_panel.show_queries(question, [])
        library = self.library

        def work(job: Job):
            # ask_in_chat rewrites a follow-up from the chat's history and stores the question and the answer.
            events = library.ask_in_chat(chat_id, question, mode=asking.mode, allowed_documents=allowed, cancel=job.cancel)
            answering = False
            try:
                for event in events:
                    answering = answering or isinstance(event, SourcesRanked)
                    yield event
                    # Before the answer starts nothing is worth keeping; once it streams, the pipeline stops at the next token.
                    if job.cancel.is_set() and not answering:
                        return
            finally:
                events.close()

        job = Job("ask", work, on_item=lambda event: self._show(asking, job, event), on_done=lambda: self._ended(asking), on_error=self.feedback.report)
        self.job = job
        self.chat_panel.set_generating(True)
        self.models.show_answering()
        return self.jobs.submit(job)

    def _show(self, asking: _Asking, job: Job, event: AskEvent) -> None:
        entry, view = asking.entry, self.chat_panel.view
        if isinstance(event, QuestionRewritten):
            asking.standalone = event.standalone if event.standalone != event.original else ""
            self.fusion_panel.show_searched_as(asking.standalone)
        elif isinstance(event, QueriesGenerated):
            asking.queries, asking.dropped = event.queries, event.dropped
            self.fusion_panel.show_queries(asking.question, list(event.queries))
            if event.notice:
                entry.notices.append(event.notice)
        elif isinstance(event, SourcesRanked):
            entry.result = result_so_far(asking, event, self.library.settings.rrf_k)
            self.fusion_panel.show_result(entry.result, update_queries=False)
        elif isinstance(event, EvidenceSelected):
            entry.quotes = event.quotes  # on screen at once, while the model reads its prompt
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

    def _ended(self, asking: _Asking) -> None:
        if asking.done:
            self._idle()
            return
        entry = asking.entry
        entry.streaming = False
        entry.text = entry.text or STOPPED_EARLY
        entry.notices.append(STOPPED)
        self.chat_panel.view.render()
        chat_id, question, answer = asking.chat_id, asking.question, entry.text

        def keep(job: Job):
            self.library.add_chat_turn(chat_id, question, answer)
            return iter(())

        # The question counts as answered once it is stored, so a new one cannot start before.
        self.jobs.submit(Job("keep the stopped answer", keep, on_error=self.feedback.report, on_done=self._idle))

    def _idle(self) -> None:
        self.job = None
        self.chat_panel.set_generating(False)
        self.chats.refresh()
        self.chat_panel.input.setFocus()
        self.models.show_idle()

    def stop(self) -> None:
        if self.job is not None:
            self.job.cancel.set()
            self.feedback.say("Stopping...", 3000)

    def rerun(self, question: str, queries: list[str]) -> Job:
        allowed = self.library_panel.allowed_documents()
        library = self.library

        def work(job: Job):
            yield from library.ask(question, mode="fusion", allowed_documents=allowed, generate_answer=False, queries=queries)

        def show(event: AskEvent) -> None:
            if isinstance(event, AnswerDone):
                self.fusion_panel.show_result(event.result, update_queries=False)
                self.feedback.say(f"Searched again with {len(queries)} queries; ask again for a new answer.", 8000)

        self.fusion_panel.rerun.setEnabled(False)
        return self.jobs.submit(Job("rerun", work, on_item=show, on_error=self.feedback.report, on_done=lambda: self.fusion_panel.rerun.setEnabled(True)))
