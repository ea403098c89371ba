"""`eval`: retrieval quality on a BEIR folder, through the app's own importer and pipeline (evaluation/runner.py)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .render import TextRenderer
from .session import print_notices


def cmd_eval(args: argparse.Namespace) -> int:
    from ..core.library import Library
    from ..evaluation.runner import EvalFinished, plan_eval, run_eval

    folder = Path(args.dir)
    try:
        plan = plan_eval(folder, args.modes, args.sample, args.seed)
    except (FileNotFoundError, ValueError) as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 2
    home = Path(args.home) if args.home else folder / "eval-library"
    library = Library(home=home)
    print_notices(library)
    query_cache = Path(args.query_cache) if args.query_cache else home / "query-cache.sqlite"
    finished = [e for e in TextRenderer().show(run_eval(plan, library, query_cache)) if isinstance(e, EvalFinished)]
    if args.json:
        report = {"dir": str(folder), "n": len(plan.questions), "sample": args.sample, "seed": args.seed}
        report.update(summaries=list(finished[0].summaries), questions=list(finished[0].questions))
        Path(args.json).write_text(json.dumps(report, indent=1))
    library.close()
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("eval", help="measure retrieval quality on a BEIR folder (corpus.jsonl, queries.jsonl, qrels.tsv)")
    p.add_argument("dir")
    p.add_argument("--modes", default="rag,naive-fusion,fusion", help="comma-separated; a variant sets Settings fields: fusion+rrf_k=60+question_weight=2")
    p.add_argument("--sample", type=int, help="score a fixed random sample of N questions")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--home", help="data folder of the eval library (default: DIR/eval-library); reused across runs")
    p.add_argument("--query-cache", dest="query_cache", help="SQLite file caching generated queries (default: in the eval library)")
    p.add_argument("--json", help="also write summaries and per-question results to this file")
    p.set_defaults(func=cmd_eval)
