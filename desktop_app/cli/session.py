"""Opening the library for a command: the options every asking command shares applied to its settings."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.errors import AppError
from .progress import megabytes_bar

if TYPE_CHECKING:
    from ..core.library import Library

# One library per process: the demo imports and then asks without loading the models twice.
# Tests put a library with fake models here.
_OPEN: dict[str, Library] = {}

# command-line option -> Settings field
_SETTING_OPTIONS = (("queries", "n_queries"), ("rrf_k", "rrf_k"), ("top_k", "top_k"), ("model", "model"), ("mode", "mode"), ("rerank", "reranker"))


def open_library(args: argparse.Namespace) -> Library:
    from ..core.library import Library

    library = _OPEN.get("library") or Library(**library_place(getattr(args, "library", None)))
    _OPEN["library"] = library
    overrides = {field: getattr(args, option) for option, field in _SETTING_OPTIONS if getattr(args, option, None) is not None}
    if getattr(args, "queries", None) is not None:
        overrides["max_queries"] = args.queries  # an explicit --queries N is a cap, not a minimum
    if getattr(args, "llm_url", None):
        overrides.update(llm_backend="http", llm_url=args.llm_url)
    if getattr(args, "llm_model", None):
        if not (args.llm_url or library.settings.llm_backend == "http"):
            raise AppError("--llm-model names a model on a server", hint="Give the server's address with --llm-url too.")
        overrides["llm_http_model"] = args.llm_model
    if getattr(args, "embed_url", None):
        overrides.update(embedder_backend="http", embed_url=args.embed_url)
    if getattr(args, "embed_model", None):
        if not (getattr(args, "embed_url", None) or library.settings.embedder_backend == "http"):
            raise AppError("--embed-model names a model on an embeddings server", hint="Give the server's address with --embed-url too.")
        overrides["embed_http_model"] = args.embed_model
    if overrides:
        try:
            settings = library.settings.replace(**overrides).validated()
        except ValueError as exc:
            raise AppError(f"Invalid option: {exc}", hint="See desktop-app-cli ask --help.") from exc
        # For this command only (not saved); another embedder re-indexes the library's passages.
        notice = library.update_settings(settings, save=False)
        if notice:
            library.notices.append(notice)
    library.model_progress = megabytes_bar("Preparing model")
    print_notices(library)
    return library


def library_place(where: str | None) -> dict:
    """--library: a postgresql:// address, or a data folder; none: the settings' choice."""
    from ..core.storage.postgres import is_database_url

    if not where:
        return {}
    return {"location": where} if is_database_url(where) else {"home": Path(where).expanduser()}


def print_notices(library: Library) -> None:
    for notice in library.notices:
        print(notice, file=sys.stderr)


def allowed_documents(library: Library, refs: Sequence[str] | None, collection: str | None = None) -> list[int] | None:
    """The ids of the documents named by --doc (id, path or file name) and --collection; None: all of them."""
    ids = None
    if refs:
        ids = []
        for ref in refs:
            doc = library.find_document(ref)
            if doc is None:
                raise AppError(f"No document matches '{ref}'", hint="List them with: desktop-app-cli docs")
            ids.append(doc.id)
    if collection:
        ids = sorted(set(ids or []) | set(library.collection_documents(collection)))
    return ids


def add_server_arguments(p: argparse.ArgumentParser) -> None:
    # The key is read from DESKTOP_APP_LLM_API_KEY, never from the command line (others can read it in `ps`).
    p.add_argument("--llm-url", dest="llm_url", metavar="URL", help="answer with an OpenAI-compatible server, e.g. http://127.0.0.1:8000/v1")
    p.add_argument("--llm-model", dest="llm_model", metavar="NAME", help="the server's model name (default: the first it lists)")


def add_embedder_arguments(p: argparse.ArgumentParser) -> None:
    # The key is read from DESKTOP_APP_EMBED_API_KEY, never from the command line (others can read it in `ps`).
    p.add_argument(
        "--embed-url", dest="embed_url", metavar="URL",
        help="embed passages with an OpenAI-compatible /v1/embeddings server, e.g. http://127.0.0.1:8080/v1 (another embedder re-indexes the library)",
    )
    p.add_argument("--embed-model", dest="embed_model", metavar="NAME", help="the embedding model's name on that server")
