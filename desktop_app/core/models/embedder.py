"""Sentence embeddings. One small interface (`embed`); the model loads on first use."""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

import numpy as np

# Never reach for a model hub: every model comes from local files.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
# Library progress bars ("Loading weights") are noise in the CLI and invisible in the window.
os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")


class Embedder(Protocol):
    name: str
    dimension: int

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-length float32 vectors, one row per text."""
        ...


class SentenceTransformerEmbedder:
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
                from sentence_transformers import SentenceTransformer

                self._model = SentenceTransformer(str(self.folder), device="cpu", local_files_only=True)
        return self._model

    @property
    def loaded(self) -> bool:
        return self._model is not None

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        model = self.load()
        # Whitespace from PDF line breaks carries no meaning; collapse it before embedding.
        cleaned = [" ".join(t.split()) for t in texts]
        vectors = model.encode(cleaned, batch_size=self.batch_size, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False)
        return np.asarray(vectors, dtype=np.float32)
