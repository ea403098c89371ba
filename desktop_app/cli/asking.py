"""`ask` and `search`: a question through the pipeline, shown as its events arrive (or as JSON at the end)."""

from __future__ import annotations

import argparse

from ..core.settings import MODES
from .render import JsonRenderer, TextRenderer
from .session import add_embedder_arguments, add_server_arguments, allowed_documents, open_library


def cmd_ask(args: argparse.Namespace, generate_answer: bool = True) -> int:
    library = open_library(args)
    allowed = allowed_documents(library, args.doc, getattr(args, "collection", None))
    renderer = JsonRenderer() if args.json else TextRenderer()
    chat = getattr(args, "chat", None)
    if chat and generate_answer:
        chat_id = library.create_chat(args.question[:60]) if chat == "new" else int(chat)
        renderer.chat_opened(chat_id)
        events = library.ask_in_chat(chat_id, args.question, args.mode, allowed, ignored_filters=args.ignore_filter or ())
    else:
        events = library.ask(args.question, args.mode, allowed, generate_answer=generate_answer, ignored_filters=args.ignore_filter or ())
    renderer.render(events)
    library.close()
    return 0


def cmd_search(args: argparse.Namespace) -> int:
    return cmd_ask(args, generate_answer=False)


def register(sub: argparse._SubParsersAction) -> None:
    for name, func, help_ in (("ask", cmd_ask, "answer a question from your documents"), ("search", cmd_search, "show the queries and fused passages without answering")):
        p = sub.add_parser(name, help=help_)
        p.add_argument("question")
        p.add_argument("--mode", choices=list(MODES))
        p.add_argument("--queries", type=int, help="most lines the model writes (one per thing to look up; the default prompt searches each by name and with its fact)")
        p.add_argument("--rrf-k", type=float, dest="rrf_k")
        p.add_argument("--top-k", type=int, dest="top_k", help="passages in the answer prompt")
        p.add_argument("--model", help="catalog name or path of a GGUF file")
        p.add_argument("--doc", action="append", help="limit to this document (repeatable)")
        p.add_argument("--collection", help="limit to the documents of this collection")
        p.add_argument(
            "--ignore-filter", action="append", metavar="WORDS",
            help="words of the question not to read as a filter (e.g. 'in report.pdf'): searched as words instead (repeatable)",
        )
        p.add_argument("--rerank", help="rerank the fused passages: 'llm', or a CrossEncoder model folder")
        p.add_argument("--json", action="store_true")
        add_server_arguments(p)
        add_embedder_arguments(p)
        if name == "ask":
            p.add_argument("--chat", help="continue chat ID (follow-ups are rewritten from its history), or 'new'")
        p.set_defaults(func=func)
