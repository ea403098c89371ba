"""Embeddings from a server: any OpenAI-compatible /v1/embeddings (Ollama, vLLM, llama.cpp's server,
text-embeddings-inference, infinity).

The same interface as the local embedders (`name`, `dimension`, `embed`). Texts go in batches, a few
batches at a time (bounded concurrency: a GPU server works on several while the next are on the wire);
a batch that meets a busy or restarting server (a dropped connection, HTTP 429 or 5xx) is sent again after
a growing pause. When the server stays away the error says so; the embedding queue has committed every
batch before it, so the import goes on from there when the server is back (ingest/embedding_queue.py).

The vectors' length is the server model's: it is learned from the first reply (or taken from what the
library recorded, so opening a library needs no network), and a reply of another length is an error,
never a silent mix of two models' vectors in one index.
"""

from __future__ import annotations

import base64
import binascii
import json
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

import httpx
import numpy as np

from ..errors import ModelError
from .embedder import embedded_text
from .openai_client import _error_detail, server_address, status_error, unreachable

EMBED_API_KEY_ENV = "DESKTOP_APP_EMBED_API_KEY"
EMBED_KEY_HINT = f"Set the embeddings server's API key in Settings or in the {EMBED_API_KEY_ENV} environment variable."
NAME_PREFIX = "server:"
# Statuses worth asking again: the server is overloaded, restarting or behind a proxy that lost it.
RETRY_STATUSES = frozenset({408, 425, 429, 500, 502, 503, 504})


def server_embedder_name(model: str, base_url: str) -> str:
    """The vector set's model: the server's model name (the same model on another address is the same vectors)."""
    return NAME_PREFIX + (model.strip() or server_address(base_url))


class _Retry(Exception):
    """A failure that another attempt may get past; `error` is what the user is told if none does."""

    def __init__(self, error: ModelError):
        super().__init__(str(error))
        self.error = error


class HttpEmbedder:
    def __init__(
        self,
        base_url: str,
        model: str = "",
        api_key: str | None = None,
        dimension: int | None = None,
        timeout: float = 60.0,
        batch_size: int = 32,
        concurrency: int = 4,
        attempts: int = 4,
        backoff_s: float = 0.5,
        sleep: Callable[[float], None] = time.sleep,
        transport: httpx.BaseTransport | None = None,
    ):
        """`dimension`: the length the library's vectors have (None: learn it from the server's first reply)."""
        self.base_url = server_address(base_url)
        self.model = model.strip()
        self.name = server_embedder_name(self.model, self.base_url)
        self._api_key = api_key or None
        self._dimension = dimension
        self.timeout = timeout
        self.batch_size = max(1, batch_size)
        self.concurrency = max(1, concurrency)
        self.attempts = max(1, attempts)
        self.backoff_s = backoff_s
        self._sleep = sleep
        self._transport = transport  # tests: httpx.MockTransport
        self._lock = threading.Lock()
        self._client: httpx.Client | None = None

    def __repr__(self) -> str:  # never the API key
        return f"HttpEmbedder({self.base_url!r}, model={self.model!r})"

    @property
    def dimension(self) -> int:
        if self._dimension is None:
            self._dimension = int(self._post(["dimension"]).shape[1])
        return self._dimension

    @property
    def loaded(self) -> bool:
        return self._client is not None

    def load(self) -> None:
        """Check that the server answers and learn its vectors' length."""
        _ = self.dimension

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        cleaned = [embedded_text(t) or " " for t in texts]  # as the local embedders read them
        batches = [cleaned[i : i + self.batch_size] for i in range(0, len(cleaned), self.batch_size)]
        if len(batches) == 1:
            parts = [self._post(batches[0])]
        else:
            with ThreadPoolExecutor(max_workers=min(self.concurrency, len(batches)), thread_name_prefix="embed-http") as pool:
                parts = list(pool.map(self._post, batches))
        vectors = np.vstack(parts)
        expected = self.dimension
        if vectors.shape[1] != expected:
            raise self._wrong_dimension(vectors.shape[1], expected)
        return vectors

    def close(self) -> None:
        with self._lock:
            if self._client is not None:
                self._client.close()
                self._client = None

    # -- one batch --------------------------------------------------------------------------------
    def _http(self) -> httpx.Client:
        with self._lock:
            if self._client is None:
                headers = {"Authorization": f"Bearer {self._api_key}"} if self._api_key else {}
                # trust_env=False: the passages go to this server and nowhere else (no proxy from the environment).
                limits = httpx.Limits(max_connections=self.concurrency, max_keepalive_connections=self.concurrency)
                self._client = httpx.Client(timeout=self.timeout, trust_env=False, headers=headers, limits=limits, transport=self._transport)
            return self._client

    def _post(self, texts: list[str]) -> np.ndarray:
        """One batch's unit-length vectors, asked again after a pause while the failure may pass."""
        for attempt in range(self.attempts):
            try:
                return self._post_once(texts)
            except _Retry as retry:
                if attempt == self.attempts - 1:
                    raise retry.error from None
                self._sleep(self.backoff_s * 2**attempt)
        raise AssertionError("unreachable")

    def _post_once(self, texts: list[str]) -> np.ndarray:
        # base64: each vector as its little-endian float32 bytes (the OpenAI API's own option, which vLLM, TEI,
        # infinity and llama.cpp's server honour): a quarter of the bytes of decimal floats and no float parsing.
        # A server that ignores it sends floats, which are read as well (_vector).
        payload: dict = {"input": texts, "encoding_format": "base64"}
        if self.model:
            payload["model"] = self.model
        url = self.base_url + "/embeddings"
        try:
            response = self._http().post(url, json=payload)
        except httpx.TimeoutException as exc:
            raise _Retry(ModelError(f"The embeddings server at {self.base_url} sent nothing for {self.timeout:g} s", hint="It may be busy or still loading its model; check it, then import again.")) from exc
        except httpx.TransportError as exc:
            raise _Retry(unreachable(self.base_url, exc)) from exc
        if response.status_code >= 400:
            error = status_error(self.base_url, response.status_code, "/embeddings", _error_detail(response.content[:2000]), bool(self._api_key), self.model, EMBED_KEY_HINT)
            if response.status_code in RETRY_STATUSES:
                raise _Retry(error)
            raise error
        return self._vectors(response.content, len(texts))

    def _vectors(self, body: bytes, count: int) -> np.ndarray:
        try:
            rows = json.loads(body)["data"]
            # The reply's order is not promised: each row says which input it belongs to.
            ordered = sorted(rows, key=lambda row: row.get("index", 0))
            embeddings = [_vector(row["embedding"]) for row in ordered]
            if any(isinstance(values, list) and values and isinstance(values[0], list) for values in embeddings):
                raise ModelError(
                    f"The server at {self.base_url} sent one vector per word piece, not one per passage",
                    hint="Its model makes no sentence embeddings as served: choose an embedding model, or start the server with pooling (llama.cpp: --pooling mean).",
                )
            vectors = np.array(embeddings, dtype=np.float32)
        except (ValueError, KeyError, TypeError, AttributeError, binascii.Error):
            raise ModelError(
                f"The server at {self.base_url} sent a reply that is not OpenAI-compatible embeddings ({body[:120].decode('utf-8', 'replace')})",
                hint="Check that the address points at an OpenAI-compatible API, usually ending in /v1, and that the model makes embeddings.",
            ) from None
        if vectors.ndim != 2 or len(vectors) != count:
            raise ModelError(
                f"The server at {self.base_url} sent {len(vectors)} vectors for {count} passages",
                hint="Its model may give one vector per token rather than per text: choose an embedding model (or pooling) on the server.",
            )
        if self._dimension is not None and vectors.shape[1] != self._dimension:
            raise self._wrong_dimension(vectors.shape[1], self._dimension)
        # Servers differ on normalising; the index compares directions, and the local embedders give unit length.
        return vectors / np.clip(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12, None)

    def _wrong_dimension(self, got: int, expected: int) -> ModelError:
        return ModelError(
            f"The embeddings server at {self.base_url} sent vectors of {got} numbers; this library's have {expected}",
            hint=f"The server runs another model than the library was indexed with ({self.name}). Serve that model again, or name the new one in Settings so the library is indexed again.",
        )


def _vector(value: object) -> object:
    """A reply row's vector: base64 of little-endian float32s (as asked), or a list of numbers (a server that
    ignores encoding_format)."""
    if isinstance(value, str):
        return np.frombuffer(base64.b64decode(value, validate=True), dtype="<f4")
    return value
