"""Embedding through a server vs on this computer: passages/s of the import's embedding phase, side by side.

    python -m bench.server_embeddings [--books Mathematics.pdf,Everyday_life.pdf] [--passages 400] [--rounds 2]

The dev set's PDF books (/work/main/.cache/devset/pdfs, or --pdfs; the R manuals when it is missing) are stored
(text only, not timed) in a fresh data folder per run; then the embedding queue runs until --passages are embedded,
timed. "local" is the bundled int8 MiniLM in this process; "server" is the same model behind HTTP
(bench/embeddings_server.py, a child process on 127.0.0.1) through the app's HttpEmbedder, with the default
batches-at-once setting and with one batch at a time. Runs are interleaved (local, server, ...) on this shared
machine; the best round of each counts.

On one machine the server can only add the protocol's cost (JSON, HTTP, a second process on the same cores):
the target is to stay within 15% of local. The gain comes from a server on a faster box (a GPU embeds
thousands of passages per second), which this machine cannot show.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .common import table, write_results
from .http_backend import answers_models

DEVSET_PDFS = Path("/work/main/.cache/devset/pdfs")
R_MANUALS = Path("/usr/share/R/doc/manual")


def start_server(port: int, log: Path) -> subprocess.Popen:
    root = Path(__file__).resolve().parents[1]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]))
    with open(log, "wb") as out:
        process = subprocess.Popen([sys.executable, "-m", "bench.embeddings_server", "--port", str(port)], stdout=out, stderr=subprocess.STDOUT, env=env, cwd=root)
    deadline = time.monotonic() + 120
    while not answers_models(port):
        if time.monotonic() > deadline or process.poll() is not None:
            process.terminate()
            raise SystemExit(f"the embeddings server did not start:\n{log.read_text()[-2000:]}")
        time.sleep(0.3)
    return process


def run(files: list[Path], settings, passages: int) -> tuple[int, float]:
    """Store the files' text, then time the embedding queue until `passages` are embedded: (embedded, seconds)."""
    from desktop_app.core.library import Library

    with tempfile.TemporaryDirectory(prefix="bench-server-embeddings-") as home:
        library = Library(Path(home), settings=settings)
        library.embedder.embed(["warm up"])  # the local model loads here, the server connection opens: neither is timed
        for _ in library.store_paths(files):
            pass
        started, done = time.perf_counter(), 0
        events = library.embedding_queue().run()
        for event in events:
            if event.stage == "warning":
                raise SystemExit(event.message)
            if event.stage == "indexing":
                done = event.done
                if done >= passages:
                    break
        seconds = time.perf_counter() - started
        events.close()
        library.close()
    return done, seconds


def main() -> None:
    from desktop_app.core.settings import Settings

    from .embeddings_server import MODEL

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pdfs", type=Path, default=DEVSET_PDFS)
    parser.add_argument("--books", default="Mathematics.pdf,Everyday_life.pdf", help="file names in --pdfs (comma-separated), or 'all'")
    parser.add_argument("--passages", type=int, default=400, help="passages embedded per run")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--port", type=int, default=18080)
    args = parser.parse_args()

    if args.pdfs.is_dir():
        names = sorted(p.name for p in args.pdfs.glob("*.pdf")) if args.books == "all" else args.books.split(",")
        files = [args.pdfs / n for n in names]
    else:
        files = [R_MANUALS / "R-intro.pdf", R_MANUALS / "R-data.pdf"]
    missing = [f for f in files if not f.is_file()]
    if missing:
        raise SystemExit(f"missing: {', '.join(map(str, missing))}")

    url = f"http://127.0.0.1:{args.port}/v1"
    modes = {
        "local": Settings(),
        "server (4 batches at once)": Settings(embedder_backend="http", embed_url=url, embed_http_model=MODEL, embed_concurrency=4),
        "server (1 batch at a time)": Settings(embedder_backend="http", embed_url=url, embed_http_model=MODEL, embed_concurrency=1),
    }
    log = Path(tempfile.gettempdir()) / f"bench-embeddings-server-{args.port}.log"
    server = start_server(args.port, log)
    best: dict[str, float] = {}
    rounds: dict[str, list[float]] = {m: [] for m in modes}
    try:
        for round_ in range(args.rounds):
            for mode, settings in modes.items():
                done, seconds = run(files, settings, args.passages)
                rate = done / seconds
                rounds[mode].append(rate)
                best[mode] = max(best.get(mode, 0.0), rate)
                print(f"round {round_ + 1} {mode}: {done} passages in {seconds:.1f} s = {rate:.1f} passages/s", flush=True)
    finally:
        server.terminate()
        server.wait(timeout=20)
    local = best["local"]
    rows = [(mode, f"{best[mode]:.1f}", " ".join(f"{r:.1f}" for r in rounds[mode]), f"{best[mode] / local:.2f}") for mode in modes]
    print()
    print(f"Books: {', '.join(f.name for f in files)}; {args.passages} passages per run, best of {args.rounds} rounds")
    print(table(("embedder", "passages/s (best)", "each round", "vs local"), rows))
    write_results("server_embeddings", {"books": [f.name for f in files], "passages": args.passages, "rounds": rounds, "best": best})


if __name__ == "__main__":
    main()
