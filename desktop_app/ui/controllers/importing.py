"""Importing: files and folders (chosen or dropped), one job per file with its own progress row and cancel,
passwords for protected PDFs, finishing an interrupted import, removing documents.

Imports and removals run on the import runner, one after another; their progress arrives on the GUI thread.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QMimeData, QTimer
from PySide6.QtWidgets import QFileDialog, QInputDialog, QLineEdit, QMessageBox

from ...core.formats import dialog_filter, format_names
from ...core.ingest.importer import collect_files
from ...core.library import Library
from ...core.types import ImportProgress
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
    by_file: dict[str, Job] = field(default_factory=dict, init=False)  # each file's latest import job
    _passwords_tried: set[str] = field(default_factory=set, init=False)  # re-imported with a password, so a wrong one says so
    _needs_password: set[str] = field(default_factory=set, init=False)  # failed as password protected; asked when their job ends
    _closed: bool = field(default=False, init=False)

    def refresh(self) -> None:
        self.documents.set_documents(self.library.documents())

    def choose_files(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(self.feedback.window, "Add documents", str(Path.home()), FILE_TYPES)
        if files:
            self.import_paths(files)

    def import_paths(self, paths: list[str], passwords: dict[str, str] | None = None) -> None:
        """One job per file, so each can be cancelled alone; they run one after another on the import thread."""
        self.panel.clear_finished()
        self.panel.show_warning("")
        files = collect_files(paths)
        if not files:
            self.feedback.say(f"No {format_names()} files there.", 8000)
            return
        for file in files:
            name = str(file)
            if name in self.by_file and not self.by_file[name].finished:
                continue
            job = Job(f"import {file.name}", lambda job, f=file: self.library.import_paths([f], passwords=passwords, cancel=job.cancel))
            job.on_item = self.show_progress
            job.on_error = self.feedback.report
            job.on_done = lambda name=name: self._finished(name)
            self.by_file[name] = job
            self.jobs.submit(job)
        self.feedback.say(f"Importing {len(files)} file{'s' if len(files) != 1 else ''}...", 5000)

    def finish_indexing(self) -> None:
        """Embed what an earlier session left unembedded (it quit or crashed mid-import); searchable meanwhile."""
        self.jobs.submit(Job("finish indexing", lambda job: self.library.import_paths([], cancel=job.cancel), on_item=self.show_progress, on_error=self.feedback.report))

    def show_progress(self, event: ImportProgress) -> None:
        if event.stage == "warning":
            # About the whole library (the index file could not be saved), not one file: no import row.
            self.panel.show_warning(event.message)
            self.feedback.say(event.message, 15_000)
            return
        self.panel.show_progress(event)
        if event.stage == "ready":
            self._passwords_tried.discard(event.file)
        if event.stage in ("searchable", "ready", "failed"):
            self.refresh()
        if event.stage == "failed":
            self.feedback.say(event.message, 15_000)
            message = event.message.lower()
            # A wrong password fails with "the password ... is wrong": ask again for files we already asked about.
            if PASSWORD_PROTECTED in message or (event.file in self._passwords_tried and "password" in message):
                # Asked once the file's job is finished, so the retry is not taken for a duplicate of it.
                self._needs_password.add(event.file)

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

    def _finished(self, name: str) -> None:
        if name in self._needs_password:
            self._needs_password.discard(name)
            # After this slot returns: a modal dialog must not open while the runner is delivering results.
            QTimer.singleShot(0, lambda: self.retry_with_password(name))
        job = self.by_file.get(name)
        row = self.panel.rows.get(name)
        if job is not None and job.cancel.is_set() and row is not None and not row.finished:
            row.update_progress(ImportProgress(name, "cancelled", message="Import cancelled"))
        if not self.jobs.busy:
            self.refresh()

    def cancel(self, file: str) -> None:
        job = self.by_file.get(file)
        if job is not None:
            job.cancel.set()

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
        """The window closes: cancel the imports, and ask for no more passwords."""
        self._closed = True
        self.jobs.cancel_all()
