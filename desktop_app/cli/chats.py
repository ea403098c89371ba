"""`chats` and `export`: the saved conversations."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .session import open_library


def cmd_chats(args: argparse.Namespace) -> int:
    library = open_library(args)
    chats = library.chats()
    if not chats:
        print("No chats yet. Start one with: desktop-app-cli ask \"question\" --chat new")
    for chat_id, title, updated in chats:
        print(f"{chat_id:5}  {updated}  {title}")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    library = open_library(args)
    try:
        markdown = library.export_chat(int(args.chat))
    except (KeyError, ValueError):
        print(f"No chat {args.chat}. List them with: desktop-app-cli chats", file=sys.stderr)
        return 1
    if args.output:
        Path(args.output).write_text(markdown)
        print(f"Wrote {args.output}")
    else:
        print(markdown, end="")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("chats", help="list the chats")
    p.set_defaults(func=cmd_chats)

    p = sub.add_parser("export", help="export a chat to Markdown with its citations")
    p.add_argument("chat")
    p.add_argument("-o", "--output", help="file to write (default: print)")
    p.set_defaults(func=cmd_export)
