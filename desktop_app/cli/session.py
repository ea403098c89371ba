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
    library = _OPEN.get("library") or _open(args)
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
    if overrides:
        try:
            settings = library.settings.replace(**overrides).validated()
        except ValueError as exc:
            raise AppError(f"Invalid option: {exc}", hint="See desktop-app-cli ask --help.") from exc
        library.update_settings(settings, save=False)  # for this command only
    library.model_progress = megabytes_bar("Preparing model")
    print_notices(library)
    return library


def _embedder_choice(args: argparse.Namespace, settings) -> dict:
    """--embed-url / --embed-model as Settings fields."""
    chosen = {}
    if getattr(args, "embed_url", None):
        chosen.update(embedder_backend="http", embed_url=args.embed_url)
    if getattr(args, "embed_model", None):
        if not (getattr(args, "embed_url", None) or settings.embedder_backend == "http"):
            raise AppError("--embed-model names a model on an embeddings server", hint="Give the server's address with --embed-url too.")
        chosen["embed_http_model"] = args.embed_model
    return chosen


def _open(args: argparse.Namespace) -> Library:
    """The library, with the embedder --embed-url / --embed-model name. That choice is saved: the library's vectors
    are that model's, and a later command without the flags must not index everything again with another one."""
    from ..core.library import Library
    from ..core.settings import read_settings, save_settings
    from ..core.storage import paths

    place = library_place(getattr(args, "library", None))
    home = place.get("home") or paths.data_home()
    loaded = read_settings(home)
    chosen = _embedder_choice(args, loaded.settings)
    if not chosen:
        return Library(home, location=place.get("location"))
    try:
        settings = loaded.settings.replace(**chosen).validated()
    except ValueError as exc:
        raise AppError(f"Invalid option: {exc}", hint="See desktop-app-cli ingest --help.") from exc
    library = Library(home, settings=settings, location=place.get("location"))  # a server that does not answer stops here
    library.notices[:0] = [loaded.notice()] if loaded.notice() else []
    if settings != loaded.settings:
        save_settings(home, settings)
        library.notices.append(f"Embeddings come from {settings.embed_url} from now on (saved in Settings).")
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
        help="embed passages with an OpenAI-compatible /v1/embeddings server, e.g. http://127.0.0.1:8080/v1; saved as the library's "
        "embedder (another embedder indexes every passage again)",
    )
    p.add_argument("--embed-model", dest="embed_model", metavar="NAME", help="the embedding model's name on that server")
