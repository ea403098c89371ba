"""Document overviews in the window: the overview queue after every meaning index (on the import runner, so a
new import goes first: the queue steps aside between documents and is submitted again behind it), its progress
in the library panel, and a document's overview opened from the panel (read on a worker, shown in a dialog
whose links show the page)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ...core.document_overview import Overview, OverviewProgress
from ...core.library import Library
from ..library_panel import LibraryPanel
from ..overview_view import OverviewDialog
from ..workers import Job, JobRunner, call_in_background
from .feedback import Feedback


@dataclass(eq=False)
class OverviewController:
    library: Library
    jobs: JobRunner  # the import runner: overviews wait for the meaning index, and step aside for new imports
    reads: JobRunner  # where an overview is read (or built at once) when a person asks to see it
    panel: LibraryPanel
    feedback: Feedback
    show_place: Callable[[object], object]  # shows a Passage on its page (the evidence controller)
    job: Job | None = field(default=None, init=False)
    dialogs: list[OverviewDialog] = field(default_factory=list, init=False)
    _closed: bool = field(default=False, init=False)

    def __post_init__(self) -> None:
        self.panel.overview_requested.connect(self.open_overview)

    def start(self) -> Job | None:
        """The overview queue, unless it is already running or waiting its turn."""
        if self._closed or (self.job is not None and not self.job.finished):
            return None
        library, runner = self.library, self.jobs
        queue = library.overview_queue()

        def work(job: Job):
            yield from queue.run(job.cancel, should_pause=runner.has_waiting_jobs)

        job = Job("overviews", work, on_item=self._progress, on_error=self.feedback.report)
        job.on_done = lambda: self._finished(job, queue.paused)
        self.job = job
        return self.jobs.submit(job)

    def _progress(self, progress: OverviewProgress) -> None:
        self.panel.overview_status.show_progress(progress)
        if progress.message:
            self.feedback.say(progress.message, 8000)

    def _finished(self, job: Job, paused: bool) -> None:
        if self.job is job:
            self.job = None
        if paused and not job.cancel.is_set():
            self.start()  # behind the job it stepped aside for
        else:
            self.panel.overview_status.hide()

    def open_overview(self, document_id: int) -> None:
        def shown(overview: object) -> None:
            if overview is None:
                self.feedback.say("This document has no overview yet: it is built after its meaning index.", 8000)
                return
            self.show_dialog(overview)

        call_in_background(self.reads, "read overview", lambda: self.library.overview(document_id, build=True), shown, self.feedback.report)

    def show_dialog(self, overview: Overview) -> OverviewDialog:
        dialog = OverviewDialog(overview, self.feedback.window)
        dialog.place_requested.connect(self.show_place)
        dialog.finished.connect(lambda _result, d=dialog: self.dialogs.remove(d) if d in self.dialogs else None)
        self.dialogs.append(dialog)
        dialog.show()
        return dialog

    def shutdown(self) -> None:
        self._closed = True
        if self.job is not None:
            self.job.cancel.set()
