"""`demo`: import a sample PDF and answer a question from it (what `make run` shows first)."""

from __future__ import annotations

import argparse

from .asking import cmd_ask
from .documents import cmd_ingest
from .session import add_server_arguments


def cmd_demo(args: argparse.Namespace) -> int:
    from ..core.storage import paths
    from ..sample_datasheet import write_sample_datasheet

    pdf = write_sample_datasheet(paths.data_home() / "samples" / "PX-40 datasheet.pdf")
    args.paths = [str(pdf)]
    args.password = None
    cmd_ingest(args)
    args.question = "What is the maximum operating temperature of the PX-40 pump?"
    args.mode = "fusion"
    args.doc = None
    args.json = False
    print(f"\nQuestion: {args.question}\n")
    return cmd_ask(args)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("demo", help="import a sample PDF and answer a question from it")
    add_server_arguments(p)
    p.set_defaults(func=cmd_demo)
