"""Import throughput: pages/s and peak memory, split into extraction, chunking, embedding, indexing.

    python -m bench.import_throughput [--corpus r-intro,all-manuals,fullrefman]
    python -m bench.import_throughput --mixed-batch [--via window|cli] [--label before|after] [--stop-after-passages N]   (bench/mixed_batch.py)
    python -m bench.import_throughput --compare before.json after.json

Each corpus is imported into a fresh data folder by a fresh child process running the real
Importer (so peak RSS is that import's alone). Stage times come from wrapping the functions the
Importer calls. While importing, a probe thread asks retrieval-only questions every 2 s to show
that questions are not blocked; the slowest probe is reported.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from .common import Stopwatch, median, peak_children_rss_mb, peak_rss_mb, require_r_manuals, table, write_results

CORPORA = {
    "r-intro": ("R-intro.pdf",),
    "all-manuals": ("R-FAQ.pdf", "R-admin.pdf", "R-data.pdf", "R-exts.pdf", "R-intro.pdf", "R-ints.pdf", "R-lang.pdf"),
    "fullrefman": ("fullrefman.pdf",),
}
STAGES = ("extraction", "chunking", "embedding", "storing", "indexing")


def child(corpus: str, home: Path, overrides: dict) -> dict:
    from desktop_app.core.ingest import importer as ingest
    from desktop_app.core.library import Library
    from desktop_app.core.settings import Settings

    files = require_r_manuals(*CORPORA[corpus])
    embedder = None
    if overrides.pop("fake_embedder", False):
        # Everything but the neural embedding, to time the other stages of a long import quickly.
        from tests.fakes import HashingEmbedder

        embedder = HashingEmbedder()
    library = Library(home, settings=Settings(**overrides), embedder=embedder)
    model_started = time.perf_counter()
    library.embedder.embed(["warm up"])  # model load is start-up cost, not import throughput
    model_load_s = time.perf_counter() - model_started

    sw = Stopwatch()
    real_extract, real_chunk = ingest.extract, ingest.chunk_pages
    real_embed, real_save, real_add = library.embedder.embed, library.store.save_document, library.index.add

    def timed(name, fn):
        def wrapper(*a, **k):
            with sw(name):
                return fn(*a, **k)
        return wrapper

    ingest.extract = timed("extraction", real_extract)
    ingest.chunk_pages = lambda pages: timed("chunking", lambda: real_chunk(list(pages)))()
    library.embedder.embed = timed("embedding", real_embed)
    library.store.save_document = timed("storing", real_save)
    library.index.add = timed("indexing", real_add)

    probes: list[float] = []
    done = threading.Event()

    class _Untimed:  # the probe's own query embeddings must not count as import time
        name, dimension = library.embedder.name, library.embedder.dimension
        embed = staticmethod(real_embed)

    def probe():
        from desktop_app.core.pipeline import Pipeline

        pipeline = Pipeline(library.store, library.index, _Untimed(), library.generator, library.settings)
        while not done.wait(2.0):
            started = time.perf_counter()
            for _ in pipeline.search("How do I install a package?", mode="rag"):
                pass
            probes.append(time.perf_counter() - started)

    prober = threading.Thread(target=probe, daemon=True)
    prober.start()
    started = time.perf_counter()
    cpu_started = time.process_time()
    pages = chunks = 0
    failures = []
    # Phase 1 of each file (read, chunk, store: listed and found by keyword) ends at its "searchable" event;
    # phase 2 (embedding, indexing) at "ready".
    phase1_started: dict[str, float] = {}
    phase1_s = 0.0
    first_searchable_s = None
    for event in library.import_paths(files):
        now = time.perf_counter()
        if event.stage == "extracting":
            phase1_started.setdefault(event.file, now)
        elif event.stage == "searchable":
            phase1_s += now - phase1_started[event.file]
            first_searchable_s = first_searchable_s or now - started
        elif event.stage == "ready":
            pages += event.total
        elif event.stage == "failed":
            failures.append(event.message)
    total = time.perf_counter() - started
    cpu_total = time.process_time() - cpu_started
    done.set()
    prober.join()
    chunks = library.store.chunk_count()
    library.close()
    return {
        "corpus": corpus, "files": [f.name for f in files], "pages": pages, "chunks": chunks, "total_s": total,
        "pages_per_s": pages / total if total else 0.0, "searchable_s": phase1_s, "first_searchable_s": first_searchable_s or 0.0,
        "searchable_pages_per_s": pages / phase1_s if phase1_s else 0.0, "chunks_per_s_embedding": chunks / sw.totals.get("embedding", 1e-9),
        "stages_s": {s: sw.totals.get(s, 0.0) for s in STAGES}, "model_load_s": model_load_s,
        "cpu_total_s": cpu_total, "stages_cpu_s": {s: sw.cpu.get(s, 0.0) for s in STAGES},
        "load_avg": __import__("os").getloadavg(),
        "peak_rss_mb": peak_rss_mb(), "peak_child_rss_mb": peak_children_rss_mb(),
        "question_probes": len(probes), "question_probe_max_s": max(probes, default=0.0),
        "question_probe_median_s": median(probes) if probes else 0.0, "failures": failures,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="r-intro,all-manuals,fullrefman")
    parser.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE", help="override a Settings field, e.g. --set embed_batch_size=128")
    parser.add_argument("--fake-embedder", action="store_true", help="hash words instead of MiniLM: times every other stage")
    parser.add_argument("--mixed-batch", action="store_true", help="R-intro + the reference manual + a broken file dropped at once: "
                        "seconds until every file is listed, searchable by keyword, and in the meaning index (bench/mixed_batch.py)")
    parser.add_argument("--via", choices=("window", "cli"), default="window", help="--mixed-batch: drop on the window (offscreen) or ingest as the CLI does")
    parser.add_argument("--label", default="this code", help="--mixed-batch: the column's name, e.g. before or after")
    parser.add_argument("--stop-after-passages", type=int, metavar="N", help="--mixed-batch: stop once all is searchable and N passages are "
                        "embedded; report the embedding rate and the projected time to a full meaning index")
    parser.add_argument("--compare", nargs="+", metavar="JSON", help="print the --mixed-batch results of several runs side by side")
    parser.add_argument("--mixed-batch-child", choices=("window", "cli"), help=argparse.SUPPRESS)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--home", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.mixed_batch_child:
        from .mixed_batch import child as mixed_child

        print(json.dumps(mixed_child(args.mixed_batch_child, args.stop_after_passages)))
        return 0
    if args.mixed_batch or args.compare:
        from .mixed_batch import main_compare, main_mixed

        return main_compare(args.compare) if args.compare else main_mixed(args.via, args.label, args.stop_after_passages)
    from desktop_app.core.settings import Settings

    overrides = {}
    for item in args.set:
        key, _, value = item.partition("=")
        current = getattr(Settings, key)
        overrides[key] = value.lower() in ("1", "true", "yes") if isinstance(current, bool) else type(current)(value)
    if args.child:
        if args.fake_embedder:
            overrides["fake_embedder"] = True
        print(json.dumps(child(args.child, args.home, overrides)))
        return 0

    results = []
    for corpus in args.corpus.split(","):
        require_r_manuals(*CORPORA[corpus])
        with tempfile.TemporaryDirectory(prefix="bench-import-") as home:
            cmd = [sys.executable, "-m", "bench.import_throughput", "--child", corpus, "--home", home, *sum((["--set", s] for s in args.set), [])]
            cmd += ["--fake-embedder"] if args.fake_embedder else []
            print(f"importing {corpus} ...", flush=True)
            out = subprocess.run(cmd, capture_output=True, text=True)
            if out.returncode != 0:
                print(out.stderr[-2000:])
                return 1
            result = json.loads(out.stdout.strip().splitlines()[-1])
            results.append(result)
            print(f"  {result['pages']} pages, {result['chunks']} chunks in {result['total_s']:.1f}s", flush=True)

    rows = []
    for r in results:
        s = r["stages_s"]
        rows.append((r["corpus"], r["pages"], r["chunks"], r["searchable_s"], r["searchable_pages_per_s"], r["total_s"], r["pages_per_s"], s["extraction"], s["chunking"],
                     s["embedding"], s["storing"], s["indexing"], r["chunks_per_s_embedding"], r["peak_rss_mb"],
                     r["peak_child_rss_mb"], r["question_probe_max_s"]))
    print()
    fake = " EMBEDDING FAKED (hashing): not an import time" if args.fake_embedder else ""
    print(f"Import throughput (seconds; settings overrides {overrides or 'none'}){fake}")
    print("searchable = read, chunked and stored: listed, readable and found by keyword (phase 1 of each file);")
    print("total = also embedded and in the vector index (phase 2), while questions keep working")
    print(table(("corpus", "pages", "chunks", "searchable", "pages/s", "total", "pages/s", "extract", "chunk", "embed", "store", "index",
                 "emb chunks/s", "peak MB", "workers MB", "max question s"), rows))
    cpu_rows = [(r["corpus"], r["cpu_total_s"], *(r["stages_cpu_s"][s] for s in STAGES), r["load_avg"][0]) for r in results]
    print()
    print("CPU seconds of the importing process (all threads; probes included in total) and the 1-min load average")
    print(table(("corpus", "cpu total", *STAGES, "load avg"), cpu_rows))
    for r in results if not args.fake_embedder else []:
        verdict = lambda ok: "MET" if ok else "NOT MET"  # noqa: E731
        if r["corpus"] == "r-intro":
            print(f"R-intro searchable: {r['searchable_pages_per_s']:.1f} pages/s (target >= 25: {verdict(r['searchable_pages_per_s'] >= 25)})")
            print(f"R-intro embedded too: {r['pages_per_s']:.1f} pages/s (target >= 25: {verdict(r['pages_per_s'] >= 25)}); "
                  f"embedding {r['chunks_per_s_embedding']:.1f} chunks/s")
        if r["corpus"] == "fullrefman":
            memory_ok = r["peak_rss_mb"] <= 1536
            print(f"fullrefman searchable in {r['searchable_s']:.0f} s, embedded in {r['total_s']:.0f} s, peak {r['peak_rss_mb']:.0f} MB "
                  f"(target <= 180 s and <= 1536 MB: searchable {verdict(r['searchable_s'] <= 180 and memory_ok)}, "
                  f"embedded {verdict(r['total_s'] <= 180 and memory_ok)})")
    path = write_results("import_throughput" + ("-fake-embedder" if args.fake_embedder else ""), {"overrides": overrides, "results": results})
    print(f"results: {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
