"""Embedding backends: the app's catalog embedders (int8 ONNX MiniLM, and MiniLM on PyTorch) compared.

    python -m bench.embedding_backends [--chunks 512] [--rounds 3] [--batch 64]

Embeds the same real R-manual chunks with each catalog embedder, as the importer does (batches of
the `embed_batch_size` setting), in interleaved rounds (the machine is shared; the best round of each
counts). Reports passages/s, the load time, and the cosine agreement of each with the PyTorch vectors
(a backend that moves vectors changes which passages are found; retrieval itself is measured with
`desktop-app-cli eval`, one data folder per backend). The PyTorch row needs the sentence-transformers extra.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from .common import table, write_results

BACKENDS = ("all-minilm-l6-v2", "all-minilm-l6-v2-int8")


def embed_in_batches(embedder, texts: list[str], batch: int) -> tuple[np.ndarray, float]:
    started = time.perf_counter()
    parts = [embedder.embed(texts[i : i + batch]) for i in range(0, len(texts), batch)]
    return np.vstack(parts), time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=512)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--batch", type=int, default=64, help="texts per embed() call (the importer's embed_batch_size)")
    args = parser.parse_args(argv)
    from desktop_app.core.models.model_files import open_embedder

    from .retrieval_scale import texts_from_manuals

    texts = texts_from_manuals(args.chunks)
    embedders, load_s = {}, {}
    for name in BACKENDS:
        embedder = open_embedder(name)
        started = time.perf_counter()
        embedder.embed(["warm up"])
        load_s[name] = time.perf_counter() - started
        embedders[name] = embedder
    runs: dict[str, list[float]] = {name: [] for name in BACKENDS}
    vectors: dict[str, np.ndarray] = {}
    for _ in range(args.rounds):
        for name, embedder in embedders.items():
            vectors[name], seconds = embed_in_batches(embedder, texts, args.batch)
            runs[name].append(seconds)
    reference = vectors[BACKENDS[0]]
    rows = []
    for name in BACKENDS:
        cosine = (vectors[name] * reference).sum(axis=1)
        rows.append((name, len(texts) / min(runs[name]), load_s[name], float(cosine.min()), float(cosine.mean())))
    print()
    print(f"Embedding {len(texts)} R-manual chunks in batches of {args.batch}, best of {args.rounds} interleaved rounds")
    print(table(("embedder", "passages/s", "first load (s)", "min cosine vs torch", "mean cosine vs torch"), rows))
    path = write_results("embedding_backends", {"chunks": len(texts), "batch": args.batch, "runs_s": runs, "load_s": load_s, "table": rows})
    print(f"results: {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
