"""`collection list|add|remove|delete`: named groups of documents to ask within."""

from __future__ import annotations

import argparse
import sys

from ..core.wording import counted
from .session import open_library


def cmd_collection(args: argparse.Namespace) -> int:
    library = open_library(args)
    if args.action == "list":
        for _, name, count in library.collections():
            print(f"{name}: {counted(count, 'document')}")
        return 0
    if not args.name:
        print("Name the collection.", file=sys.stderr)
        return 1
    if args.action == "delete":
        library.delete_collection(args.name)
        print(f"Deleted collection {args.name} (its documents stay in the library)")
        return 0
    docs = []
    for ref in args.docs:
        doc = library.find_document(ref)
        if doc is None:
            print(f"No document matches '{ref}'. List them with: desktop-app-cli docs", file=sys.stderr)
            return 1
        docs.append(doc)
    if args.action == "add":
        library.add_to_collection(args.name, [d.path for d in docs])
    else:
        library.remove_from_collection(args.name, [d.path for d in docs])
    print(f"{args.name}: {counted(len(library.collection_documents(args.name)), 'document')}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("collection", help="group documents into named collections")
    p.add_argument("action", choices=["list", "add", "remove", "delete"])
    p.add_argument("name", nargs="?")
    p.add_argument("docs", nargs="*", help="documents (id, path or file name)")
    p.set_defaults(func=cmd_collection)
