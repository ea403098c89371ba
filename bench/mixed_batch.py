"""A mixed batch dropped at once: when is every file listed, searchable by keyword, and in the meaning index?

    python -m bench.import_throughput --mixed-batch [--via window|cli] [--label NAME] [--stop-after-passages N]
    python -m bench.import_throughput --compare before.json after.json

The batch is R-intro.pdf (105 pages), the R reference manual fullrefman.pdf (2,415 pages) and broken.pdf
(text, not a PDF), dropped together, in that order. Each run imports into a fresh data folder in a fresh
child process with the real embedder (loaded before the clock starts, so model loading is not counted).

`--via window` (the default) drops the files on the real window (offscreen Qt) and watches what a person
sees: a row in the library panel per file (listed), the broken file's row turning to its error message,
each document's text committed (its status in the library leaves "absent": it is listed in the documents
table and found by keyword search), and the last passage embedded (nothing pending). `--via cli` consumes
the events `desktop-app-cli ingest` shows. Only APIs that exist before and after issue 16 are used, so the
same file measures both versions of the code (copy it into a checkout of the old commit to run it there).

`--stop-after-passages N` ends the run once every good file is searchable and N passages are embedded in all
(embedding the manual's ~6,700 passages takes 20+ minutes on a loaded 2-core machine). The table then gives the
embedding rate measured since every good file became searchable, and the time "fully in the meaning index" is a
projection (marked as such): the moment of the stop + the passages still waiting / that rate. Moments that come
only after the last passage (the old code lists the broken file only then) are not reached in such a run.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

from .common import require_r_manuals, table

BATCH = ("R-intro.pdf", "fullrefman.pdf")
BROKEN = "broken.pdf"
POLL_S = 0.1
GIVE_UP_S = 4 * 3600.0

# What each measured moment means, in the order the table prints them.
MILESTONES = (
    ("listed", "every file of the drop has its row"),
    ("broken_failed", f"{BROKEN} shows why it failed"),
    *((f"searchable:{name}", f"{name} searchable by keyword") for name in BATCH),
    ("all_searchable", "every good file searchable by keyword"),
    ("indexed", "fully in the meaning index (all embedded)"),
    ("projected_indexed", "fully in the meaning index, PROJECTED (stopped early)"),
    ("stopped", "run stopped early (--stop-after-passages)"),
)


def _batch_files(folder: Path) -> list[Path]:
    files = require_r_manuals(*BATCH)
    broken = folder / BROKEN
    broken.write_text("This file has a .pdf name but holds plain text, as a truncated download might.\n")
    return [*files, broken]


def _library(home: Path):
    from desktop_app.core.library import Library

    library = Library(home)
    library.embedder.embed(["warm up"])  # model load is start-up cost, not import time
    import pymupdf  # noqa: F401  (its first import takes seconds; the window's warm-up does it too)

    return library


class _Clock:
    """Records the first moment each milestone is seen, in seconds since the drop, and the embedding's pace."""

    def __init__(self, stop_after: int | None = None):
        self.started = time.perf_counter()
        self.seen: dict[str, float] = {}
        self.stop_after = stop_after
        self.embedded_at_searchable: int | None = None  # passages embedded when every good file became searchable
        self.rate: float | None = None  # passages embedded per second since then
        self.pending_at_stop: int | None = None

    def now(self) -> float:
        return time.perf_counter() - self.started

    def mark(self, name: str) -> None:
        self.seen.setdefault(name, self.now())

    def should_stop(self, embedded: int, pending: int) -> bool:
        """With --stop-after-passages: True (and the projection made) once enough is embedded after all is searchable."""
        if self.stop_after is None or "all_searchable" not in self.seen or pending == 0:
            return False
        if self.embedded_at_searchable is None:
            self.embedded_at_searchable = embedded
            return False
        if embedded < self.stop_after or embedded <= self.embedded_at_searchable:
            return False
        elapsed = self.now() - self.seen["all_searchable"]
        self.rate = (embedded - self.embedded_at_searchable) / elapsed
        self.pending_at_stop = pending
        self.mark("stopped")
        self.seen["projected_indexed"] = self.seen["stopped"] + pending / self.rate
        return True


def _check_library(library, files: list[Path], clock: _Clock) -> bool:
    """Marks what the library holds now; True when every good file is embedded (or the run stops early)."""
    good = [str(f.resolve()) for f in files if f.name != BROKEN]
    stored = {d.path: d for d in library.documents()}
    for path in good:
        if path in stored:  # committed with its chunks in one transaction: listed and found by keyword
            clock.mark(f"searchable:{Path(path).name}")
    if all(p in stored for p in good):
        clock.mark("all_searchable")
        pending = library.store.pending_count()
        if pending == 0 and all(stored[p].status == "ready" for p in good):
            clock.mark("indexed")
            return True
        return clock.should_stop(library.store.chunk_count() - pending, pending)
    return False


def run_window(files: list[Path], home: Path, stop_after: int | None = None) -> dict:
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from desktop_app.ui.main_window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    library = _library(home)
    window = MainWindow(library, warm_up=False)
    window.library_panel.imports.stay_ms = 24 * 3600 * 1000  # finished rows stay, so each file's last word can be read here
    window.show()
    app.processEvents()
    names = [str(f.resolve()) for f in files]
    clock = _Clock(stop_after)
    window.import_controller.import_paths([str(f) for f in files])
    clock.mark("drop_returned")

    def poll() -> None:
        rows = window.library_panel.rows
        if all(n in rows for n in names):
            clock.mark("listed")
        broken = rows.get(str(files[-1].resolve()))
        if broken is not None and broken.stage == "failed":
            clock.mark("broken_failed")
        done = _check_library(library, files, clock)
        finished = all(n in rows and rows[n].finished for n in names)
        stopped = "stopped" in clock.seen
        if (done and finished and "broken_failed" in clock.seen) or stopped or time.perf_counter() - clock.started > GIVE_UP_S:
            app.quit()

    timer = QTimer()
    timer.timeout.connect(poll)
    timer.start(int(POLL_S * 1000))
    app.exec()
    timer.stop()
    statuses = {Path(n).name: window.library_panel.rows[n].status.text() for n in names if n in window.library_panel.rows}
    window.close()
    result = _summary(library, clock, "window")  # read after the close: what the stop left is settled
    result["row_texts"] = statuses
    library.close()
    return result


def run_cli(files: list[Path], home: Path, stop_after: int | None = None) -> dict:
    library = _library(home)
    clock = _Clock(stop_after)
    listed: set[str] = set()
    names = {str(f.resolve()) for f in files}
    for event in library.import_paths(files):
        if event.file in names:
            listed.add(event.file)
            if listed == names:
                clock.mark("listed")
        if event.file.endswith(BROKEN) and event.stage == "failed":
            clock.mark("broken_failed")
        if event.stage in ("searchable", "ready"):
            clock.mark(f"searchable:{Path(event.file).name}")
        if _check_library(library, files, clock) and "stopped" in clock.seen:
            break
    _check_library(library, files, clock)
    result = _summary(library, clock, "cli")
    library.close()
    return result


def _summary(library, clock: _Clock, via: str) -> dict:
    docs = library.documents()
    return {
        "via": via,
        "seconds": clock.seen,
        "documents": [{"title": d.title, "pages": d.pages, "chunks": d.chunks, "status": d.status} for d in docs],
        "passages": sum(d.chunks for d in docs),
        "stop_after_passages": clock.stop_after,
        "passages_per_s_after_searchable": clock.rate,
        "passages_pending_at_stop": clock.pending_at_stop,
        "load_avg_end": os.getloadavg(),
        "cpus": os.cpu_count(),
    }


def child(via: str, stop_after: int | None = None) -> dict:
    with tempfile.TemporaryDirectory(prefix="bench-mixed-") as tmp:
        folder = Path(tmp)
        files = _batch_files(folder)
        load_start = os.getloadavg()
        result = (run_window if via == "window" else run_cli)(files, folder / "home", stop_after)
        result["load_avg_start"] = load_start
        return result


def print_table(runs: list[tuple[str, dict]]) -> None:
    """One column per run (e.g. before / after), one row per milestone: seconds from the drop."""
    first = runs[0][1]
    pages = {d["title"]: d["pages"] for d in first.get("documents", [])}
    print()
    print(f"A mixed batch dropped at once ({first['via']}): {' + '.join(BATCH)} ({sum(pages.values()) or '?'} pages, "
          f"{first.get('passages', '?')} passages in all) + {BROKEN} (not a PDF), in that order.")
    print("Seconds from the drop until each moment; '-' = not reached. Lower is better.")
    print("  listed: every file has a row with its status; searchable: its text is stored, found by keyword search")
    print("  and answerable; meaning index: every passage embedded (questions then search them by meaning too).")
    rows = []
    for key, label in MILESTONES:
        values = [r["seconds"].get(key) for _, r in runs]
        rows.append((label, *(v if isinstance(v, float) else "-" for v in values)))
    rates = [r.get("passages_per_s_after_searchable") for _, r in runs]
    rows.append(("embedding rate once all was searchable (passages/s)", *(v if isinstance(v, float) else "-" for v in rates)))
    print(table(("seconds from the drop until", *(name for name, _ in runs)), rows))
    for name, r in runs:
        if r.get("passages_per_s_after_searchable"):
            embedded = r["passages"] - r["passages_pending_at_stop"]
            print(f"  {name}: stopped once {embedded:,} passages were embedded (asked: {r['stop_after_passages']:,}), {r['passages_pending_at_stop']:,} still waiting;"
                  f" PROJECTED = stop + waiting / rate. Moments after the last passage are '-' (not reached).")
    loads = ", ".join(f"{name}: {r['load_avg_start'][0]:.1f} at start, {r['load_avg_end'][0]:.1f} at end" for name, r in runs)
    print(f"1-minute load average on {first['cpus']} CPUs ({loads}); above ~{first['cpus']} other work was competing.")


def main_mixed(via: str, label: str, stop_after: int | None = None) -> int:
    import subprocess

    from .common import write_results

    cmd = [sys.executable, "-X", "faulthandler", "-m", "bench.import_throughput", "--mixed-batch-child", via]
    if stop_after is not None:
        cmd += ["--stop-after-passages", str(stop_after)]
    print(f"importing the mixed batch through the {via} ({label}) ...", flush=True)
    out = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        print(f"the child failed (exit code {out.returncode}):\n{out.stderr[-3000:]}")
        return 1
    result = json.loads(out.stdout.strip().splitlines()[-1])
    result["label"] = label
    print_table([(label, result)])
    path = write_results(f"import_mixed_batch-{via}-{label}", result)
    print(f"results: {path}")
    return 0


def main_compare(paths: list[str]) -> int:
    runs = []
    for path in paths:
        data = json.loads(Path(path).read_text())
        runs.append((data.get("label") or Path(path).stem, data))
    print_table(runs)
    return 0
