"""Folders kept in sync: added from the File menu, rescanned when the window opens, watched while it is open.

The core's watcher (watchdog, core/ingest/folder_watch.py) reports a debounced burst of changed paths on its
own thread; a relay brings it to the GUI thread, and the sync runs on the import runner like any import:
its files get rows, removed documents a "removed" row, and the meaning index follows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QFileDialog

from ...core.errors import AppError
from ...core.library import Library
from ..watched_folders_view import WatchedFoldersView
from ..workers import Job
from .feedback import Feedback
from .importing import ImportController


class _ChangesRelay(QObject):
    """Carries the watcher's bursts from its thread to the GUI thread."""

    changed = Signal(object)  # a set of paths


@dataclass(eq=False)
class WatchedFolderController:
    library: Library
    importing: ImportController
    view: WatchedFoldersView
    feedback: Feedback
    watcher: object | None = field(default=None, init=False)  # a FolderWatcher, made once a folder is watched

    def __post_init__(self) -> None:
        self.relay = _ChangesRelay(self.view)
        self.relay.changed.connect(self.sync_changes, Qt.ConnectionType.QueuedConnection)
        self.view.stop_requested.connect(self.remove_folder)

    def start(self) -> None:
        """On opening: watch every folder, then rescan them all (what changed while the app was closed)."""
        # A folder added before this ran (its job has not stored it yet) stays listed.
        folders = sorted({*self.library.watched_folders(), *self.view.folders()})
        self.view.set_folders(folders)
        if not folders:
            return
        for folder in folders:
            self._watch(folder)  # before the rescan, so a change made during it is not missed
        library = self.library
        self.importing.run_text_job("sync watched folders", lambda job: library.sync_folders(cancel=job.cancel, embed=False))

    def choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self.feedback.window, "Add folder and keep it in sync", str(Path.home()))
        if folder:
            self.add_folder(folder)

    def add_folder(self, folder: str) -> Job | None:
        path = Path(folder).expanduser().resolve()
        if not path.is_dir():
            self.feedback.report(AppError(f"{path} is not a folder", hint="Choose a folder that exists."))
            return None
        library, name = self.library, str(path)

        def work(job: Job):
            library.watch_folder(name)
            yield from library.sync_folders([name], cancel=job.cancel, embed=False)

        self._watch(name)
        self.view.set_folders(sorted({*self.view.folders(), name}))
        self.feedback.say(f"Keeping {name} in sync: importing what it holds...", 5000)
        return self.importing.run_text_job(f"add {path.name}", work)

    def remove_folder(self, folder: str) -> Job:
        """Stops keeping it in sync; its documents stay in the library."""
        if self.watcher is not None:
            self.watcher.unwatch(folder)
        self.view.set_folders([f for f in self.view.folders() if f != folder])
        library = self.library

        def work(job: Job):
            library.unwatch_folder(folder)
            return iter(())

        self.feedback.say(f"No longer keeping {folder} in sync; its documents stay in the library.", 8000)
        return self.importing.jobs.submit(Job("stop watching", work, on_error=self.feedback.report))

    def sync_changes(self, paths: set[str]) -> Job:
        library = self.library
        return self.importing.run_text_job("sync changes", lambda job: library.sync_folders(changed=paths, cancel=job.cancel, embed=False))

    def _watch(self, folder: str) -> None:
        if self.watcher is None:
            from ...core.ingest import folder_watch

            self.watcher = folder_watch.FolderWatcher(self.relay.changed.emit, quiet_s=folder_watch.QUIET_S)
        self.watcher.watch(folder)

    def shutdown(self) -> None:
        if self.watcher is not None:
            self.watcher.stop()
