"""`ingest`, `docs`, `remove`: what is in the library."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..core.codec import to_json
from ..core.formats import supported_list
from ..core.wording import counted
from .render import TextRenderer
from .session import open_library


def cmd_ingest(args: argparse.Namespace) -> int:
    library = open_library(args)
    passwords = {}
    if args.password:
        for path in args.paths:
            passwords[str(Path(path).expanduser().resolve())] = args.password
        passwords["*"] = args.password  # also for protected files inside the folders given
    renderer = TextRenderer(suggest_password_flag=not args.password)
    failed = sum(event.stage == "failed" for event in renderer.show(library.import_paths(args.paths, passwords)))
    library.close()
    return 1 if failed else 0


def cmd_docs(args: argparse.Namespace) -> int:
    library = open_library(args)
    docs = library.documents()
    if args.json:
        print(json.dumps([to_json(d) for d in docs], indent=2))
        return 0
    if not docs:
        print("No documents yet. Add some with: desktop-app-cli ingest PATH")
    for d in docs:
        if d.kind == "table":
            tables = counted(d.pages, "table")
            print(f"{d.id:5}  {d.status:8} {d.rows:5} rows  {tables:>13}  {d.title}  ({d.path})")
        else:
            print(f"{d.id:5}  {d.status:8} {d.pages:5} {d.unit}s {d.chunks:6} chunks  {d.title}  ({d.path})")
    return 0


def cmd_remove(args: argparse.Namespace) -> int:
    library = open_library(args)
    doc = library.find_document(args.doc)
    if doc is None:
        print(f"No document matches '{args.doc}'. List them with: desktop-app-cli docs", file=sys.stderr)
        return 1
    library.remove_document(doc.id)
    if doc.kind == "table":
        print(f"Removed {doc.title} ({counted(doc.pages, 'table')}, {counted(doc.rows, 'row')})")
    else:
        print(f"Removed {doc.title} ({doc.chunks} chunks)")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("ingest", help=f"import files or folders: {supported_list()}")
    p.add_argument("paths", nargs="+")
    p.add_argument("--password", help="password for protected PDFs")
    p.set_defaults(func=cmd_ingest)

    p = sub.add_parser("docs", help="list the documents in the library")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_docs)

    p = sub.add_parser("remove", help="remove a document (id, path or file name)")
    p.add_argument("doc")
    p.set_defaults(func=cmd_remove)
