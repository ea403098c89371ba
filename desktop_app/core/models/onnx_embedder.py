"""MiniLM on ONNX Runtime: the bundled embedder, with no PyTorch.

The model file gives token vectors (last_hidden_state); mean pooling over the real tokens and
unit length are done here, as sentence-transformers' Pooling and Normalize modules do. The
tokenizer is the model's own `tokenizer.json` (Hugging Face `tokenizers`, a small Rust wheel).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

# Texts of similar length are embedded together, so a batch pads little.
BATCH_SIZE = 32


class OnnxEmbedder:
    def __init__(self, model_file: Path, tokenizer_file: Path, name: str, dimension: int, max_tokens: int = 256, batch_size: int = BATCH_SIZE):
        self.model_file = Path(model_file)
        self.tokenizer_file = Path(tokenizer_file)
        self.name = name
        self.dimension = dimension
        self.max_tokens = max_tokens
        self.batch_size = batch_size
        self._session = None
        self._tokenizer = None
        self._lock = threading.Lock()

    def load(self):
        with self._lock:
            if self._session is None:
                import onnxruntime
                from tokenizers import Tokenizer

                tokenizer = Tokenizer.from_file(str(self.tokenizer_file))
                # The file pads every text to a fixed 128 tokens; sentence-transformers truncates at the model's
                # max_seq_length (256 for MiniLM) and pads to the longest text of the batch.
                tokenizer.enable_truncation(self.max_tokens)
                tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
                options = onnxruntime.SessionOptions()
                # Idle worker threads otherwise spin on the CPU between batches, taking it from the LLM and the window.
                options.add_session_config_entry("session.intra_op.allow_spinning", "0")
                session = onnxruntime.InferenceSession(str(self.model_file), options, providers=["CPUExecutionProvider"])
                self._input_names = {i.name for i in session.get_inputs()}
                self._tokenizer = tokenizer
                self._session = session
        return self._session

    @property
    def loaded(self) -> bool:
        return self._session is not None

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        session = self.load()
        # Whitespace from PDF line breaks carries no meaning; collapse it before embedding.
        cleaned = [" ".join(t.split()) for t in texts]
        order = np.argsort([len(t) for t in cleaned], kind="stable")
        out = np.empty((len(cleaned), self.dimension), dtype=np.float32)
        for start in range(0, len(cleaned), self.batch_size):
            rows = order[start : start + self.batch_size]
            out[rows] = self._embed_batch(session, [cleaned[i] for i in rows])
        return out

    def _embed_batch(self, session, texts: list[str]) -> np.ndarray:
        encodings = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        hidden = session.run(None, {k: v for k, v in feeds.items() if k in self._input_names})[0]
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        return pooled / np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)
