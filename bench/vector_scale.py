"""Vector search at scale: hnswlib (the laptop default) and pgvector (a library in PostgreSQL) side by side.

    python -m bench.vector_scale [--size 100000] [--queries 200] [--chunks-per-document 50] [--collection 1000]
                                 [--ef-search 100,200,400] [--build-threads 2]

Synthetic chunks from a fixed seed: 384-dimension unit vectors grouped by document (each document a direction of
its own, its chunks spread around it, as a real book's passages sit near each other), with text. Each engine
is driven through the app's own classes: VectorIndex (hnswlib, the app's M / ef parameters) and PgVectorIndex
(pgvector HNSW, cosine, in a throwaway PostgreSQL cluster with the app's schema). Reported for each:
build time and memory; query latency p50 / p95 at k = 10 (one query at a time); recall@10 against exact search
(numpy over every vector); and the same inside a collection of --collection documents (the scope filter).
--ef-search measures the whole-library search again at each candidate-list size on the same build (hnswlib's
set_ef, pgvector's hnsw.ef_search: a query-time setting, no rebuild), one row each; the app's own value is
marked. --build-threads builds the hnswlib graph with that many threads (the app adds with one, so the window
keeps a core; the graph is the same kind: the app's M and ef_construction).

Target (issue 33): pgvector recall@10 >= 0.95 at p95 <= 100 ms for 1,000,000 chunks on this machine. The machine
is shared (2 cores, other jobs): run with nice, and read the two engines' numbers side by side.
"""

from __future__ import annotations

import argparse
import gc
import tempfile
import time
from pathlib import Path

import numpy as np

from .common import rss_mb, table, write_results

DIM = 384
K = 10
WORDS = ("pump", "valve", "reservoir", "filter", "station", "intake", "pressure", "tank", "pipe", "meter", "keeper", "winter")


def make_vectors(size: int, per_document: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(unit vectors float32 [size, DIM], document of each chunk)."""
    rng = np.random.default_rng(seed)
    documents = np.arange(size) // per_document
    centres = rng.standard_normal((documents[-1] + 1, DIM), dtype=np.float32)
    vectors = np.empty((size, DIM), dtype=np.float32)
    for start in range(0, size, 100_000):
        block = slice(start, min(size, start + 100_000))
        vectors[block] = centres[documents[block]] + 1.2 * rng.standard_normal((block.stop - block.start, DIM), dtype=np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors, documents


def make_queries(vectors: np.ndarray, count: int, seed: int) -> np.ndarray:
    """Near some chunk (a question close to a passage), not equal to it."""
    rng = np.random.default_rng(seed + 1)
    picks = rng.choice(len(vectors), size=count, replace=False)
    queries = vectors[picks] + 0.05 * rng.standard_normal((count, DIM), dtype=np.float32)
    return queries / np.linalg.norm(queries, axis=1, keepdims=True)


def exact_top(vectors: np.ndarray, queries: np.ndarray, ids: np.ndarray | None = None) -> list[set[int]]:
    """The true k nearest (chunk ids, 1-based as the app's), by inner product of unit vectors."""
    pool = vectors if ids is None else vectors[ids - 1]
    labels = np.arange(1, len(vectors) + 1) if ids is None else ids
    out = []
    for q in queries:
        scores = pool @ q
        top = np.argpartition(-scores, K)[:K]
        out.append({int(labels[i]) for i in top})
    return out


def measure(search, queries: np.ndarray, truth: list[set[int]]) -> dict:
    latencies, recalls = [], []
    search(queries[0])  # warm
    for q, true in zip(queries, truth):
        started = time.perf_counter()
        hits = search(q)
        latencies.append((time.perf_counter() - started) * 1000)
        recalls.append(len({h.chunk_id for h in hits} & true) / K)
    return {"p50_ms": float(np.percentile(latencies, 50)), "p95_ms": float(np.percentile(latencies, 95)), "recall": float(np.mean(recalls))}


def run_hnswlib(vectors: np.ndarray, queries, truth, scope, scope_queries, scope_truth, folder: Path, ef_values: list[int], threads: int) -> dict:
    from desktop_app.core.storage import vector_index as module
    from desktop_app.core.storage.vector_index import IndexState, VectorIndex

    gc.collect()
    before = rss_mb()
    index = VectorIndex(folder / "chunks.hnsw", IndexState(model="bench", dimension=DIM))
    started = time.perf_counter()
    index.reset(len(vectors) + 1000)
    ids = np.arange(1, len(vectors) + 1)
    for start in range(0, len(vectors), 50_000):
        if threads > 1:
            index._index.add_items(vectors[start : start + 50_000], ids[start : start + 50_000], num_threads=threads)
        else:
            index.add(ids[start : start + 50_000], vectors[start : start + 50_000])
    build_s = time.perf_counter() - started
    memory = rss_mb() - before
    index.save()
    files = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 2**20
    whole = measure(lambda q: index.search(q, K), queries, truth)
    allowed = set(int(i) for i in scope)
    scoped = measure(lambda q: index.search(q, K, allowed), scope_queries, scope_truth)
    sweep = {}
    for ef in ef_values:
        index._index.set_ef(ef)
        sweep[ef] = measure(lambda q: index.search(q, K), queries, truth)
    index._index.set_ef(module.EF_SEARCH)
    return {"build_s": build_s, "memory_mb": memory, "disk_mb": files, "all": whole, "collection": scoped, "ef_search": module.EF_SEARCH, "sweep": sweep}


def run_pgvector(vectors: np.ndarray, documents: np.ndarray, queries, truth, chosen, scope_queries, scope_truth, ef_values: list[int], graph_options: str = "") -> dict:
    from desktop_app.core.storage.postgres import vector_index as module
    from desktop_app.core.storage.postgres.chunks import HNSW_OPTIONS
    from desktop_app.core.storage.postgres.store import PgStore
    from desktop_app.core.storage.postgres.vector_index import PgVectorIndex
    from tests.postgres_cluster import ThrowawayCluster, missing_reason

    reason = missing_reason()
    if reason:
        return {"skipped": reason}
    # Room to build the graph in memory (pgvector warns and slows down when it does not fit).
    graph_mb = int(len(vectors) * (DIM * 4 + 200) / 2**20 * 1.3) + 64
    with ThrowawayCluster({"shared_buffers": "'512MB'", "maintenance_work_mem": f"'{graph_mb}MB'", "max_parallel_maintenance_workers": "1"}) as cluster:
        url = cluster.create_database("bench")
        store = PgStore(url)
        store.use_embedding_model(f"bench/{DIM}")
        conn = store.conn
        conn.execute("DROP INDEX chunks_embedding_hnsw")  # built after the load, as a bulk import would
        started = time.perf_counter()
        counts = np.bincount(documents)
        with conn.cursor() as cur, cur.copy("COPY documents (id, path, title, content_hash, pages, chunks, status) FROM STDIN") as copy:
            for d, count in enumerate(counts):
                copy.write_row((d + 1, f"/bench/{d}.pdf", f"Document {d}", "", 1, int(count), "ready"))
        # Binary COPY with pgvector's own type (its Python package registers it): no text formatting of floats.
        with conn.cursor() as cur, cur.copy('COPY chunks (id, document_id, page, start, "end", text, embedding) FROM STDIN WITH (FORMAT BINARY)') as copy:
            copy.set_types(["bigint", "bigint", "integer", "integer", "integer", "text", "vector"])
            rng = np.random.default_rng(7)
            for i in range(len(vectors)):
                words = " ".join(WORDS[j] for j in rng.integers(0, len(WORDS), 12))
                text = f"Passage {i + 1} of document {documents[i]}: {words}."
                copy.write_row((i + 1, int(documents[i]) + 1, 1, 0, len(text), text, vectors[i]))
        load_s = time.perf_counter() - started
        started = time.perf_counter()
        conn.execute(f"CREATE INDEX chunks_embedding_hnsw ON chunks USING hnsw (embedding vector_cosine_ops) WITH ({graph_options or HNSW_OPTIONS})")
        conn.execute("ANALYZE chunks")
        index_s = time.perf_counter() - started
        sizes = store.rows("SELECT pg_relation_size('chunks_embedding_hnsw'), pg_total_relation_size('chunks')")[0]
        index = PgVectorIndex(store, DIM)
        whole = measure(lambda q: index.search(q, K), queries, truth)
        allowed = store.chunk_ids_of_documents(int(d) + 1 for d in chosen)  # as the app's search asks for a collection
        scoped = measure(lambda q: index.search(q, K, allowed), scope_queries, scope_truth)
        own, sweep = module.EF_SEARCH, {}
        try:
            for ef in ef_values:
                module.EF_SEARCH = ef  # read by every search (SET LOCAL hnsw.ef_search)
                sweep[ef] = measure(lambda q: index.search(q, K), queries, truth)
        finally:
            module.EF_SEARCH = own
        store.close()
    return {"graph": graph_options or HNSW_OPTIONS, "load_s": load_s, "build_s": index_s, "index_mb": sizes[0] / 2**20, "table_mb": sizes[1] / 2**20, "all": whole, "collection": scoped, "ef_search": own, "sweep": sweep}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--chunks-per-document", type=int, default=50)
    parser.add_argument("--collection", type=int, default=1000, help="documents in the scoped search")
    parser.add_argument("--seed", type=int, default=33)
    parser.add_argument("--engines", default="hnswlib,pgvector")
    parser.add_argument("--ef-search", default="", help="comma-separated candidate-list sizes to measure the whole-library search at")
    parser.add_argument("--build-threads", type=int, default=1, help="threads for the hnswlib build (the app uses 1)")
    parser.add_argument("--pg-graph", default="", help="pgvector HNSW options to build with instead of the app's, e.g. 'm = 16, ef_construction = 200'")
    args = parser.parse_args()
    ef_values = [int(v) for v in args.ef_search.split(",") if v.strip()]

    started = time.perf_counter()
    vectors, documents = make_vectors(args.size, args.chunks_per_document, args.seed)
    queries = make_queries(vectors, args.queries, args.seed)
    truth = exact_top(vectors, queries)
    rng = np.random.default_rng(args.seed + 2)
    chosen = rng.choice(int(documents[-1]) + 1, size=min(args.collection, int(documents[-1]) + 1), replace=False)
    scope = np.flatnonzero(np.isin(documents, chosen)) + 1
    # Questions about the collection: near its chunks.
    scope_queries = make_queries(vectors[scope - 1], args.queries, args.seed + 3)
    scope_truth = exact_top(vectors, scope_queries, scope)
    print(f"{args.size:,} chunks, {int(documents[-1]) + 1:,} documents; collection: {len(chosen):,} documents, {len(scope):,} chunks; "
          f"data and exact answers in {time.perf_counter() - started:.0f} s", flush=True)

    results = {}
    with tempfile.TemporaryDirectory(prefix="bench-vector-scale-") as folder:
        for engine in args.engines.split(","):
            if engine == "hnswlib":
                results[engine] = run_hnswlib(vectors, queries, truth, scope, scope_queries, scope_truth, Path(folder), ef_values, args.build_threads)
            elif engine == "pgvector":
                results[engine] = run_pgvector(vectors, documents, queries, truth, chosen, scope_queries, scope_truth, ef_values, args.pg_graph)
            print(engine, results[engine], flush=True)

    rows = []
    for engine, r in results.items():
        if "skipped" in r:
            rows.append((engine, "skipped: " + r["skipped"], "", "", "", "", "", ""))
            continue
        build = f"{r['build_s']:.0f} s" + (f" (+{r['load_s']:.0f} s load)" if "load_s" in r else "")
        memory = f"{r['memory_mb']:.0f} MB RAM, {r['disk_mb']:.0f} MB file" if "memory_mb" in r else f"{r['index_mb']:.0f} MB index, {r['table_mb']:.0f} MB table"
        rows.append((
            f"{engine} ({r['graph']})" if "graph" in r else engine, build, memory,
            f"{r['all']['p50_ms']:.1f}", f"{r['all']['p95_ms']:.1f}", f"{r['all']['recall']:.3f}",
            f"{r['collection']['p95_ms']:.1f}", f"{r['collection']['recall']:.3f}",
        ))
    print()
    print(f"{args.size:,} chunks x {DIM} dims, k = {K}, {args.queries} queries; collection = {len(chosen):,} documents ({len(scope):,} chunks)")
    print(table(("engine", "build", "memory", "p50 ms", "p95 ms", "recall@10", "collection p95 ms", "collection recall@10"), rows))
    sweep_rows = [
        (engine, f"{ef}" + (" (the app's)" if ef == r["ef_search"] else ""), f"{m['p50_ms']:.1f}", f"{m['p95_ms']:.1f}", f"{m['recall']:.3f}")
        for engine, r in results.items() if "sweep" in r for ef, m in r["sweep"].items()
    ]
    if sweep_rows:
        print("\nThe whole library at each ef_search (same build; the app's value was used above):")
        print(table(("engine", "ef_search", "p50 ms", "p95 ms", "recall@10"), sweep_rows))
    write_results(f"vector_scale-{args.size}", {"args": vars(args), "results": results})


if __name__ == "__main__":
    main()
