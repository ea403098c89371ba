"""Retrieval at scale: embed the queries, search, fuse, fetch passages, at 10k / 100k / 1M chunks.

    python -m bench.retrieval_scale [--sizes 10000,100000] [--runs 20]

SQLite holds real rows (text from the R manuals, repeated; FTS5 triggers on) in the real schema;
the vectors are synthetic (random unit vectors), which is the hard case for HNSW. The index is
built with the app's VectorIndex and its parameters. The stage is timed as the pipeline runs it:
the question plus 4 queries embedded by the real MiniLM, 5 searches, RRF, passages from SQLite.
"""

from __future__ import annotations

import argparse
import gc
import time
from pathlib import Path

import numpy as np

from .common import RESULTS_DIR, median, require_r_manuals, rss_mb, table, write_results

QUERIES = (
    ("How do I install a package from a local tarball?", "install.packages local file", "R CMD INSTALL tarball", "package library path", "source package installation"),
    ("What does tapply do?", "tapply function", "apply function to groups", "ragged array factor", "tapply example"),
    ("How do I read a CSV file into a data frame?", "read.csv header", "read.table data frame", "import data file", "csv separator"),
    ("How do I fit a linear model?", "lm formula", "linear regression summary", "model fitting functions", "anova lm"),
)
DOC_CHUNKS = 10_000  # chunks per synthetic document (one SQLite transaction each)


def texts_from_manuals(limit: int = 2000) -> list[str]:
    from desktop_app.core.ingest.chunking import chunk_pages
    from desktop_app.core.ingest.extraction import extract

    texts: list[str] = []
    for pdf in require_r_manuals("R-intro.pdf", "R-admin.pdf"):
        texts += [d.text for d in chunk_pages(p for p in extract(pdf).pages if p.text.strip())]
    return texts[:limit]


def build_store(home: Path, size: int, dimension: int) -> tuple[float, int]:
    """The SQLite library with `size` chunks (cached between runs). Returns (seconds, chunk count)."""
    from desktop_app.core.storage.store import Store
    from desktop_app.core.types import ChunkDraft, PageText

    store = Store(home / "library.sqlite")
    have = store.chunk_count()
    started = time.perf_counter()
    if have < size:
        texts = texts_from_manuals()
        rng = np.random.default_rng(size)
        for doc in range(have // DOC_CHUNKS, size // DOC_CHUNKS):
            drafts = [ChunkDraft(page=1 + i // 10, start=0, end=len(texts[i % len(texts)]), text=texts[(doc * DOC_CHUNKS + i) % len(texts)]) for i in range(DOC_CHUNKS)]
            vectors = rng.standard_normal((DOC_CHUNKS, dimension)).astype(np.float32)
            vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
            pages = [PageText(n, "") for n in range(1, DOC_CHUNKS // 10 + 1)]
            store.save_document(f"/synthetic/doc{doc:04d}.pdf", f"synthetic {doc}", f"hash{doc}", pages, len(pages), drafts, vectors)
    count = store.chunk_count()
    store.close()
    return time.perf_counter() - started, count


def measure(size: int, runs: int, embedder) -> dict:
    from desktop_app.core.pipeline import Pipeline
    from desktop_app.core.settings import Settings
    from desktop_app.core.storage.store import Store
    from desktop_app.core.storage.vector_index import IndexState, VectorIndex

    home = RESULTS_DIR / f"retrieval-home-{size}"
    home.mkdir(parents=True, exist_ok=True)
    store_s, count = build_store(home, size, embedder.dimension)
    store = Store(home / "library.sqlite")
    gc.collect()
    rss_before = rss_mb()
    index = VectorIndex(home / "chunks.hnsw", IndexState(model=embedder.name, dimension=embedder.dimension))
    started = time.perf_counter()
    index.reset(count + 1000)
    for ids, vectors in store.embeddings():
        index.add(ids, vectors)
    build_s = time.perf_counter() - started
    index_mb = rss_mb() - rss_before
    started = time.perf_counter()
    index.save()
    save_s = time.perf_counter() - started
    started = time.perf_counter()
    index.load()
    load_s = time.perf_counter() - started

    pipeline = Pipeline(store, index, embedder, lambda: None, Settings())
    stages = {"embedding": [], "search": [], "fusion": [], "passages": [], "total": []}
    for run in range(runs):
        texts = list(QUERIES[run % len(QUERIES)])
        t0 = time.perf_counter()
        vectors = embedder.embed(texts)
        t1 = time.perf_counter()
        lists = pipeline.retrieve(texts, vectors)
        t2 = time.perf_counter()
        fused = pipeline.fuse(lists)
        t3 = time.perf_counter()
        sources = pipeline.sources(fused, lists)
        t4 = time.perf_counter()
        assert sources, "retrieval returned nothing"
        for name, value in zip(stages, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t4 - t0)):
            stages[name].append(value)
    store.close()
    return {"size": count, "store_build_s": store_s, "index_build_s": build_s, "index_rss_mb": index_mb,
            "index_save_s": save_s, "index_load_s": load_s, "db_mb": (home / "library.sqlite").stat().st_size / 2**20,
            "medians_ms": {k: 1000 * median(v) for k, v in stages.items()}, "runs": runs}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000", help="chunk counts, e.g. 10000,100000,1000000")
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args(argv)
    from desktop_app.core.models.model_files import open_embedder

    embedder = open_embedder()  # the bundled default
    embedder.embed(["warm up"])
    results = []
    for size in (int(s) for s in args.sizes.split(",")):
        print(f"building and measuring {size} chunks ...", flush=True)
        results.append(measure(size, args.runs, embedder))
    rows = [(r["size"], r["medians_ms"]["embedding"], r["medians_ms"]["search"], r["medians_ms"]["fusion"], r["medians_ms"]["passages"],
             r["medians_ms"]["total"], r["index_build_s"], r["index_rss_mb"], r["index_load_s"], r["db_mb"]) for r in results]
    print()
    print(f"Retrieval stage, 5 texts (question + 4 queries), medians of {args.runs} runs (ms); index build (s), memory (MB)")
    print(table(("chunks", "embed ms", "search ms", "fuse ms", "passages ms", "total ms", "index build s", "index MB", "index load s", "db MB"), rows))
    for r in results:
        if r["size"] == 100_000:
            total = r["medians_ms"]["total"]
            print(f"100k chunks: {total:.1f} ms (target <= 50 ms: {'MET' if total <= 50 else 'NOT MET'})")
    path = write_results("retrieval_scale", {"results": results})
    print(f"results: {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
