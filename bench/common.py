"""Shared helpers for the benchmarks: environment, medians, tables, JSON results, memory."""

from __future__ import annotations

import json
import os
import platform
import resource
import statistics
import time
from collections.abc import Sequence
from pathlib import Path

# Models come from local files only; the benchmarks must run offline like the app.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

RESULTS_DIR = Path(__file__).resolve().parent / "results"
R_MANUALS = Path("/usr/share/R/doc/manual")


def require_r_manuals(*names: str) -> list[Path]:
    missing = [n for n in names if not (R_MANUALS / n).exists()]
    if missing:
        raise SystemExit(
            f"Missing {', '.join(missing)} in {R_MANUALS}. Install the corpus first: "
            "sudo apt-get update && sudo apt-get install -y r-doc-pdf"
        )
    return [R_MANUALS / n for n in names]


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else float("nan")


def rss_mb() -> float:
    """Current resident memory of this process, from /proc (Linux)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def peak_rss_mb() -> float:
    """Peak resident memory of this process. VmHWM first: Linux carries ru_maxrss across exec, so a
    child started by a big process would report its parent's size."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def peak_children_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    def cell(v: object) -> str:
        if isinstance(v, float):
            return f"{v:.3f}" if abs(v) < 10 else f"{v:.1f}"
        return str(v)

    body = [[cell(v) for v in row] for row in rows]
    widths = [max(len(h), *(len(r[i]) for r in body)) if body else len(h) for i, h in enumerate(headers)]
    line = "  ".join(h.ljust(w) for h, w in zip(headers, widths))
    out = [line, "  ".join("-" * w for w in widths)]
    out += ["  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))) for r in body]
    return "\n".join(out)


def machine() -> dict:
    return {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform(), "load_avg": os.getloadavg()}


def write_results(name: str, payload: dict) -> Path:
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    payload = {"benchmark": name, "utc": stamp, "machine": machine(), **payload}
    path = RESULTS_DIR / f"{name}-{stamp}.json"
    path.write_text(json.dumps(payload, indent=2, default=str))
    (RESULTS_DIR / f"{name}-latest.json").write_text(path.read_text())
    return path


class Stopwatch:
    """Accumulates named durations: `with sw("embedding"): ...`."""

    def __init__(self):
        self.totals: dict[str, float] = {}
        # CPU seconds of the whole process (all threads) during each span: on a machine shared with
        # other jobs, wall time swells with the load but CPU time stays close to what the work costs.
        self.cpu: dict[str, float] = {}

    def __call__(self, name: str):
        watch = self

        class _Span:
            def __enter__(self):
                self.start = time.perf_counter()
                self.cpu_start = time.process_time()

            def __exit__(self, *exc):
                watch.totals[name] = watch.totals.get(name, 0.0) + time.perf_counter() - self.start
                watch.cpu[name] = watch.cpu.get(name, 0.0) + time.process_time() - self.cpu_start

        return _Span()
