"""Sentence embeddings. One small interface (`embed`); the model loads on first use.

The bundled model runs on ONNX Runtime (onnx_embedder.py); this module's sentence-transformers
embedder runs a model folder of the user's own (it needs PyTorch: the `sentence-transformers` extra).
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

import numpy as np

from ..errors import ModelError
from ..word_pieces import plain_letters

# Never reach for a model hub: every model comes from local files.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
# Library progress bars ("Loading weights") are noise in the CLI and invisible in the window.
os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")


def embedded_text(text: str) -> str:
    """What an embedder reads of a text: its whitespace from PDF line breaks collapsed (it carries no meaning), its
    ligatures and other compatibility letters written plainly (a tokenizer read "ﬁlter" as "ﬁ" and "lter")."""
    return " ".join(plain_letters(text).split())


class Embedder(Protocol):
    name: str
    dimension: int

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-length float32 vectors, one row per text."""
        ...


class LazyEmbedder:
    """What both embedders share: the model loads on first use (load()), texts are cleaned before encoding."""

    name: str
    dimension: int

    def load(self):
        raise NotImplementedError

    @property
    def loaded(self) -> bool:
        return self._model is not None

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        model = self.load()
        return self._encode(model, [embedded_text(t) for t in texts])

    def _encode(self, model, texts: list[str]) -> np.ndarray:
        raise NotImplementedError


class SentenceTransformerEmbedder(LazyEmbedder):
    def __init__(self, folder: Path, name: str, dimension: int, batch_size: int = 32):
        self.folder = Path(folder)
        self.name = name
        self.dimension = dimension
        self.batch_size = batch_size
        self._model = None
        self._lock = threading.Lock()

    def load(self):
        with self._lock:
            if self._model is None:
                try:
                    from sentence_transformers import SentenceTransformer
                except ImportError as exc:
                    raise ModelError(
                        f"The embedding model {self.name} needs sentence-transformers, which is not installed",
                        hint="Install it with pip install 'desktop-app[sentence-transformers]', or choose the bundled embedder in Settings.",
                    ) from exc
                self._model = SentenceTransformer(str(self.folder), device="cpu", local_files_only=True)
        return self._model

    def _encode(self, model, cleaned: list[str]) -> np.ndarray:
        vectors = model.encode(cleaned, batch_size=self.batch_size, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False)
        return np.asarray(vectors, dtype=np.float32)


def sentence_transformers_dimension(folder: Path) -> int:
    """The length of a sentence-transformers folder's vectors, read from its config files (no PyTorch needed).

    The last module that sets a size wins: a Dense layer's out_features, else the Pooling's word
    embedding size, else the transformer's hidden size.
    """
    folder = Path(folder)

    def read(path: Path) -> dict:
        try:
            value = json.loads(path.read_text())
        except (OSError, ValueError):
            return {}
        return value if isinstance(value, dict) else {}

    try:
        modules = json.loads((folder / "modules.json").read_text())
    except (OSError, ValueError) as exc:
        raise ModelError(
            f"{folder} is not a sentence-transformers model folder (it has no readable modules.json)",
            hint="Pick a folder saved by sentence-transformers, or the bundled embedder.",
        ) from exc
    dimension = int(read(folder / "config.json").get("hidden_size") or 0)
    for module in modules if isinstance(modules, list) else []:
        config = read(folder / str(module.get("path", "")) / "config.json")
        kind = str(module.get("type", ""))
        if kind.endswith(".Dense") and config.get("out_features"):
            dimension = int(config["out_features"])
        elif kind.endswith(".Pooling") and config.get("word_embedding_dimension"):
            dimension = int(config["word_embedding_dimension"])
    if dimension <= 0:
        raise ModelError(f"Could not tell the vector size of the model in {folder}", hint="Pick a folder saved by sentence-transformers.")
    return dimension
