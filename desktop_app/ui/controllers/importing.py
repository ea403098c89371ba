"""Importing: files and folders (chosen or dropped), passwords for protected PDFs, removing documents, and the
meaning index that follows every import.

A drop is one batch: every file gets its row at once ("queued"); one job on the import runner stores each
file's text (searchable by keyword, or its error, within seconds); then one embedding job fills the meaning
index for everything waiting. That job steps aside between batches whenever another job waits on the
runner (a new drop, a removal), and is submitted again behind it, so new text never waits for old
embedding. Each row cancels its own file; the indexing bar cancels them all. Progress arrives on the GUI thread.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QMimeData, QTimer
from PySide6.QtWidgets import QFileDialog, QInputDialog, QLabel, QLineEdit, QMessageBox

from ...core.formats import dialog_filter, format_names
from ...core.ingest.importer import collect_files
from ...core.library import Library
from ...core.types import ImportProgress, IndexBacklog
from ...core.wording import counted
from ..indexing_status import backlog_text
from ..library_panel import LibraryPanel
from ..models import DocumentsModel
from ..workers import Job, JobRunner
from .feedback import Feedback

PASSWORD_PROTECTED = "password protected"  # in the ImportProgress message of a PasswordProtected failure
FILE_TYPES = dialog_filter()  # every supported format (core/formats.py), then all files


def dropped_files(mime: QMimeData) -> list[str]:
    """The local files and folders of a drag (a file manager's URLs); empty when it carries none."""
    return [u.toLocalFile() for u in mime.urls() if u.isLocalFile()] if mime.hasUrls() else []


@dataclass(eq=False)
class ImportController:
    library: Library
    jobs: JobRunner  # the import runner
    documents: DocumentsModel
    panel: LibraryPanel
    feedback: Feedback
    index_label: QLabel | None = None  # the status bar's word on the meaning index
    by_file: dict[str, Job] = field(default_factory=dict, init=False)  # the text job of each file's latest batch
    # Files whose row was cancelled: read by the core on the import thread (a set's `in` is atomic in CPython).
    cancelled: set[str] = field(default_factory=set, init=False)
    index_job: Job | None = field(default=None, init=False)  # the embedding queue, running or waiting its turn
    _text_jobs: list[Job] = field(default_factory=list, init=False)
    _indexing_cancelled: bool = field(default=False, init=False)  # "cancel all": no resubmitting until the next import
    _backlog: IndexBacklog | None = field(default=None, init=False)  # the latest count, from the import thread
    _passwords_tried: set[str] = field(default_factory=set, init=False)  # re-imported with a password, so a wrong one says so
    _needs_password: set[str] = field(default_factory=set, init=False)  # failed as password protected; asked when their job ends
    _closed: bool = field(default=False, init=False)
    on_indexed: Callable[[], object] | None = field(default=None, init=False)  # after the meaning index: the overviews

    def __post_init__(self) -> None:
        self.panel.indexing.cancel_requested.connect(self.cancel_all)

    @property
    def busy(self) -> bool:
        """Text is being stored or the meaning index filled."""
        return self.jobs.busy

    def refresh(self) -> None:
        self.documents.set_documents(self.library.documents())

    def choose_files(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(self.feedback.window, "Add documents", str(Path.home()), FILE_TYPES)
        if files:
            self.import_paths(files)

    def import_paths(self, paths: list[str], passwords: dict[str, str] | None = None) -> Job | None:
        """One batch: every file listed now, their text stored by one job, then the embedding queue."""
        # Cancellations that took effect are forgotten: what they left unembedded is finished with this import.
        self.cancelled -= {f for f in self.cancelled if f not in self.panel.rows or self.panel.rows[f].finished}
        self.panel.clear_finished()
        self.panel.show_warning("")
        files = [f for f in collect_files(paths) if not self._in_progress(str(f))]
        if not files:
            if not collect_files(paths):
                self.feedback.say(f"No {format_names()} files there.", 8000)
            return None
        names = [str(f) for f in files]
        for name in names:
            self.cancelled.discard(name)
            self.panel.show_progress(ImportProgress(name, "queued"))
        library = self.library
        job = self.run_text_job(
            f"import {len(files)} files", lambda job: library.store_paths(files, passwords=passwords, cancel=job.cancel, cancelled_files=self.cancelled), names
        )
        self.panel.indexing.show_reading(len(files))
        self.feedback.say(f"Importing {counted(len(files), 'file')}...", 5000)
        return job

    def run_text_job(self, title: str, events, names: list[str] = ()) -> Job:
        """A job that stores text (an import, a watched folder's sync), yielding ImportProgress; the meaning index follows it."""
        self._indexing_cancelled = False
        library = self.library

        def work(job: Job):
            yield from events(job)
            yield library.index_backlog()

        job = Job(title, work, on_item=self.show_progress, on_error=self.feedback.report)
        job.on_done = lambda: self._text_finished(job, list(names))
        for name in names:
            self.by_file[name] = job
        self._text_jobs.append(job)
        return self.jobs.submit(job)

    def _in_progress(self, name: str) -> bool:
        """Already being read in a batch that has not stored it yet: a second drop of it is not a second import."""
        job, row = self.by_file.get(name), self.panel.rows.get(name)
        return job is not None and not job.finished and row is not None and row.stage in ("queued", "extracting")

    def finish_indexing(self) -> None:
        """Embed what an earlier session left unembedded (it quit or crashed mid-import); searchable meanwhile."""
        self.start_indexing()

    def start_indexing(self) -> Job | None:
        """The embedding queue, unless it is already running or waiting its turn."""
        if self._closed or self._indexing_cancelled or (self.index_job is not None and not self.index_job.finished):
            return None
        library, runner, cancelled = self.library, self.jobs, self.cancelled
        queue = None

        def work(job: Job):
            nonlocal queue
            queue = library.embedding_queue()
            yield from queue.run(job.cancel, cancelled, should_pause=runner.has_waiting_jobs)
            yield library.index_backlog()

        job = Job("meaning index", work, on_item=self.show_progress, on_error=self.feedback.report)
        job.on_done = lambda: self._indexing_finished(job, queue is not None and queue.paused)
        self.index_job = job
        if not self._text_jobs:
            self.panel.indexing.show_busy("Meaning index: starting")
        return self.jobs.submit(job)

    def show_progress(self, event: ImportProgress | IndexBacklog) -> None:
        if isinstance(event, IndexBacklog):
            self._backlog = event
            self.panel.indexing.total_passages = event.total
            return
        if event.stage == "indexing":
            self.panel.indexing.show_progress(event)
            self._set_index_label(event.total - event.done, max(self.panel.indexing.total_passages, event.total), event.message)
            return
        if event.stage == "warning":
            # About the whole library (the index file could not be saved), not one file: no import row.
            self.panel.show_warning(event.message)
            self.feedback.say(event.message, 15_000)
            return
        self.panel.show_progress(event)
        if event.stage == "ready":
            self._passwords_tried.discard(event.file)
        if event.stage in ("searchable", "ready", "failed", "removed"):
            self.refresh()
        if event.stage == "failed":
            self.feedback.say(event.message, 15_000)
            message = event.message.lower()
            # A wrong password fails with "the password ... is wrong": ask again for files we already asked about.
            if PASSWORD_PROTECTED in message or (event.file in self._passwords_tried and "password" in message):
                # Asked once the file's job is finished, so the retry is not taken for a duplicate of it.
                self._needs_password.add(event.file)

    def _show_backlog(self) -> None:
        """Once nothing runs: what the meaning index still lacks (hidden when nothing)."""
        if self._text_jobs or self.index_job is not None or self._backlog is None:
            return  # the running jobs' own progress says more
        self.panel.indexing.show_backlog(self._backlog)
        self._set_index_label(self._backlog.pending, self._backlog.total, "")

    def _set_index_label(self, pending: int, total: int, detail: str) -> None:
        if self.index_label is None:
            return
        text = f"Meaning index: {pending:,} of {total:,} passages to go" if pending else ""
        if text and detail and "left" in detail:
            text += ", " + detail.rsplit(", ", 1)[-1]
        self.index_label.setText(text)
        self.index_label.setToolTip(backlog_text(pending, total, running=bool(detail)))
        self.index_label.setVisible(bool(text))

    def _text_finished(self, job: Job, names: list[str]) -> None:
        if job in self._text_jobs:
            self._text_jobs.remove(job)
        for name in names:
            row = self.panel.rows.get(name)
            if job.cancel.is_set() and row is not None and row.stage in ("queued", "extracting"):
                row.update_progress(ImportProgress(name, "cancelled", message="Import cancelled"))
            if name in self._needs_password:
                self._needs_password.discard(name)
                # After this slot returns: a modal dialog must not open while the runner is delivering results.
                QTimer.singleShot(0, lambda name=name: self.retry_with_password(name))
        if not self._text_jobs:
            self.start_indexing()
            if self._indexing_cancelled:  # "cancel all" before the queue started: it does not start, so no row waits for it
                self._tell_cancelled_rows()
        self._show_backlog()
        if not self.jobs.busy:
            self.refresh()

    def _indexing_finished(self, job: Job, paused: bool) -> None:
        if self.index_job is job:
            self.index_job = None
        if paused and not job.cancel.is_set():
            self.start_indexing()  # behind the job it stepped aside for
            return
        if job.cancel.is_set():
            self._tell_cancelled_rows()
        self._show_backlog()
        self.refresh()
        if self.on_indexed is not None and not job.cancel.is_set():
            self.on_indexed()

    def _tell_cancelled_rows(self) -> None:
        """A cancelled queue leaves no row waiting for it: each says it stays searchable by keyword."""
        for name, row in list(self.panel.rows.items()):
            if row.stage in ("searchable", "embedding"):
                row.update_progress(ImportProgress(name, "cancelled", message="Cancelled: searchable by keyword"))

    def cancel(self, file: str) -> None:
        """One file's row: before its text is stored it is not imported; after, its embedding waits for a later run."""
        self.cancelled.add(file)
        row = self.panel.rows.get(file)
        # A file that waits for a queue that is not running would hear nothing: tell it now.
        waiting = row is not None and row.stage in ("searchable", "embedding") and self.index_job is None
        if waiting:
            row.update_progress(ImportProgress(file, "cancelled", message="Cancelled: searchable by keyword"))

    def cancel_all(self) -> None:
        """Every import: files not yet stored are not imported; stored ones stay, found by keyword."""
        for job in self._text_jobs:
            job.cancel.set()
        # Also when the queue has not started yet (the text job that starts it is finishing): it must not start then.
        self._indexing_cancelled = True
        if self.index_job is not None:
            self.index_job.cancel.set()
        self.feedback.say("Cancelling the imports...", 3000)

    def ask_password(self, file: str, again: bool = False) -> str | None:
        """Asks for a file's password; None when the user skips it. (Tests replace this.)"""
        name = Path(file).name
        prompt = f"{name} is password protected.\nEnter its password to import it, or Cancel to skip it."
        if again:
            prompt = f"That password did not open {name}.\nTry again, or Cancel to skip it."
        password, ok = QInputDialog.getText(self.feedback.window, "Password protected", prompt, QLineEdit.EchoMode.Password)
        return password if ok and password else None

    def retry_with_password(self, file: str) -> None:
        if self._closed:
            return
        again = file in self._passwords_tried
        password = self.ask_password(file, again)
        if password is None:
            self._passwords_tried.discard(file)
            return
        self._passwords_tried.add(file)
        self.import_paths([file], passwords={file: password})

    def confirm_remove(self, ids: list[int]) -> None:
        names = [d.title for d in self.documents.documents if d.id in ids]
        question = "Remove from the library?\n\n" + "\n".join(names) + "\n\nThe files themselves stay on disk."
        if QMessageBox.question(self.feedback.window, "Remove documents", question) == QMessageBox.StandardButton.Yes:
            self.remove_documents(ids)

    def remove_documents(self, ids: list[int]) -> Job:
        def work(job: Job):
            for document_id in ids:
                self.library.remove_document(document_id)
                yield document_id

        return self.jobs.submit(Job("remove", work, on_error=self.feedback.report, on_done=self.refresh))

    def shutdown(self) -> None:
        """The window closes: cancel the imports (the meaning index resumes at the next start), ask for no more passwords."""
        self._closed = True
        self.jobs.cancel_all()
