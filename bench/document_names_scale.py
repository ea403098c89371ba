"""How long finding the documents a question names takes in a large library, per question (no model, no database).

    python -m bench.document_names_scale [--sizes 1000,10000,100000] [--runs 5]

Each ask matches the question against every document's names twice: the whole-document intent (file names and
titles, overview/intent.py) and the list searched inside a named file (file names only, retrieval/search.py). The
library is made-up documents ("manual-00042.pdf", "Pump service report 42"); the questions name one of them, or none.
Printed: the median time of one question's matching, in milliseconds, for each size; then, through a real SQLite
library of that many documents, the whole-document intent of one question (`whole_document_question`: listing the
documents and matching their names), for an ordinary question and for a summary naming a file.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from desktop_app.core.document_names import named_documents
from desktop_app.core.overview.answering import whole_document_question
from desktop_app.core.storage.store import Store
from desktop_app.core.types import Document

from .common import median, table

QUESTIONS = (
    "What does the -k option of manual-00042 do?",
    "Summarize pump service report 7 for me",
    "How long is the warranty of the kettle?",
    "总结一下manual-00042.pdf",
)


def library(size: int) -> list[Document]:
    return [Document(i, f"/library/manual-{i:05d}.pdf", f"Pump service report {i}", 10, 30, "ready") for i in range(size)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    rows = []
    for size in (int(s) for s in args.sizes.split(",")):
        documents = library(size)
        first, later = [], []
        for run in range(args.runs):
            for question in QUESTIONS:
                started = time.perf_counter()
                named_documents(question, documents)  # the intent's match
                named_documents(question, documents, titles=False)  # the named file's list
                (first if run == 0 else later).append((time.perf_counter() - started) * 1000)
        rows.append([size, f"{median(first):.1f}", f"{median(later):.1f}" if later else "-"])
    print(table(["documents", "ms a question, first run", "ms a question, later runs"], rows))
    rows = []
    for size in (int(s) for s in args.sizes.split(",")):
        with tempfile.TemporaryDirectory() as home:
            store = Store(Path(home) / "library.sqlite")
            with store.conn:
                store.conn.executemany(
                    "INSERT INTO documents(path, title, content_hash, pages, chunks, status) VALUES (?, ?, 'h', 10, 30, 'ready')",
                    [(d.path, d.title) for d in library(size)],
                )
            timed = []
            for question in ("How long is the warranty of the kettle?", "Summarize manual-00042.pdf"):
                runs = []
                for _ in range(args.runs):
                    started = time.perf_counter()
                    whole_document_question(store, question)
                    runs.append((time.perf_counter() - started) * 1000)
                timed.append(f"{median(runs):.1f}")
            store.close()
        rows.append([size, *timed])
    print(table(["documents (SQLite)", "intent ms, ordinary question", "intent ms, summary naming a file"], rows))


if __name__ == "__main__":
    main()
