"""Background jobs: a generator runs on a worker thread; each item it yields arrives on the GUI thread.

One `JobRunner` owns one QThread and runs its jobs one after another, so all model work
(llama.cpp is not thread-safe) goes through a single runner, and imports through another.
Widgets are never touched from the worker: the job's callbacks run on the GUI thread.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from PySide6.QtCore import QObject, Qt, QThread, Signal, Slot


@dataclass(eq=False)
class Job:
    name: str
    work: Callable[["Job"], Iterator[object]]
    on_item: Callable[[object], None] | None = None
    on_done: Callable[[], None] | None = None
    on_error: Callable[[BaseException], None] | None = None
    cancel: threading.Event = field(default_factory=threading.Event)
    started: bool = False
    finished: bool = False


BACKGROUND_NICENESS = 5
SHUTDOWN_WAIT_MS = 30_000  # at quit: how long the window waits for a running job (an import stops within a batch)
_UNFINISHED: list[QThread] = []  # threads still running at quit: never destroyed while they run

log = logging.getLogger(__name__)


def unfinished_threads() -> bool:
    return any(thread.isRunning() for thread in _UNFINISHED)


def _lower_thread_priority() -> None:
    """Background work yields the CPU to the GUI thread; threads it starts (llama.cpp's) inherit this on Linux."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), BACKGROUND_NICENESS)
    except (AttributeError, OSError):
        pass  # per-thread priority is a Linux feature; elsewhere the default scheduling is fine


class _Waiting:
    """Jobs submitted and not begun: counted under a lock, so the running job may ask from the worker thread."""

    def __init__(self):
        self._lock = threading.Lock()
        self._count = 0

    def add(self, n: int) -> None:
        with self._lock:
            self._count += n

    def __bool__(self) -> bool:
        with self._lock:
            return self._count > 0


class _Worker(QObject):
    item = Signal(object, object)
    failed = Signal(object, object)
    done = Signal(object)
    began = Signal(object)

    def __init__(self, waiting: _Waiting):
        super().__init__()
        self.waiting = waiting

    @Slot(object)
    def run(self, job: Job) -> None:
        self.waiting.add(-1)
        if not getattr(self, "_prioritised", False):
            _lower_thread_priority()
            self._prioritised = True
        if job.cancel.is_set():
            self.done.emit(job)
            return
        self.began.emit(job)
        items = None
        try:
            items = job.work(job)
            for value in items:
                self.item.emit(job, value)
        except BaseException as exc:  # delivered to the GUI, which decides how to show it
            self.failed.emit(job, exc)
        finally:
            close = getattr(items, "close", None)
            if close:
                close()
            self.done.emit(job)


def call_in_background(
    runner: JobRunner,
    name: str,
    call: Callable[[], object],
    on_result: Callable[[object], None] | None = None,
    on_error: Callable[[BaseException], None] | None = None,
) -> Job:
    """Runs `call()` on the runner's thread (a database write waits for the lock there, never in the window);
    its return value reaches `on_result` on the GUI thread."""

    def work(job: Job) -> Iterator[object]:
        yield call()

    return runner.submit(Job(name, work, on_item=on_result, on_error=on_error))


class JobRunner(QObject):
    """Runs submitted jobs in order on its own thread."""

    busy_changed = Signal(bool)
    _submit = Signal(object)

    def __init__(self, name: str, parent: QObject | None = None):
        super().__init__(parent)
        self._thread = QThread()
        self._thread.setObjectName(name)
        self._waiting = _Waiting()
        self._worker = _Worker(self._waiting)
        self._worker.moveToThread(self._thread)
        self._submit.connect(self._worker.run)
        # Queued explicitly: the callbacks must run on the GUI thread, whatever PySide guesses.
        queued = Qt.ConnectionType.QueuedConnection
        self._worker.item.connect(self._on_item, queued)
        self._worker.failed.connect(self._on_failed, queued)
        self._worker.done.connect(self._on_done, queued)
        self._worker.began.connect(self._on_began, queued)
        self._pending: list[Job] = []
        self.current: Job | None = None
        self._thread.start()

    @property
    def busy(self) -> bool:
        return bool(self._pending)

    def has_waiting_jobs(self) -> bool:
        """Another job waits behind the running one (safe to ask from the worker thread: a long job that can
        stop and resume, like the embedding queue, lets it go first)."""
        return bool(self._waiting)

    def submit(self, job: Job) -> Job:
        self._waiting.add(1)
        self._pending.append(job)
        if len(self._pending) == 1:
            self.busy_changed.emit(True)
        self._submit.emit(job)
        return job

    def cancel_all(self) -> None:
        for job in self._pending:
            job.cancel.set()

    def shutdown(self, wait_ms: int | None = None, cancel: bool = True) -> bool:
        """Stops the thread after the running job; `cancel=False` lets the queued ones (writes to keep) run first.

        Returns False when a job outlasted the wait (a model load cannot be interrupted): its thread is then
        kept referenced, since destroying a running QThread aborts the process, and the app leaves with os._exit.
        """
        if cancel:
            self.cancel_all()
        self._thread.quit()
        finished = self._thread.wait(SHUTDOWN_WAIT_MS if wait_ms is None else wait_ms)
        if not finished:
            log.warning("quit while %s was still running: %s", self._thread.objectName(), self.current.name if self.current else "?")
            _UNFINISHED.append(self._thread)
        return finished

    @property
    def finished(self) -> bool:
        return not self._thread.isRunning()

    # Slots below run on the GUI thread (the runner lives there).
    @Slot(object)
    def _on_began(self, job: Job) -> None:
        job.started = True
        self.current = job

    @Slot(object, object)
    def _on_item(self, job: Job, value: object) -> None:
        if job.on_item:
            job.on_item(value)

    @Slot(object, object)
    def _on_failed(self, job: Job, exc: BaseException) -> None:
        if job.on_error:
            job.on_error(exc)
        else:
            raise exc

    @Slot(object)
    def _on_done(self, job: Job) -> None:
        job.finished = True
        if self.current is job:
            self.current = None
        if job in self._pending:
            self._pending.remove(job)
        try:
            if job.on_done:
                job.on_done()
        finally:
            if not self._pending:
                self.busy_changed.emit(False)
