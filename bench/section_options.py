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


def question(function: str, option: str, key: str) -> str:
    number = int(hashlib.sha256(key.encode()).hexdigest(), 16)
    name = function if number % 2 else function.rsplit(".", 1)[-1]
    return TEMPLATES[number % len(TEMPLATES)].format(option=option, function=name)


def questions_of(page: str) -> tuple[list[dict], list[dict]]:
    """Hits (an option the function has, with its default) and near misses (for each function with options, one
    option a sibling on the same page has and it lacks: the sibling's item is in the library, the asked fact is not)."""
    tree = json.load(gzip.open(DOCS / f"{page}.json.gz"))
    hits, functions = [], []
    for method in methods(tree):
        heading = plain(method["textRaw"])
        function = heading.split("(")[0].strip()
        names = set()
        for signature in method.get("signatures", [])[:1]:
            for param in signature.get("params", []):
                for option in param.get("options", []):
                    names.add(option.get("name"))
                    if option.get("default") and option.get("name") and re.fullmatch(r"\w+", option["name"]):
                        key = f"{page}.html|{heading}|{option['name']}"
                        hits.append({"key": key, "question": question(function, option["name"], key), "default": plain(option["default"])})
        if names:
            functions.append((heading, function, names))
    offered = sorted({h["key"].rsplit("|", 1)[1] for h in hits})
    misses = []
    for heading, function, names in functions:
        lacking = [o for o in offered if o not in names]
        if lacking:
            key = f"{page}.html|{heading}|miss"
            option = lacking[int(hashlib.sha256(key.encode()).hexdigest(), 16) % len(lacking)]
            misses.append({"key": key, "question": question(function, option, key)})
    return hits, misses


def build(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    built = [questions_of(page) for page in PAGES if (DOCS / f"{page}.json.gz").is_file()]
    unique = {q["key"]: q for hits, _ in built for q in hits}.values()  # a method documented twice keeps one question
    misses = {q["key"]: q for _, page_misses in built for q in page_misses}.values()
    with open(out / "queries.jsonl", "w") as queries, open(out / "corpus.jsonl", "w") as corpus, open(out / "qrels.tsv", "w") as qrels:
        qrels.write("query-id\tcorpus-id\tscore\n")
        for number, q in enumerate(unique):
            qid = f"so{number:04d}"
            # The default is kept apart from "answers": it is a literal ("false", "'utf8'", "0") that any code holds, and the
            # scan for measuring sets in the product (tests/unit/test_no_benchmark_in_product.py) reads "answers" as names.
            # The function is the record's title, which the scan does read: the product must not name the set's functions.
            queries.write(json.dumps({"_id": qid, "text": q["question"], "default": q["default"], "label": "hit"}) + "\n")
            corpus.write(json.dumps({"_id": q["key"], "title": q["key"].split("|")[1].split("(")[0], "text": ""}) + "\n")
            qrels.write(f"{qid}\t{q['key']}\t1\n")
        for number, q in enumerate(misses):
            queries.write(json.dumps({"_id": f"sm{number:04d}", "text": q["question"], "label": "miss"}) + "\n")
    print(f"{len(unique)} questions about options a function has, {len(misses)} about one it lacks, over {len(PAGES)} pages in {out}")


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
    queries = [q for line in (folder / "queries.jsonl").read_text().splitlines() if line.strip() and (q := json.loads(line)).get("label", "hit") == "hit"]
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
