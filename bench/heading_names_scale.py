"""How long reading a question's words against a large library's section headings takes (Store.heading_names).

    python -m bench.heading_names_scale [--sizes 10000,100000] [--runs 20]

Every question that writes no code asks the library whether a section heading writes one of its words as a dotted
code's last part ("drain" under "io.drain(path[, options])"), twice per question (its keyword list's weight and its own
passage). The library here is made-up: SQLite, 10,000 sections per document, each headed as a reference's function
("mod3.func17(path[, options])"). Printed: the median milliseconds of one call, for a question whose words no heading
writes and one whose words ("path", "options") every heading holds but none after a dot.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

from desktop_app.core.storage.chunks import content_words
from desktop_app.core.storage.store import Store
from desktop_app.core.types import ChunkDraft, PageText

from .common import table

QUESTIONS = ("What is the default timeout of drain when nothing is passed?", "Which options and path does drain take?")
PER_DOCUMENT = 10_000


def build(store: Store, size: int) -> None:
    for doc in range(size // PER_DOCUMENT):
        numbers = range(1, PER_DOCUMENT + 1)
        pages = [PageText(n, f"text {n}", section=f"mod{doc}.func{n}(path[, options])") for n in numbers]
        drafts = [ChunkDraft(page=n, start=0, end=len(f"text {n}"), text=f"text {n}") for n in numbers]
        vectors = np.zeros((PER_DOCUMENT, 384), dtype=np.float32)
        vectors[:, 0] = 1
        store.save_document(f"/made-up/doc{doc}.html", f"reference {doc}", f"hash{doc}", pages, len(pages), drafts, vectors)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000", help="section counts")
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args(argv)
    rows = []
    for size in (int(s) for s in args.sizes.split(",")):
        with tempfile.TemporaryDirectory() as folder:
            store = Store(Path(folder) / "library.sqlite")
            build(store, size)
            medians = []
            for question in QUESTIONS:
                words = content_words(question)
                times = []
                for _ in range(args.runs):
                    started = time.perf_counter()
                    store.heading_names(words)
                    times.append(time.perf_counter() - started)
                medians.append(f"{1000 * statistics.median(times):.1f}")
            store.close()
        rows.append((f"{size:,}", *medians))
        print(*rows[-1], flush=True)
    print(table(("sections", "no heading holds its words, ms", "every heading holds them, not after a dot, ms"), rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
