"""Answer latency from the command line: each ask a new `python -m desktop_app.cli ask ... --json` process.

    python -m bench.cold_latency [--questions 5] [--repeats 1] [--cache kept|cleared]

That is how a user's script, a cron job or a shell loop runs the app: every call loads the model and meets
an empty KV cache, so the prompts' fixed prefixes come from the disk cache (data folder/prefix-cache) or are
read again. Each process's timings come from its own `--json` output; how it got each prompt prefix comes
from the DESKTOP_APP_PREFIX_LOG lines the model writes (loaded from disk, or read: how many tokens).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
STAGES = ("process_s", "query_generation", "prompt_processing", "first_token", "total", "prefix_evaluated", "prefix_from_disk")
TOTAL_TARGET, FIRST_TOKEN_TARGET = 1.10, 1.5  # issue 18: fusion/plain total, fusion-plain first token (s)
CACHE_CHOICES = ("kept", "cleared")  # kept: the disk cache as `models prepare` left it; cleared: none (the "before")


def cli(home: Path, *args: str, prefix_log: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "DESKTOP_APP_HOME": str(home), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    if prefix_log is not None:
        env["DESKTOP_APP_PREFIX_LOG"] = str(prefix_log)
    # From the checkout's root, so `-m desktop_app.cli` is this tree's code (as the tests run it).
    return subprocess.run([sys.executable, "-m", "desktop_app.cli", *args], cwd=REPO, env=env, capture_output=True, text=True, check=False)


def prepare_cache(home: Path, cache: str) -> str:
    """Untimed: `models prepare` as a user's set-up runs it (it reads and saves the prompt prefixes)."""
    shutil.rmtree(home / "prefix-cache", ignore_errors=True)
    if cache == "cleared":
        return "prefix cache cleared before every process"
    done = cli(home, "models", "prepare")
    if done.returncode != 0:
        raise SystemExit(f"models prepare failed:\n{done.stderr}")
    return done.stdout.strip().splitlines()[-1]


def run_one(home: Path, question: str, mode: str, cache: str) -> dict:
    if cache == "cleared":
        shutil.rmtree(home / "prefix-cache", ignore_errors=True)
    with tempfile.TemporaryDirectory() as scratch:
        log = Path(scratch) / "prefix.jsonl"
        started = time.perf_counter()
        done = cli(home, "ask", question, "--mode", mode, "--json", prefix_log=log)
        wall = time.perf_counter() - started
        uses = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
    if done.returncode != 0:
        raise SystemExit(f"ask failed ({done.returncode}):\n{done.stderr}")
    result = json.loads(done.stdout)
    timings = result["timings"]
    return {
        "mode": mode,
        "question": question,
        "process_s": wall,
        **{stage: timings[stage] for stage in ("query_generation", "prompt_processing", "first_token", "generation", "total")},
        "prefix_evaluated": sum(u["evaluated"] for u in uses),
        "prefix_from_disk": sum(u["prefix_tokens"] for u in uses if u["source"] == "disk"),
        "prefix_calls": len(uses),
        "prefix_sources": [u["source"] for u in uses],
        "queries": result["queries"],
        "found": result["found"],
        "load_avg": os.getloadavg()[0],
    }


def run_cold(home: Path, questions: tuple[str, ...], repeats: int, cache: str) -> list[dict]:
    runs: list[dict] = []
    for repeat in range(repeats):
        for i, question in enumerate(questions):
            # Interleaved, alternating which mode goes first, so load from neighbours hits both alike.
            for mode in ("rag", "fusion") if (i + repeat) % 2 == 0 else ("fusion", "rag"):
                row = run_one(home, question, mode, cache)
                row["repeat"] = repeat
                runs.append(row)
                print(
                    f"  cold [{repeat}.{i}] {mode:6s} process {row['process_s']:6.2f}s total {row['total']:6.2f}s "
                    f"first token {row['first_token']:6.2f}s | prefix tokens evaluated {row['prefix_evaluated']}, "
                    f"from disk {row['prefix_from_disk']} ({', '.join(row['prefix_sources'])})",
                    flush=True,
                )
    return runs


def main(argv: list[str] | None = None) -> int:
    import argparse

    from desktop_app.core.settings import Settings, save_settings

    from .answer_latency import QUESTIONS, open_library
    from .common import RESULTS_DIR, median, table, write_results

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=5, help="questions (each asked twice, rag and fusion, a process each)")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--cache", choices=CACHE_CHOICES, default="kept", help="'cleared': no prompt-prefix cache on disk (the state before issue 18)")
    parser.add_argument("--home", type=Path, default=RESULTS_DIR / "home-r-manuals")
    args = parser.parse_args(argv)
    load_before = os.getloadavg()
    settings = Settings()
    open_library(args.home, settings).close()  # the R manuals imported (untimed)
    save_settings(args.home, settings)  # the CLI processes read their settings from the data folder
    print(f"cold: {prepare_cache(args.home, args.cache)}")
    runs = run_cold(args.home, QUESTIONS[: args.questions], args.repeats, args.cache)
    both = [(a, b) if a["mode"] == "rag" else (b, a) for a, b in zip(runs[::2], runs[1::2])]
    ratio_total = median([f["total"] / r["total"] for r, f in both])
    first_token_diff = median([f["first_token"] - r["first_token"] for r, f in both])

    def stage_median(mode: str, stage: str) -> float:
        return median([r[stage] for r in runs if r["mode"] == mode])

    rows = []
    for stage in STAGES:
        rag, fusion = stage_median("rag", stage), stage_median("fusion", stage)
        rows.append((stage, rag, fusion, fusion - rag, fusion / rag if rag > 1e-3 else ""))
    print(f"\nCold: a new CLI process per ask, prompt-prefix cache {args.cache}; {args.questions} questions x {args.repeats} repeats (medians)")
    print("  process_s: the whole process, model load included; total/first_token: the --json timings;")
    print("  prefix_evaluated: prompt-prefix tokens llama.cpp read in that process; prefix_from_disk: loaded from the cache instead")
    print(table(("measure", "rag", "fusion", "fusion-rag", "fusion/rag"), rows))
    load_after = os.getloadavg()
    print(f"fusion/plain total {ratio_total:.3f} ({'MET' if ratio_total <= TOTAL_TARGET else 'NOT MET'}: <= {TOTAL_TARGET}); "
          f"fusion-plain first token {first_token_diff:+.2f}s ({'MET' if first_token_diff <= FIRST_TOKEN_TARGET else 'NOT MET'}: <= {FIRST_TOKEN_TARGET} s)")
    print(f"load average: before {load_before[0]:.2f}, after {load_after[0]:.2f} on {os.cpu_count()} cores (above ~2.5: other jobs ran, times inflated)")
    path = write_results("cold_latency", {"cache": args.cache, "ratio_total": ratio_total, "first_token_diff_s": first_token_diff,
                                          "load_avg_before": load_before, "load_avg_after": load_after, "runs": runs})
    print(f"results: {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
