"""`models list|prepare`: the bundled models and the user's own GGUF files."""

from __future__ import annotations

import argparse

from .progress import megabytes_bar


def cmd_models(args: argparse.Namespace) -> int:
    from ..core.models.catalog import load_catalog, user_gguf_files
    from ..core.models.model_files import resolve_llm

    catalog = load_catalog()
    if args.action == "list":
        for e in catalog.llms:
            default = " (default)" if e.name == catalog.default_llm else ""
            print(f"{e.name:22} {e.size / 1e6:8.0f} MB  {e.license:10} {e.title}{default}")
        for f in user_gguf_files():
            print(f"{f.name:22} {f.stat().st_size / 1e6:8.0f} MB  (your file: {f})")
        return 0
    for name in args.names or [catalog.default_llm]:
        path = resolve_llm(name, megabytes_bar(f"Preparing {name}"))
        print(f"{name}: {path}")
    from .session import open_library

    library = open_library(args)  # the configured model's prompt prefixes, saved for later processes
    print(library.warm_prompt_prefixes())
    library.close()
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("models", help="list or prepare the bundled models")
    p.add_argument("action", choices=["list", "prepare"])
    p.add_argument("names", nargs="*")
    p.set_defaults(func=cmd_models)
