"""Watching folders while the app runs: watchdog (inotify, FSEvents, ReadDirectoryChangesW) reports changed paths,
and a debouncer hands them over in one call once the folder has been quiet for a moment.

Saving one document is a burst of events (an office suite writes "~$x.docx" and a temporary file, renames it
over the old one, touches it again), and copying a folder in is hundreds: imported one event at a time, a
file would be read half-written, or several times. The changes wait until nothing has happened for
QUIET_S (but never longer than MAX_WAIT_S while events keep coming), then `on_changes` gets the set of paths,
on the debouncer's thread: the window passes it to its GUI thread, the CLI's `watch run` to its loop.
Which of them are documents to import or remove is folder_sync.py's business.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from .folder_sync import is_ignored

QUIET_S = 2.0
MAX_WAIT_S = 15.0


class Debouncer:
    """Gathers items from any thread; calls `flush(items)` once QUIET_S pass without a new one."""

    def __init__(self, flush: Callable[[set[str]], None], quiet_s: float = QUIET_S, max_wait_s: float = MAX_WAIT_S):
        self._flush = flush
        self.quiet_s = quiet_s
        self.max_wait_s = max_wait_s
        self._lock = threading.Lock()
        self._items: set[str] = set()
        self._first: float | None = None
        self._timer: threading.Timer | None = None

    def add(self, items: Iterable[str]) -> None:
        with self._lock:
            self._items.update(items)
            now = time.monotonic()
            self._first = self._first or now
            if self._timer is not None:
                self._timer.cancel()
            delay = max(0.0, min(self.quiet_s, self._first + self.max_wait_s - now))
            self._timer = threading.Timer(delay, self._fire)
            self._timer.daemon = True
            self._timer.start()

    def _fire(self) -> None:
        with self._lock:
            items, self._items, self._first, self._timer = self._items, set(), None, None
        if items:
            self._flush(items)

    def cancel(self) -> None:
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
            self._items, self._first, self._timer = set(), None, None


class FolderWatcher:
    """Watches folders recursively; changes reach `on_changes(paths)` debounced, temporary and hidden files left out."""

    def __init__(self, on_changes: Callable[[set[str]], None], quiet_s: float = QUIET_S, max_wait_s: float = MAX_WAIT_S):
        from watchdog.events import FileSystemEventHandler
        from watchdog.observers import Observer

        self.debouncer = Debouncer(on_changes, quiet_s, max_wait_s)
        self._observer = Observer()
        self._observer.daemon = True
        self._watches: dict[str, object] = {}
        watcher = self

        class _Handler(FileSystemEventHandler):
            def on_any_event(self, event) -> None:
                watcher._event(event)

        self._handler = _Handler()
        self._observer.start()

    @staticmethod
    def _event_types() -> list[type]:
        from watchdog import events

        # Not opened, closed-without-writing, attribute changes or a folder's own "modified" (its files report).
        return [
            events.FileCreatedEvent, events.FileModifiedEvent, events.FileDeletedEvent, events.FileMovedEvent, events.FileClosedEvent,
            events.DirCreatedEvent, events.DirDeletedEvent, events.DirMovedEvent,
        ]  # fmt: skip

    def watch(self, folder: str) -> None:
        if folder not in self._watches and Path(folder).is_dir():
            self._watches[folder] = self._observer.schedule(self._handler, folder, recursive=True, event_filter=self._event_types())

    def unwatch(self, folder: str) -> None:
        watch = self._watches.pop(folder, None)
        if watch is not None:
            self._observer.unschedule(watch)

    @property
    def folders(self) -> list[str]:
        return sorted(self._watches)

    def _event(self, event) -> None:
        paths = [event.src_path, getattr(event, "dest_path", "")]
        paths = [str(p if isinstance(p, str) else p.decode()) for p in paths if p]
        # A temporary file's own events say nothing, but a rename of one onto a document (an atomic save) does:
        # its destination is kept.
        keep = [p for p in paths if not is_ignored(p, self._folder_of(p))]
        if keep:
            self.debouncer.add(keep)

    def _folder_of(self, path: str) -> str | None:
        return next((f for f in list(self._watches) if path.startswith(f)), None)

    def stop(self) -> None:
        self.debouncer.cancel()
        self._observer.stop()
        self._observer.join(timeout=5)
