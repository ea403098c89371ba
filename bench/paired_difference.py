"""Paired differences between eval modes, with 95% bootstrap intervals over questions.

    python -m bench.paired_difference .cache/eval/dev-full.json --baseline rag
    python -m bench.paired_difference .cache/eval/dev-onnx.json --against .cache/eval/dev-torch.json
    python -m bench.paired_difference .cache/eval/dev-answers.json --metrics cited_recall,citation_precision,accuracy

Reads the `--json` file of `desktop-app-cli eval` or of the answer eval (desktop_app/evaluation/answers.py: per-question
scores of every mode) and prints, for each other mode, the mean per-question difference to the baseline and a
percentile bootstrap interval (resampling questions, seeded, so a re-run prints the same interval). Without
--metrics it compares the retrieval metrics, and the answer metrics too when the file has them. A question where
either mode has no value for a metric (citation precision of an answer that cites nothing) is left out of that
metric's pairs; N is given per metric.
With `--against`, each mode is compared with the same mode of another run (e.g. another embedder), question by
question (by id).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from pathlib import Path

RETRIEVAL_METRICS = ("recall@10", "ndcg@10")
ANSWER_METRICS = ("cited_recall", "citation_precision", "accuracy", "all_correct", "supported_share", "not_found", "first_token_s")


def paired_differences(questions: list[dict], mode: str, baseline: str, metric: str) -> list[float]:
    pairs = [(q["modes"][mode].get(metric), q["modes"][baseline].get(metric)) for q in questions if mode in q["modes"] and baseline in q["modes"]]
    return [float(a) - float(b) for a, b in pairs if a is not None and b is not None]


def bootstrap_interval(values: list[float], rounds: int = 2000, seed: int = 0) -> tuple[float, float]:
    rng = random.Random(seed)
    means = sorted(statistics.fmean(rng.choices(values, k=len(values))) for _ in range(rounds))
    return means[int(0.025 * rounds)], means[int(0.975 * rounds) - 1]


def metrics_in(questions: list[dict]) -> list[str]:
    """The retrieval metrics, then the answer metrics any question has a value for."""
    present = {name for q in questions for row in q["modes"].values() for name, value in row.items() if value is not None}
    return [m for m in (*RETRIEVAL_METRICS, *ANSWER_METRICS) if m in present]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("json", type=Path)
    parser.add_argument("--baseline", default="rag")
    parser.add_argument("--metrics", help="comma-separated per-question fields (default: every known metric in the file)")
    parser.add_argument("--against", type=Path, help="another run's JSON: compare each mode with the same mode there")
    args = parser.parse_args(argv)
    questions = json.loads(args.json.read_text())["questions"]
    metrics = args.metrics.split(",") if args.metrics else metrics_in(questions)
    if args.against:
        return compare_runs(questions, json.loads(args.against.read_text())["questions"], metrics)
    modes = list(dict.fromkeys(m for q in questions for m in q["modes"] if m != args.baseline))
    print(f"{'mode':24s} {'metric':20s} {'N':>4s}  {'mean difference [95% CI]':>30s}")
    for mode in modes:
        for metric in metrics:
            diffs = paired_differences(questions, mode, args.baseline, metric)
            if not diffs:
                continue
            low, high = bootstrap_interval(diffs)
            print(f"{mode:24s} {metric:20s} {len(diffs):4d}  {f'{statistics.fmean(diffs):+.3f} [{low:+.3f}, {high:+.3f}]':>30s}")


def compare_runs(questions: list[dict], others: list[dict], metrics: list[str]) -> None:
    """Each mode of this run minus the same mode of the other run, over the questions both scored."""
    by_id = {q["id"]: q for q in others}
    paired = [(q, by_id[q["id"]]) for q in questions if q["id"] in by_id]
    modes = list(dict.fromkeys(m for q, o in paired for m in q["modes"] if m in o["modes"]))
    print(f"{'mode (this run - other run)':28s} {'metric':20s} {'N':>4s}  {'mean difference [95% CI]':>30s}")
    for mode in modes:
        for metric in metrics:
            pairs = [(q["modes"][mode].get(metric), o["modes"][mode].get(metric)) for q, o in paired if mode in q["modes"] and mode in o["modes"]]
            diffs = [float(a) - float(b) for a, b in pairs if a is not None and b is not None]
            if not diffs:
                continue
            low, high = bootstrap_interval(diffs)
            print(f"{mode:28s} {metric:20s} {len(diffs):4d}  {f'{statistics.fmean(diffs):+.3f} [{low:+.3f}, {high:+.3f}]':>30s}")


if __name__ == "__main__":
    main()
