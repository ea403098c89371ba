"""The options of `desktop-app-cli eval` and `python -m desktop_app.evaluation.answers`, defined once for both.

No heavy imports here: the CLI builds its parser from this at every start.
"""

from __future__ import annotations

import argparse


def add_eval_arguments(parser: argparse.ArgumentParser) -> None:
    """What both evaluations take: the BEIR folder, the modes, the sample, the eval library, the query cache, the JSON."""
    parser.add_argument("dir", help="a BEIR folder: corpus.jsonl, queries.jsonl (with \"answers\" for answer accuracy), qrels.tsv")
    parser.add_argument("--modes", default="rag,naive-fusion,fusion", help="comma-separated; a named variant (fusion-interleave, fusion-entity-round, ...) or a mode with Settings fields and research knobs: fusion+rrf_k=60+query_style=names")
    parser.add_argument("--sample", type=int, help="score a fixed random sample of N questions")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--home", help="data folder of the eval library (default: DIR/eval-library); reused across runs")
    parser.add_argument("--query-cache", dest="query_cache", help="SQLite file caching generated queries (default: in the eval library)")
    parser.add_argument("--json", help="also write summaries and per-question results to this file")


def add_answer_arguments(parser: argparse.ArgumentParser) -> None:
    """What only the answer evaluation takes: it checkpoints every answer to JSON.rows.jsonl and resumes from it."""
    parser.add_argument("--fresh", action="store_true", help="answers: ignore the rows of an earlier run and ask every question again")
    parser.add_argument("--report-only", dest="report_only", action="store_true", help="answers: print the table from JSON.rows.jsonl; ask nothing")
