"""Loading the models in the background, and their state in the status bar: loading, preparing (a bar), ready, failed."""

from __future__ import annotations

from dataclasses import dataclass, field

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QLabel, QProgressBar

from ...core.library import Library
from ..workers import Job, JobRunner
from .feedback import Feedback

NOT_AVAILABLE = "Model: not available"


class _ProgressRelay(QObject):
    """Carries the model's byte progress from the worker thread to the GUI thread."""

    progressed = Signal(int, int)


@dataclass(eq=False)
class ModelController:
    library: Library
    jobs: JobRunner  # the model runner: llama.cpp is not thread-safe, so all model work goes through it
    label: QLabel
    bar: QProgressBar
    feedback: Feedback
    ready: bool = field(default=False, init=False)
    loading: bool = field(default=False, init=False)  # a warm-up job is queued or running

    def __post_init__(self) -> None:
        self.relay = _ProgressRelay(self.label)
        self.relay.progressed.connect(self._show_progress, Qt.ConnectionType.QueuedConnection)

    def warm_up(self) -> Job:
        """Load the models in the background so the first question does not wait; the window is already usable."""
        self.library.model_progress = self.relay.progressed.emit
        library = self.library

        def work(job: Job):
            yield "Getting the search ready..."
            import pymupdf  # noqa: F401  (seconds on first import; better here than in the first import job)

            load = getattr(library.embedder, "load", None)
            if load:
                load()
            if job.cancel.is_set():  # the window is closing
                return
            yield f"Loading the answer model, {library.model_label()}..."
            generator = library.generator()
            load = getattr(generator, "load", None)
            if load:
                load()
            if job.cancel.is_set():  # closed while the model loaded: the library may be closed already
                return
            yield "Getting the answer model ready for your first question..."
            library.pipeline().warm_up()
            yield None

        self.ready, self.loading = False, True
        self._show_busy()
        return self.jobs.submit(Job("warm-up", work, on_item=self._show_status, on_error=self._failed))

    def _show_busy(self) -> None:
        """A moving bar from the start of loading: reading a model file can take tens of seconds before any
        byte progress is known (then the bar shows it)."""
        self.bar.setRange(0, 0)
        self.bar.setFormat("loading the models")
        self.bar.setToolTip("The models are loading; a question asked now starts once they are ready")
        self.bar.show()

    def show_answering(self) -> None:
        self.label.setText("Answering..." if self.ready else "Loading the models, then answering...")

    def show_idle(self) -> None:
        """After an answer: back to "ready" once the models are loaded (else the warm-up's own status follows)."""
        if self.ready:
            self._show_status(None)

    def _show_status(self, text: str | None) -> None:
        if text is None:  # the warm-up's last step
            self.ready, self.loading = True, False
            self.bar.hide()
            self.label.setText(f"Model: {self.library.model_label()} · ready")
        else:
            self.label.setText(text)

    def _show_progress(self, done: int, total: int) -> None:
        self.bar.show()
        self.bar.setRange(0, 1000)
        self.bar.setFormat("preparing model %p%")
        self.bar.setValue(int(1000 * done / total) if total else 0)
        if done >= total:
            if not self.loading:
                self.bar.hide()
            else:
                self.bar.setRange(0, 0)  # prepared; loading goes on

    def _failed(self, exc: BaseException) -> None:
        self.loading = False
        self.bar.hide()
        self.label.setText(NOT_AVAILABLE)
        self.feedback.report(exc)
