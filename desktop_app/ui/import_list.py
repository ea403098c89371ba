"""The files being imported, in one line: "Importing 10 files: 3 done, 1 failed", a bar, and the file rows folded
under it in a scrolling list. A finished file's row leaves by itself after a moment; a failed one stays until
dismissed, its reason in the row's tooltip and in the summary's."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QProgressBar, QVBoxLayout, QWidget

from ..core.types import ImportProgress
from .fold import Fold, scrolled
from .import_row import FINISHED_STAGES, ImportRow

ROWS_SHOWN = 3  # the detail is this many rows high at most; more scroll
FINISHED_ROW_STAYS_MS = 6000  # long enough to read "ready"; a failed row stays until dismissed


def plural(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def summary_text(stages: Iterable[str]) -> str:
    """One line for a batch of files from each file's latest stage."""
    counts = Counter(stages)
    total = sum(counts.values())
    finished = sum(counts[s] for s in FINISHED_STAGES)
    problems = [f"{counts[s]} {s}" for s in ("failed", "cancelled") if counts[s]]
    if finished < total:
        return f"Importing {plural(total, 'file')}: " + ", ".join([f"{finished} done", *problems])
    imported = counts["ready"] + counts["skipped"]
    done = [f"{imported} imported"] if imported else []
    done += [f"{counts['removed']} removed"] if counts["removed"] else []
    return f"{plural(total, 'file')}: " + ", ".join(done + problems)


class ImportList(QWidget):
    cancel_requested = Signal(str)  # a file whose import the user cancelled

    def __init__(self, parent=None):
        super().__init__(parent)
        self.rows: dict[str, ImportRow] = {}
        self.stay_ms = FINISHED_ROW_STAYS_MS
        self._batch: dict[str, str] = {}  # every file since the list was last empty -> its latest stage
        self._batch_finished = False
        self._content = QWidget()
        self._rows_layout = QVBoxLayout(self._content)
        self._rows_layout.setContentsMargins(0, 0, 0, 0)
        self._rows_layout.setSpacing(2)
        self._rows_layout.addStretch(1)
        self._row_height = ImportRow("").sizeHint().height() + self._rows_layout.spacing()
        self.detail = scrolled(self._content, ROWS_SHOWN * self._row_height)
        self.bar = QProgressBar()
        self.bar.setTextVisible(False)
        self.bar.setFixedHeight(6)
        self.fold = Fold(self.detail, always=(self.bar,))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.fold)
        self.hide()

    def row(self, file: str) -> ImportRow:
        """The file's row; a new one when it has none or its last import had finished."""
        row = self.rows.get(file)
        if row is None or row.finished:
            if row is not None:
                self.drop(file)
            row = ImportRow(file)
            row.cancel_requested.connect(lambda f=file: self.cancel_requested.emit(f))
            row.dismissed.connect(lambda f=file: self.drop(f))
            self.rows[file] = row
            self._rows_layout.insertWidget(self._rows_layout.count() - 1, row)
        return row

    def show_progress(self, event: ImportProgress) -> None:
        row = self.rows.get(event.file)
        if row is None or (event.stage == "queued" and row.finished):
            row = self.row(event.file)
        row.update_progress(event)
        self._batch[event.file] = event.stage
        if row.finished and row.stage != "failed":
            self._leave_later(event.file, row)
        self._update()

    def _leave_later(self, file: str, row: ImportRow) -> None:
        timer = QTimer(row)  # dies with the row: a row dismissed by hand is not dropped twice
        timer.setSingleShot(True)
        timer.timeout.connect(lambda: self.rows.get(file) is row and self.drop(file))
        timer.start(self.stay_ms)

    def drop(self, file: str) -> None:
        row = self.rows.pop(file, None)
        if row is not None:
            self._rows_layout.removeWidget(row)
            row.deleteLater()
        self._update()

    def clear_finished(self, keep_failed: bool = True) -> None:
        for file, row in list(self.rows.items()):
            if row.finished and not (keep_failed and row.stage == "failed"):
                self.drop(file)

    def failed_rows(self) -> list[ImportRow]:
        return [row for row in self.rows.values() if row.stage == "failed"]

    def _update(self) -> None:
        if not self.rows:
            self._batch.clear()  # the next import counts from zero
            self._batch_finished = False
            self.hide()
            return
        stages = list(self._batch.values())
        finished = sum(1 for s in stages if s in FINISHED_STAGES)
        failed = self.failed_rows()
        tip = "\n".join(f"{Path(r.file).name}: {r.status.text()}" for r in failed)
        self.fold.set_summary(summary_text(stages), (tip + "\n\n" if tip else "") + "Click to show or hide each file")
        # As high as its rows, up to ROWS_SHOWN of them: one failed file left takes one row's height, not three.
        self.detail.setMaximumHeight(min(len(self.rows), ROWS_SHOWN) * self._row_height + 2)
        self.bar.setRange(0, len(stages))
        self.bar.setValue(finished)
        self.bar.setVisible(finished < len(stages))
        if finished == len(stages) and not self._batch_finished and failed:
            self.fold.set_open(True)  # once, as the batch ends: what is left to read is why a file failed
        self._batch_finished = finished == len(stages)
        self.show()
