"""The HTTP backend against the local one: the same questions, model, library and settings, runs interleaved.

    python -m bench.http_backend [--repeats 3] [--modes fusion,rag] [--server-cache]

Starts llama-cpp-python's OpenAI-compatible server on 127.0.0.1 with the app's model file and the
same context size, threads and batch size as the local generator, imports the sample datasheet,
then asks each question through both backends, alternating which goes first. Each backend
answers one untimed question first (the local one also reads its prompt prefixes, as the window does
at start-up). On one machine the server costs the same arithmetic plus HTTP; what differs is the
prompt cache: the local generator keeps a KV snapshot per prompt family, the server one KV cache.
"""

from __future__ import annotations

import argparse
import dataclasses
import http.client
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .common import median, table, write_results

# A new question each repeat, as a user asks: re-asking one question would let a cache that keeps whole
# prompts (the server's --cache) skip everything, which says little about the next, different question.
QUESTIONS = (
    "What is the maximum operating temperature of the PX-40 pump?",
    "What supply voltage does the PX-40 need and how much current must the power supply give?",
    "How often must the PX-40 shaft seals be replaced, and with which kit?",
    "What is the IP rating of the PX-40 enclosure?",
    "What is the maximum system pressure of the PX-40?",
    "What is the impeller of the PX-40 made of?",
)
WARM_UP = "How many litres of coolant per minute does the PX-40 move?"
STAGES = ("query_generation", "prompt_processing", "first_token", "generation", "total")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def answers_models(port: int) -> bool:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        conn.request("GET", "/v1/models")
        return conn.getresponse().status == 200
    except OSError:
        return False
    finally:
        conn.close()


def start_server(model_path: Path, settings, threads: int, cache: bool, log: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    command = [
        sys.executable, "-m", "llama_cpp.server", "--model", str(model_path), "--model_alias", "bench",
        "--host", "127.0.0.1", "--port", str(port), "--n_ctx", str(settings.n_ctx), "--n_batch", str(settings.n_batch),
        "--n_threads", str(threads), "--n_threads_batch", str(settings.n_threads_batch or threads),
    ]
    if cache:
        command += ["--cache", "true", "--cache_type", "ram"]
    with open(log, "wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=dict(os.environ, PYTHONUNBUFFERED="1"))
    deadline = time.monotonic() + 300
    while not answers_models(port):
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise SystemExit(f"the server did not start:\n{log.read_text()[-3000:]}")
        time.sleep(0.5)
    return process, f"http://127.0.0.1:{port}/v1"


def ask(pipeline, mode: str, generator, question: str) -> dict:
    from desktop_app.core.events import AnswerDone

    cpu = time.process_time()
    result = next(e for e in pipeline.ask(question, mode) if isinstance(e, AnswerDone)).result
    row = {s: getattr(result.timings, s) for s in STAGES}
    row.update(question=question, client_cpu_s=time.process_time() - cpu, load_avg=os.getloadavg()[0], queries=list(result.queries),
               answer=result.answer, answer_tokens=generator.count_tokens(result.answer))
    return row


def main(argv: list[str] | None = None) -> int:
    from desktop_app.core.library import Library
    from desktop_app.core.models.llm import LlamaGenerator, default_threads
    from desktop_app.core.models.openai_client import OpenAIHttpGenerator
    from desktop_app.core.pipeline import Pipeline
    from desktop_app.sample_datasheet import write_sample_datasheet

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--modes", default="fusion,rag")
    parser.add_argument("--server-cache", action="store_true", help="start the server with its RAM prompt cache (LlamaRAMCache)")
    args = parser.parse_args(argv)
    modes = [m for m in args.modes.split(",") if m]

    work = Path(tempfile.mkdtemp(prefix="bench-http-"))
    library = Library(work / "home")
    settings = library.settings
    model_path = library.prepare_model()
    threads = settings.n_threads or default_threads()
    list(library.import_paths([write_sample_datasheet(work / "px40.pdf")]))
    library.embedder.embed(["warm up"])

    local = LlamaGenerator(model_path, n_ctx=settings.n_ctx, n_threads=threads, n_threads_batch=settings.n_threads_batch or None, n_batch=settings.n_batch)
    local.load()
    server, url = start_server(model_path, settings, threads, args.server_cache, work / "server.log")
    try:
        remote = OpenAIHttpGenerator(url, "bench", timeout=600)
        backends = {"local": local, "http": remote}
        pipelines = {name: Pipeline(library.store, library.index, library.embedder, lambda g=g: g, settings) for name, g in backends.items()}
        pipelines["local"].warm_up()
        for name in backends:  # untimed: the first read of each prompt, as after a first question
            ask(pipelines[name], modes[0], backends[name], WARM_UP)

        runs = []
        for repeat in range(args.repeats):
            question = QUESTIONS[repeat % len(QUESTIONS)]
            for mode in modes:
                order = ("local", "http") if repeat % 2 == 0 else ("http", "local")
                for name in order:
                    row = ask(pipelines[name], mode, backends[name], question)
                    row.update(backend=name, mode=mode, repeat=repeat)
                    runs.append(row)
                    print(f"  [{repeat}] {mode:6s} {name:5s} first token {row['first_token']:6.2f}s total {row['total']:6.2f}s "
                          f"queries {row['query_generation']:.2f}s answer tokens {row['answer_tokens']} load {row['load_avg']:.1f}", flush=True)
    finally:
        server.terminate()
        server.wait(timeout=30)

    rows = []
    for mode in modes:
        for stage in (*STAGES, "answer_tokens"):
            values = {b: median([r[stage] for r in runs if r["mode"] == mode and r["backend"] == b]) for b in ("local", "http")}
            rows.append((mode, stage, values["local"], values["http"], values["http"] - values["local"]))
        same = sum(a["answer"] == b["answer"] for a, b in zip(
            [r for r in runs if r["mode"] == mode and r["backend"] == "local"], [r for r in runs if r["mode"] == mode and r["backend"] == "http"]))
        rows.append((mode, "same answer text", "", f"{same}/{args.repeats}", ""))
    cache = " with the server's RAM prompt cache" if args.server_cache else ""
    print()
    print(f"HTTP backend vs local: {args.repeats} different questions on the sample datasheet, model {settings.model}, "
          f"{threads} threads, n_ctx {settings.n_ctx}{cache} (seconds, medians; shared machine)")
    print(table(("mode", "stage", "local", "http", "http-local"), rows))
    path = write_results("http_backend", {"server_cache": args.server_cache, "threads": threads, "settings": {k: v for k, v in dataclasses.asdict(settings).items() if k != "llm_api_key"}, "table": rows, "runs": runs})
    print(f"results: {path}")
    library.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
