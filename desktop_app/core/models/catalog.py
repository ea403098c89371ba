"""The catalog of bundled models (the repository's models/catalog.json) and the GGUF files a user adds."""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from pathlib import Path

from ..storage import paths

# In a checkout models/ at the top; a wheel and a PyInstaller bundle carry it inside the package (paths.shipped_dir).
CATALOG_FILE = paths.shipped_dir("models") / "catalog.json"


@dataclass(frozen=True)
class LlmEntry:
    name: str
    title: str
    file_name: str
    size: int
    sha256: str | None
    license: str
    chat_format: str
    part_package_pattern: str | None = None
    part_file_pattern: str | None = None
    part_count: int = 0
    single_package: str | None = None
    single_file: str | None = None


@dataclass(frozen=True)
class EmbedderEntry:
    name: str  # also the name the vectors are recorded under: a different backend is a different name
    title: str
    backend: str  # "onnx" or "sentence-transformers"
    package: str  # the Python package that carries the model's files
    path: str  # inside the package: the ONNX file, or the sentence-transformers folder
    dimension: int
    license: str
    tokenizer_package: str | None = None  # onnx: the package with tokenizer.json, and its path inside it
    tokenizer_path: str | None = None
    tokenizer_resource: str | None = None  # onnx: or a tokenizer file in this app's resources/ folder
    max_tokens: int = 256  # onnx: longer texts are cut, as sentence-transformers' max_seq_length does


@dataclass(frozen=True)
class Catalog:
    llms: tuple[LlmEntry, ...]
    embedders: tuple[EmbedderEntry, ...]
    default_llm: str
    default_embedder: str

    def llm(self, name: str) -> LlmEntry:
        for entry in self.llms:
            if entry.name == name:
                return entry
        raise KeyError(name)

    def embedder(self, name: str) -> EmbedderEntry:
        for entry in self.embedders:
            if entry.name == name:
                return entry
        raise KeyError(name)


def load_catalog(path: Path = CATALOG_FILE) -> Catalog:
    raw = json.loads(path.read_text())
    llms = []
    for item in raw["llms"]:
        parts = item.get("parts") or {}
        single = item.get("single_file") or {}
        llms.append(
            LlmEntry(
                name=item["name"],
                title=item["title"],
                file_name=item["file_name"],
                size=item["size"],
                sha256=item.get("sha256"),
                license=item["license"],
                chat_format=item["chat_format"],
                part_package_pattern=parts.get("package_pattern"),
                part_file_pattern=parts.get("file_pattern"),
                part_count=parts.get("count", 0),
                single_package=single.get("package"),
                single_file=single.get("file"),
            )
        )
    known = {f.name for f in fields(EmbedderEntry)}
    embedders = [EmbedderEntry(**{k: v for k, v in item.items() if k in known}) for item in raw["embedders"]]
    return Catalog(tuple(llms), tuple(embedders), raw["default_llm"], raw["default_embedder"])


def user_gguf_files() -> list[Path]:
    """GGUF files the user dropped into a models folder (not the ones we assembled)."""
    found: dict[str, Path] = {}
    for folder in paths.user_models_dirs():
        if folder.is_dir():
            for file in sorted(folder.glob("*.gguf")):
                found.setdefault(file.name, file)
    return list(found.values())
