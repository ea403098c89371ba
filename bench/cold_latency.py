"""The cold half of bench.answer_latency: each ask a new `python -m desktop_app.cli ask ... --json` process.

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
