"""desktop-app-cli: the headless way to run everything the window does, over the same core.

One module per command group (documents, watching, asking, chats, collections, evaluate, models, demo), each with
its `register(sub)`; what the commands show goes through one renderer (render.py), bars through progress.py.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from ..core.errors import AppError
from ..core.logs import setup_logging
from ..core.storage import paths
from . import asking, chats, collections, demo, documents, evaluate, models, watching
from .progress import close_open_bars
from .session import _OPEN  # noqa: F401  (tests put a library with fake models in it)

COMMAND_GROUPS = (documents, watching, asking, chats, collections, evaluate, models, demo)  # in the order --help lists them


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="desktop-app-cli", description="Chat with your documents, locally.")
    parser.add_argument(
        "-v", "--verbose", action="store_true",
        help="Also print the log (stage timings, fallbacks, errors) to stderr; it always goes to the data folder's logs/ "
        "(set DESKTOP_APP_DEBUG_LOG=1 to include questions and passages).",
    )
    parser.add_argument(
        "--library", metavar="URL_OR_FOLDER",
        help="the library to use: a postgresql://user@host/name address (a library shared in PostgreSQL with pgvector), "
        "or a data folder (default: the settings' library, else DESKTOP_APP_HOME or the user data folder)",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for group in COMMAND_GROUPS:
        group.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        setup_logging(paths.data_home(), stderr=args.verbose)
    except (AppError, OSError) as exc:  # an unwritable data folder: the command reports it itself
        print(f"Warning: no log file ({exc})", file=sys.stderr)
    try:
        try:
            return args.func(args)
        finally:
            close_open_bars()  # an error message then starts on its own line
    except AppError as exc:
        logging.getLogger(__name__).warning("shown to the user: %s", exc.user_message())
        print(f"Error: {exc.user_message()}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("Interrupted.", file=sys.stderr)
        return 130
