"""Answer latency, plain RAG vs RAG-Fusion side by side, over the R manuals with the default model.

    python -m bench.answer_latency [--repeats 2] [--questions 8] [--n-queries 4]

Both modes answer the same questions over the same library with the same model and the same
number of passages in the prompt (Settings.top_k). Runs are interleaved (rag, fusion, then
fusion, rag for the next question) so a noisy neighbour on the shared machine hits both modes
alike; ratios are medians of per-question ratios measured back to back.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import time
from pathlib import Path

from .common import RESULTS_DIR, median, require_r_manuals, table, write_results

QUESTIONS = (
    "How do I install an R package from a local source tarball?",
    "How can I read a data file with a header line into a data frame?",
    "What does the tapply function do?",
    "How do I fit a linear regression model and print a summary of it?",
    "Which environment variable sets the directories where R looks for installed packages?",
    "What tools and compilers do I need to build R from source on a Unix-alike?",
    "How do I create a sequence of numbers from 1 to 30 in steps of 0.5?",
    "What is the difference between a list and a data frame in R?",
)
CORPUS = ("R-intro.pdf", "R-admin.pdf")
STAGES = ("query_generation", "embedding", "retrieval", "fusion", "prompt_processing", "generation", "first_token", "total", "cpu_s", "load_avg")


def open_library(home: Path, settings):
    from desktop_app.core.library import Library

    library = Library(home, settings=settings)
    files = require_r_manuals(*CORPUS)
    for event in library.import_paths(files):
        if event.stage in ("ready", "failed"):
            print(f"  import {Path(event.file).name}: {event.stage} {event.message}")
    return library


def run_one(library, question: str, mode: str) -> dict:
    from desktop_app.core.events import AnswerDone

    result = None
    # Each run meets the cache as a new question would: the fixed prompt prefixes, not the other mode's passages.
    library.generator().forget_context()
    cpu_started = time.process_time()
    for event in library.ask(question, mode):
        if isinstance(event, AnswerDone):
            result = event.result
    generator = library.generator()
    row = dataclasses.asdict(result.timings)
    row.update(
        cpu_s=time.process_time() - cpu_started,  # all threads; less sensitive to the shared machine's load than wall time
        load_avg=os.getloadavg()[0],
        mode=mode,
        question=question,
        queries=list(result.queries),
        context=len(result.context),
        found=result.found,
        answer_tokens=generator.count_tokens(result.answer) if result.found else 0,
        answer=result.answer,
    )
    return row


def main(argv: list[str] | None = None) -> int:
    from desktop_app.core.settings import Settings

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=1, help="passes over the questions (each pass runs both modes)")
    parser.add_argument("--questions", type=int, default=len(QUESTIONS))
    parser.add_argument("--n-queries", type=int, default=Settings.n_queries)
    parser.add_argument("--top-k", type=int, default=Settings.top_k)
    parser.add_argument("--max-answer-tokens", type=int, default=Settings.max_answer_tokens)
    parser.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE", help="override any Settings field (a lever), e.g. --set n_batch=256")
    parser.add_argument("--home", type=Path, default=RESULTS_DIR / "home-r-manuals")
    args = parser.parse_args(argv)

    overrides = {}
    for item in args.set:
        key, _, value = item.partition("=")
        current = getattr(Settings, key)
        overrides[key] = type(current)(value) if not isinstance(current, bool) else value.lower() in ("1", "true", "yes")
    settings = Settings(n_queries=args.n_queries, top_k=args.top_k, max_answer_tokens=args.max_answer_tokens, **overrides)
    print(f"settings: {settings}")
    library = open_library(args.home, settings)
    questions = QUESTIONS[: args.questions]

    load_started = time.perf_counter()
    library.generator().load()
    library.embedder.embed(["warm up"])
    load_s = time.perf_counter() - load_started
    # Untimed: the window does this when it opens (both prompts' fixed instructions into KV snapshots),
    # as a long-running app would have them after its first question.
    library.pipeline().warm_up()

    runs: list[dict] = []
    for repeat in range(args.repeats):
        for i, question in enumerate(questions):
            order = ("rag", "fusion") if (i + repeat) % 2 == 0 else ("fusion", "rag")
            pair = {}
            for mode in order:
                row = run_one(library, question, mode)
                row["repeat"] = repeat
                runs.append(row)
                pair[mode] = row
                print(f"  [{repeat}.{i}] {mode:6s} first token {row['first_token']:6.2f}s total {row['total']:6.2f}s "
                      f"queries {len(row['queries'])} answer tokens {row['answer_tokens']} | "
                      + " ".join(f"{s}={row[s]:.2f}" for s in STAGES[:6]) + f" cpu={row['cpu_s']:.1f}", flush=True)
            runs[-1]["pair_ratio_total"] = pair["fusion"]["total"] / pair["rag"]["total"]
            write_results("answer_latency-partial", {"settings": dataclasses.asdict(settings), "runs": runs})  # survives an interrupted run

    def stage_median(mode: str, stage: str) -> float:
        return median([r[stage] for r in runs if r["mode"] == mode])

    pairs = [(a, b) if a["mode"] == "rag" else (b, a) for a, b in zip(runs[::2], runs[1::2])]
    ratio_total = median([f["total"] / r["total"] for r, f in pairs])
    ft_diff = median([f["first_token"] - r["first_token"] for r, f in pairs])
    # Answers differ in length between modes; the per-token rate isolates the fusion overhead from that.
    rows = []
    for stage in STAGES:
        rag, fus = stage_median("rag", stage), stage_median("fusion", stage)
        # a stage plain RAG does not have (query generation: ~1e-6 s of bookkeeping) has no meaningful ratio
        rows.append((stage, rag, fus, fus - rag, fus / rag if rag > 1e-3 else ""))
    rows.append(("answer_tokens", stage_median("rag", "answer_tokens"), stage_median("fusion", "answer_tokens"), "", ""))
    print()
    print(f"Answer latency: {len(questions)} questions x {args.repeats} repeats, model {settings.model}, "
          f"{settings.n_queries} queries, top_k {settings.top_k}, model load {load_s:.1f}s (seconds, medians)")
    print(table(("stage", "rag", "fusion", "fusion-rag", "fusion/rag"), rows))
    print()
    verdict_total = "MET" if ratio_total <= 1.10 else "NOT MET"
    verdict_ft = "MET" if ft_diff <= 1.5 else "NOT MET"
    print(f"median per-question total fusion/plain: {ratio_total:.3f}  (target <= 1.10: {verdict_total})")
    print(f"median per-question first-token fusion-plain: {ft_diff:.2f}s  (target <= 1.5 s: {verdict_ft})")
    path = write_results("answer_latency", {
        "settings": dataclasses.asdict(settings), "model_load_s": load_s,
        "ratio_total": ratio_total, "first_token_diff_s": ft_diff, "table": rows, "runs": runs,
    })
    print(f"results: {path}")
    library.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
