"""Answer latency, plain RAG vs RAG-Fusion side by side, over the R manuals with the default model.

    python -m bench.answer_latency [--repeats 2] [--questions 8] [--n-queries 4] [--processes both|warm|cold]

Two ways to ask, both measured unless --processes picks one:

- warm: one long-running process, like the window: the model loads once, the prompts' fixed prefixes are
  got ready at start (`Pipeline.warm_up`, timed and shown as "window start"), and each question then
  finds them in memory.
- cold: each ask is a new `python -m desktop_app.cli ask ... --json` process, as a user's script runs it:
  the model loads every time and the prompt prefixes come from the disk cache (`models prepare` fills it
  first, untimed) or, with --cold-cache cleared, are read again every time (the state before issue 18).

Both modes answer the same questions over the same library with the same model and the same number of
passages in the prompt (Settings.top_k). Runs are interleaved (rag, fusion, then fusion, rag for the next
question) so a noisy neighbour on the shared machine hits both modes alike; ratios are medians of
per-question ratios measured back to back.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import time
from pathlib import Path

from .cold_latency import CACHE_CHOICES, prepare_cache, run_cold
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
COLD_STAGES = ("process_s", "query_generation", "prompt_processing", "first_token", "total", "prefix_evaluated", "prefix_from_disk")
TOTAL_TARGET, FIRST_TOKEN_TARGET = 1.10, 1.5  # issue 18


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
    generator = library.generator()
    # Each run meets the cache as a new question would: the fixed prompt prefixes, not the other mode's passages.
    generator.forget_context()
    seen = len(generator.prefix_uses)
    cpu_started = time.process_time()
    for event in library.ask(question, mode):
        if isinstance(event, AnswerDone):
            result = event.result
    uses = list(generator.prefix_uses)[seen:]
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
        prefix_evaluated=sum(u.evaluated for u in uses),
        prefix_sources=[u.source for u in uses],
    )
    return row


def run_warm(library, questions, repeats: int) -> list[dict]:
    runs: list[dict] = []
    for repeat in range(repeats):
        for i, question in enumerate(questions):
            order = ("rag", "fusion") if (i + repeat) % 2 == 0 else ("fusion", "rag")
            for mode in order:
                row = run_one(library, question, mode)
                row["repeat"] = repeat
                runs.append(row)
                print(f"  warm [{repeat}.{i}] {mode:6s} first token {row['first_token']:6.2f}s total {row['total']:6.2f}s "
                      f"queries {len(row['queries'])} answer tokens {row['answer_tokens']} | "
                      + " ".join(f"{s}={row[s]:.2f}" for s in STAGES[:6]) + f" cpu={row['cpu_s']:.1f} prefix tokens evaluated {row['prefix_evaluated']}", flush=True)
            write_results("answer_latency-partial", {"runs": runs})  # survives an interrupted run
    return runs


def pairs(runs: list[dict]) -> list[tuple[dict, dict]]:
    """(rag, fusion) for each question of each repeat: runs come in back-to-back pairs."""
    return [(a, b) if a["mode"] == "rag" else (b, a) for a, b in zip(runs[::2], runs[1::2])]


def ratios(runs: list[dict]) -> tuple[float, float]:
    both = pairs(runs)
    return median([f["total"] / r["total"] for r, f in both]), median([f["first_token"] - r["first_token"] for r, f in both])


def stage_rows(runs: list[dict], stages) -> list[tuple]:
    def stage_median(mode: str, stage: str) -> float:
        return median([r[stage] for r in runs if r["mode"] == mode])

    rows = []
    for stage in stages:
        rag, fus = stage_median("rag", stage), stage_median("fusion", stage)
        # a stage plain RAG does not have (query generation: ~1e-6 s of bookkeeping) has no meaningful ratio
        rows.append((stage, rag, fus, fus - rag, fus / rag if rag > 1e-3 else ""))
    return rows


def verdict(value: float, target: float) -> str:
    return "MET" if value <= target else "NOT MET"


def prefix_column(runs: list[dict]) -> str:
    """Prompt-prefix tokens evaluated per ask, rag / fusion: median (max)."""
    parts = []
    for mode in ("rag", "fusion"):
        values = [r["prefix_evaluated"] for r in runs if r["mode"] == mode]
        parts.append(f"{median(values):.0f} ({max(values)})" if values else "-")
    return " / ".join(parts)


def main(argv: list[str] | None = None) -> int:
    from desktop_app.core.settings import Settings, save_settings

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=1, help="passes over the questions (each pass runs both modes)")
    parser.add_argument("--questions", type=int, default=len(QUESTIONS))
    parser.add_argument("--processes", choices=("both", "warm", "cold"), default="both", help="one long-running process, a CLI process per ask, or both")
    parser.add_argument("--cold-questions", type=int, default=5, help="questions in the cold mode (each asked twice, a process each)")
    parser.add_argument("--cold-repeats", type=int, default=1)
    parser.add_argument("--cold-cache", choices=CACHE_CHOICES, default="kept", help="'cleared': no prompt-prefix cache on disk (the state before issue 18)")
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
    load_before = os.getloadavg()
    library = open_library(args.home, settings)
    save_settings(args.home, settings)  # the CLI processes read their settings from the data folder
    results: dict = {"settings": dataclasses.asdict(settings), "load_avg_before": load_before}
    summary = []

    if args.processes in ("both", "cold"):
        questions = QUESTIONS[: args.cold_questions]
        print(f"\ncold: {prepare_cache(args.home, args.cold_cache)}")
        cold = run_cold(args.home, questions, args.cold_repeats, args.cold_cache)
        ratio_total, ft_diff = ratios(cold)
        print(f"\nCold: a new `python -m desktop_app.cli ask --json` process per ask, prompt-prefix cache {args.cold_cache}; "
              f"{len(questions)} questions x {args.cold_repeats} repeats (seconds and tokens, medians)")
        print("  process_s: the whole process, model load included; total/first_token: the --json timings;")
        print("  prefix_evaluated: prompt-prefix tokens llama.cpp read in that process; prefix_from_disk: loaded from the cache instead")
        print(table(("measure", "rag", "fusion", "fusion-rag", "fusion/rag"), stage_rows(cold, COLD_STAGES)))
        results["cold"] = {"cache": args.cold_cache, "ratio_total": ratio_total, "first_token_diff_s": ft_diff, "runs": cold}
        summary.append((f"cold: a CLI process per ask (cache {args.cold_cache})", ratio_total, ft_diff, prefix_column(cold)))

    if args.processes in ("both", "warm"):
        questions = QUESTIONS[: args.questions]
        load_started = time.perf_counter()
        generator = library.generator()
        generator.load()
        library.embedder.embed(["warm up"])
        load_s = time.perf_counter() - load_started
        # What the window does when it opens: the prompts' fixed prefixes, from the disk cache when it has them.
        seen = len(generator.prefix_uses)
        started = time.perf_counter()
        library.pipeline().warm_up()
        warm_up_s = time.perf_counter() - started
        warm_up = list(generator.prefix_uses)[seen:]
        warm = run_warm(library, questions, args.repeats)
        ratio_total, ft_diff = ratios(warm)
        rows = stage_rows(warm, STAGES)
        rows.append(("answer_tokens", *(median([r["answer_tokens"] for r in warm if r["mode"] == m]) for m in ("rag", "fusion")), "", ""))
        print(f"\nWarm: one process (the window): {len(questions)} questions x {args.repeats} repeats, model {settings.model}, "
              f"{settings.n_queries} queries, top_k {settings.top_k}, model load {load_s:.1f}s (seconds, medians)")
        print(table(("stage", "rag", "fusion", "fusion-rag", "fusion/rag"), rows))
        sources = ", ".join(u.source for u in warm_up)
        window = (f"window start (warm-up): {len(warm_up)} prompt prefixes ({sources}), "
                  f"{sum(u.evaluated for u in warm_up)} prefix tokens evaluated, {warm_up_s:.2f}s")
        results["warm"] = {"model_load_s": load_s, "warm_up_s": warm_up_s, "warm_up": [dataclasses.asdict(u) for u in warm_up],
                           "ratio_total": ratio_total, "first_token_diff_s": ft_diff, "table": rows, "runs": warm}
        summary.append(("warm: one process (the window)", ratio_total, ft_diff, prefix_column(warm)))
    library.close()

    load_after = os.getloadavg()
    print(f"\nSummary: medians of per-question pairs (fusion vs plain RAG asked back to back); targets: total ratio <= {TOTAL_TARGET}, "
          f"first-token difference <= {FIRST_TOKEN_TARGET} s")
    print(table(
        ("how asked", "fusion/plain total", "fusion-plain first token", "prefix tokens evaluated per ask, rag / fusion: median (max)"),
        [(name, f"{r:.3f} {verdict(r, TOTAL_TARGET)}", f"{d:+.2f}s {verdict(d, FIRST_TOKEN_TARGET)}", p) for name, r, d, p in summary],
    ))
    if args.processes in ("both", "warm"):
        print(window)
    print(f"load average (1, 5, 15 min): before {' '.join(f'{x:.2f}' for x in load_before)}, after {' '.join(f'{x:.2f}' for x in load_after)}"
          f" on {os.cpu_count()} cores (above ~2.5: other jobs were running, times are inflated)")
    results["load_avg_after"] = load_after
    print(f"results: {write_results('answer_latency', results)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
