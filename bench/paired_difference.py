"""Paired differences between eval modes, with 95% bootstrap intervals over questions.

    python -m bench.paired_difference .cache/eval/dev-full.json --baseline rag
    python -m bench.paired_difference .cache/eval/dev-onnx.json --against .cache/eval/dev-torch.json

Reads the `--json` file of `desktop-app-cli eval` (per-question scores of every mode) and prints, for each
other mode, the mean per-question difference to the baseline and a percentile bootstrap interval
(resampling questions, seeded, so a re-run prints the same interval). With `--against`, each mode is
compared with the same mode of another run (e.g. another embedder), question by question (by id).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from pathlib import Path

METRICS = ("recall@10", "ndcg@10")


def paired_differences(questions: list[dict], mode: str, baseline: str, metric: str) -> list[float]:
    return [q["modes"][mode][metric] - q["modes"][baseline][metric] for q in questions if mode in q["modes"] and baseline in q["modes"]]


def bootstrap_interval(values: list[float], rounds: int = 2000, seed: int = 0) -> tuple[float, float]:
    rng = random.Random(seed)
    means = sorted(statistics.fmean(rng.choices(values, k=len(values))) for _ in range(rounds))
    return means[int(0.025 * rounds)], means[int(0.975 * rounds) - 1]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("json", type=Path)
    parser.add_argument("--baseline", default="rag")
    parser.add_argument("--against", type=Path, help="another run's JSON: compare each mode with the same mode there")
    args = parser.parse_args(argv)
    questions = json.loads(args.json.read_text())["questions"]
    if args.against:
        return compare_runs(questions, json.loads(args.against.read_text())["questions"])
    modes = list(dict.fromkeys(m for q in questions for m in q["modes"] if m != args.baseline))
    print(f"{'mode':40s} {'N':>4s}  " + "  ".join(f"{'d' + m + ' [95% CI]':>28s}" for m in METRICS))
    for mode in modes:
        cells = []
        for metric in METRICS:
            diffs = paired_differences(questions, mode, args.baseline, metric)
            low, high = bootstrap_interval(diffs)
            cells.append(f"{statistics.fmean(diffs):+.3f} [{low:+.3f}, {high:+.3f}]".rjust(28))
        print(f"{mode:40s} {len(diffs):4d}  " + "  ".join(cells))


def compare_runs(questions: list[dict], others: list[dict]) -> None:
    """Each mode of this run minus the same mode of the other run, over the questions both scored."""
    by_id = {q["id"]: q for q in others}
    paired = [(q, by_id[q["id"]]) for q in questions if q["id"] in by_id]
    modes = list(dict.fromkeys(m for q, o in paired for m in q["modes"] if m in o["modes"]))
    print(f"{'mode (this run - other run)':40s} {'N':>4s}  " + "  ".join(f"{'d' + m + ' [95% CI]':>28s}" for m in METRICS))
    for mode in modes:
        cells = []
        for metric in METRICS:
            diffs = [q["modes"][mode][metric] - o["modes"][mode][metric] for q, o in paired if mode in q["modes"] and mode in o["modes"]]
            low, high = bootstrap_interval(diffs)
            cells.append(f"{statistics.fmean(diffs):+.3f} [{low:+.3f}, {high:+.3f}]".rjust(28))
        print(f"{mode:40s} {len(diffs):4d}  " + "  ".join(cells))


if __name__ == "__main__":
    main()
