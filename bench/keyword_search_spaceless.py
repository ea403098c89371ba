"""Keyword search alone over a made-up Chinese set: does the keyword list hold the passage that states the answer?

    python -m bench.build_made_up_sets ... (the "chinese" set; see bench/answer_trust.py)
    python -m bench.keyword_search_spaceless .cache/answer-trust-fresh10/chinese tune

Each document of the set's corpus.jsonl is chunked as an import chunks it and stored in a fresh library, with no
vectors; each question of the half (its Chinese text) is searched by the store's keyword search alone. A hit: a
passage among the top 1 or top 5 holds one of the question's answers. No model, no timing; a few seconds.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from desktop_app.core.ingest.chunking import chunk_pages
from desktop_app.core.storage.store import Store
from desktop_app.core.types import PageText


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="a BEIR folder with tune/ and report/ halves")
    parser.add_argument("half", choices=("tune", "report"))
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as home:
        store = Store(Path(home) / "library.sqlite")
        for line in (args.folder / "corpus.jsonl").read_text(encoding="utf-8").splitlines():
            doc = json.loads(line)
            page = PageText(1, doc["text"])
            store.save_document(f"/set/{doc['_id']}.txt", doc["title"], doc["_id"], [page], 1, chunk_pages([page]), None)
        questions = [json.loads(line) for line in (args.folder / args.half / "queries.jsonl").read_text(encoding="utf-8").splitlines()]
        found = {"any passage": 0, "answer in top 1": 0, "answer in top 5": 0}
        for q in questions:
            hits = store.keyword_search(q["text"], 5)
            passages = store.passages([h.chunk_id for h in hits])
            ranked = [passages[h.chunk_id].text for h in hits]
            holds = [any(a in t for a in q["answers"]) for t in ranked]
            found["any passage"] += bool(ranked)
            found["answer in top 1"] += bool(holds[:1] and holds[0])
            found["answer in top 5"] += any(holds)
        store.close()
    print(f"{args.half}: {len(questions)} questions, keyword search alone")
    for name, count in found.items():
        print(f"  {name:16} {count:3d}  ({count / max(len(questions), 1):.2f})")


if __name__ == "__main__":
    main()
