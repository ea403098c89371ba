"""Index and contents passages in the fused top 10 over the R manuals (issue 34).

Every real manual has an index and a table of contents; their passages ("attach . . . 28, 148") share a
question's words and used to top the fused list. This imports R-intro, R-data and R-exts into a library (kept
in --home and reused), asks 8 ordinary questions (written for this benchmark, about R) in each mode, and
prints how many of each question's fused top 10 are index or contents passages, judged by their shape
(core/navigation_text.py) whatever the library marked. Target: 0 for every question.

    python -m bench.navigation_pages --home /tmp/r-manuals-home [--modes fusion,rag]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from bench.common import require_r_manuals
from desktop_app.core.library import Library
from desktop_app.core.navigation_text import is_navigation

MANUALS = ("R-intro.pdf", "R-data.pdf", "R-exts.pdf")
QUESTIONS = (
    "How do I read a CSV file into a data frame?",
    "How are missing values represented and tested for?",
    "How do I attach a package and what does the search path do?",
    "What does the apply family of functions do?",
    "How do I write a C function that can be called with .Call?",
    "What goes in the DESCRIPTION file of a package?",
    "How do I fit a linear model and read its summary?",
    "How can I import data from a spreadsheet or a database?",
)
TOP = 10


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", required=True, help="data folder of the R manuals' library (reused across runs)")
    parser.add_argument("--modes", default="fusion,rag")
    args = parser.parse_args(argv)
    library = Library(home=Path(args.home))
    for event in library.import_paths(require_r_manuals(*MANUALS)):
        if event.stage in ("ready", "failed", "skipped"):
            print(f"{Path(event.file).name}: {event.stage} {event.message}", flush=True)
    marked = library.store.conn.execute("SELECT count(*) FROM chunks WHERE navigation = 1").fetchone()[0]
    print(f"{library.store.chunk_count()} passages, {marked} marked as index or contents")
    worst = 0
    for mode in args.modes.split(","):
        print(f"\n{mode}: index or contents passages in the fused top {TOP}")
        total = 0
        for question in QUESTIONS:
            result = list(library.pipeline().search(question, mode))[-1].result
            top = result.sources[:TOP]
            navigation = [s for s in top if is_navigation(s.passage.text)]
            total += len(navigation)
            worst = max(worst, len(navigation))
            first = f"{Path(top[0].passage.file).name} p. {top[0].passage.page}" if top else "-"
            where = ", ".join(f"{Path(s.passage.file).name} p. {s.passage.page}" for s in navigation)
            print(f"  {len(navigation):2d}  {question}  (first: {first}){'  ' + where if where else ''}", flush=True)
        print(f"  total {total} of {TOP * len(QUESTIONS)}")
    library.close()
    print(f"\nmost in one question's top {TOP}: {worst}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
