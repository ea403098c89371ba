"""Section-option set: where a function's own option item ranks, in a real HTML API reference (issue 34).

In a reference every function lists the same options ("timeout", "cwd", "encoding"), and only the heading of the
section an item sits in says whose it is. This asks, for each option with a documented default, "what is the default
<option> of <function>?" and finds where that function's own item ranks: in keyword search alone and in each mode's
fused list (the model reads sentences of its first 10).

BENCHMARK DATA GENERATOR. The reference is Node.js's, from Debian's nodejs-doc package (/usr/share/doc/nodejs/api),
which nobody on the team wrote. The questions come from its machine-readable twin (<module>.json.gz: each method's
options and their defaults) by a fixed template, never by reading answers; nothing here may be copied into
desktop_app/.

    python -m bench.section_options build --out .cache/section-options
    python ../shared/bench/split_devset.py .cache/section-options
    python -m bench.section_options run --set .cache/section-options/tune --home .cache/section-options-home \\
        --json .cache/section-options/tune-ranks.json [--modes keyword,rag,fusion]
    python -m bench.paired_difference NEW.json --against OLD.json --metrics recall@1,recall@10,mrr@10

`build` writes a BEIR-shaped folder (queries.jsonl, qrels.tsv, corpus.jsonl: one record per option item, named
"<file>|<section heading>|<option>"), so split_devset.py halves it by question. `run` imports the HTML pages into
--home (kept and reused) and prints, per mode, the share of questions whose item is first, in the first 5 and in the
first 10, and the mean reciprocal rank.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import re
import statistics
from pathlib import Path

DOCS = Path("/usr/share/doc/nodejs/api")
# Pages whose functions share option names, so the heading is what tells their items apart.
PAGES = ("child_process", "zlib", "fs", "http", "net", "crypto", "stream", "worker_threads", "readline", "dns", "util", "tls")
TEMPLATES = (
    "What is the default {option} of {function}?",
    "What does {function} use for {option} by default?",
    "If I don't pass {option} to {function}, what value does it take?",
)
SOURCES = 5  # Settings.top_k: the answer reads sentences of the first 2 x top_k fused passages


def plain(text: str) -> str:
    return " ".join(text.replace("`", "").split())


def methods(node: dict):
    for key in ("modules", "classes", "methods"):
        for child in node.get(key, []):
            if key == "methods":
                yield child
            yield from methods(child)


def questions_of(page: str) -> list[dict]:
    tree = json.load(gzip.open(DOCS / f"{page}.json.gz"))
    found = []
    for method in methods(tree):
        heading = plain(method["textRaw"])
        function = heading.split("(")[0].strip()
        for signature in method.get("signatures", [])[:1]:
            for param in signature.get("params", []):
                for option in param.get("options", []):
                    if option.get("default") and option.get("name") and re.fullmatch(r"\w+", option["name"]):
                        key = f"{page}.html|{heading}|{option['name']}"
                        number = int(hashlib.sha256(key.encode()).hexdigest(), 16)
                        name = function if number % 2 else function.rsplit(".", 1)[-1]
                        question = TEMPLATES[number % len(TEMPLATES)].format(option=option["name"], function=name)
                        found.append({"key": key, "question": question, "default": plain(option["default"])})
    return found


def build(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    rows = [q for page in PAGES if (DOCS / f"{page}.json.gz").is_file() for q in questions_of(page)]
    unique = {q["key"]: q for q in rows}.values()  # a method documented twice keeps one question
    with open(out / "queries.jsonl", "w") as queries, open(out / "corpus.jsonl", "w") as corpus, open(out / "qrels.tsv", "w") as qrels:
        qrels.write("query-id\tcorpus-id\tscore\n")
        for number, q in enumerate(unique):
            qid = f"so{number:04d}"
            queries.write(json.dumps({"_id": qid, "text": q["question"], "default": q["default"]}) + "\n")
            corpus.write(json.dumps({"_id": q["key"], "title": q["key"], "text": ""}) + "\n")
            qrels.write(f"{qid}\t{q['key']}\t1\n")
    print(f"{len(unique)} questions over {len(PAGES)} pages in {out}")


def item_pattern(option: str) -> re.Pattern[str]:
    """An option's item in a section's text: a line that starts with the option's name (after a bullet)."""
    return re.compile(rf"(?m)^\s*(?:[-*\u2022]\s*)?{re.escape(option)}\b")


def gold_chunks(conn, key: str) -> set[int]:
    file, heading, option = key.split("|")
    pattern = item_pattern(option)
    sql = "SELECT c.id, c.text, p.section FROM chunks c JOIN pages p ON p.document_id = c.document_id AND p.number = c.page JOIN documents d ON d.id = c.document_id WHERE d.path LIKE ?"
    return {cid for cid, text, section in conn.execute(sql, (f"%/{file}",)) if plain(section or "") == heading and pattern.search(text)}


def run(args: argparse.Namespace) -> None:
    from desktop_app.core.library import Library
    from desktop_app.core.pipeline import Pipeline
    from desktop_app.evaluation.query_cache import CachedGenerator

    folder = Path(args.set)
    queries = [json.loads(line) for line in (folder / "queries.jsonl").read_text().splitlines() if line.strip()]
    keys = {}
    for line in (folder / "qrels.tsv").read_text().splitlines()[1:]:
        qid, key, _ = line.split("\t")
        keys[qid] = key
    library = Library(home=Path(args.home))
    cache = CachedGenerator(library.generator, Path(args.cache), library.settings.model)  # a re-run writes no query again
    files = sorted({DOCS / keys[q["_id"]].split("|")[0] for q in queries})
    for event in library.import_paths(files):
        if event.stage in ("failed", "skipped"):
            print(f"{Path(event.file).name}: {event.stage} {event.message}", flush=True)
    conn = library.store.conn
    modes = args.modes.split(",")
    rows, unfound = [], 0
    for q in queries:
        gold = gold_chunks(conn, keys[q["_id"]])
        if not gold:
            unfound += 1  # the import did not keep the item as a line of its own under its heading
            continue
        row = {"id": q["_id"], "modes": {}}
        for mode in modes:
            if mode == "keyword":
                ids = [{hit.chunk_id} for hit in library.store.keyword_search(q["text"], 50)]
            else:
                library.refresh_index()
                pipeline = Pipeline(library.store, library.index, library.embedder, lambda: cache, library.settings, library.tables, library.reading_speed)
                # A row holds its passage and the places of the same text merged into it (retrieval/duplicates.py).
                ids = [{s.passage.chunk_id, *(place.chunk_id for place in s.also)} for s in list(pipeline.search(q["text"], mode))[-1].result.sources]
            rank = next((n for n, row in enumerate(ids, start=1) if row & gold), None)
            row["modes"][mode] = {
                "rank": rank,
                "recall@1": float(rank == 1),
                f"recall@{SOURCES}": float(rank is not None and rank <= SOURCES),
                "recall@10": float(rank is not None and rank <= 10),
                "mrr@10": 1.0 / rank if rank and rank <= 10 else 0.0,
            }
        rows.append(row)
        if args.verbose:
            print(q["_id"], {m: r["rank"] for m, r in row["modes"].items()}, flush=True)
    library.close()
    print(f"{len(rows)} questions scored ({unfound} whose item the import did not find under its heading)")
    print(f"{'mode':10s} {'R@1':>6s} {f'R@{SOURCES}':>6s} {'R@10':>6s} {'MRR@10':>7s}")
    for mode in modes:
        scores = [r["modes"][mode] for r in rows]
        print(f"{mode:10s} " + " ".join(f"{statistics.fmean(s[m] for s in scores):6.3f}" for m in ("recall@1", f"recall@{SOURCES}", "recall@10")) + f" {statistics.fmean(s['mrr@10'] for s in scores):7.3f}")
    if args.json:
        Path(args.json).write_text(json.dumps({"questions": rows}, indent=1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build")
    b.add_argument("--out", type=Path, default=Path(".cache/section-options"))
    r = sub.add_parser("run")
    r.add_argument("--set", required=True, help="a half of the built set (tune/ or report/)")
    r.add_argument("--home", required=True, help="data folder of the reference's library (reused across runs)")
    r.add_argument("--modes", default="keyword,rag,fusion")
    r.add_argument("--json", help="write per-question ranks here (for bench.paired_difference --against)")
    r.add_argument("--cache", default=".cache/section-options/llm-cache.sqlite", help="the model's replies, kept for re-runs")
    r.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv)
    build(args.out) if args.command == "build" else run(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
