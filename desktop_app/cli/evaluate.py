"""`eval`: retrieval quality on a BEIR folder, through the app's own importer and pipeline (evaluation/runner.py);
with --answers, the full ask and its answers scored (evaluation/answers.py)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..evaluation.options import add_answer_arguments, add_eval_arguments
from .render import TextRenderer
from .session import print_notices


def cmd_eval(args: argparse.Namespace) -> int:
    if args.answers:
        from ..evaluation.answers import run as evaluate_answers

        return evaluate_answers(args)
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
    add_eval_arguments(p)
    p.add_argument("--answers", action="store_true", help="run the full ask and score the answers (desktop_app/evaluation/answers.py)")
    add_answer_arguments(p)
    p.set_defaults(func=cmd_eval)
