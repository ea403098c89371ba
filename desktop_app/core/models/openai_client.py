"""An OpenAI-compatible server as the generator: llama.cpp's server, vLLM, Ollama, or any /v1/chat/completions.

The same small interface as LlamaGenerator (`stream`, `complete`, `count_tokens`, `warm_up`, `load`), over
httpx: one client and connection per call, so calls from different threads never share a socket, and
closing a stream closes its connection (the Stop button relies on this; servers stop generating when the
client goes away). Nothing here runs unless the user chose the HTTP backend.

The stream's events are read by `sse_data`, not httpx-sse: httpx-sse follows the SSE spec and drops a
last event that the server did not end with a blank line, which tests/unit/test_llm_http.py expects to
be delivered; and httpx's own iter_lines also splits on Unicode line separators (U+2028) that a model
may write inside a JSON string.
"""

from __future__ import annotations

import json
import math
import os
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from urllib.parse import urlsplit

import httpx

from ..errors import ModelError
from .llm import Message

API_KEY_ENV = "DESKTOP_APP_LLM_API_KEY"
ADDRESS_HINT = "Start the server or check the address in Settings."
PATH_HINT = "Check the model name, and that the address ends in /v1 (for example http://127.0.0.1:8000/v1)."
KEY_HINT = f"Set the server's API key in Settings or in the {API_KEY_ENV} environment variable."
# Servers that tokenize, and the request body each expects.
TOKENIZE_ENDPOINTS = {
    "/extras/tokenize": lambda text: {"input": text},  # llama-cpp-python's server
    "/tokenize": lambda text: {"content": text, "add_special": False},  # llama.cpp's llama-server
}


def api_key(saved: str = "", variable: str = API_KEY_ENV) -> str | None:
    """The environment variable wins over the saved setting, so a key need never be written to disk."""
    return os.environ.get(variable) or saved or None


def server_address(base_url: str) -> str:
    """The address without a trailing slash, or a ModelError when it is no http(s) address."""
    address = base_url.strip().rstrip("/")
    parts = urlsplit(address)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ModelError(f"'{base_url}' is not a server address", hint="Enter one like http://127.0.0.1:8000/v1 in Settings.")
    return address


def unreachable(base_url: str, exc: httpx.TransportError) -> ModelError:
    reason = getattr(exc.__context__, "strerror", None) or str(exc) or type(exc).__name__
    return ModelError(f"Nothing answered at {base_url} ({reason})", hint=ADDRESS_HINT)


def status_error(base_url: str, status: int, path: str, detail: str, has_key: bool, model: str, key_hint: str) -> ModelError:
    """An HTTP error status as a sentence that says what to do: the key, the address or model name, the server's log."""
    said = f": {detail}" if detail else ""
    if status in (401, 403):
        what = "refused the API key" if has_key else "needs an API key"
        return ModelError(f"The server at {base_url} {what} (HTTP {status}{said})", hint=key_hint)
    if status == 404:
        named = f" or no model called '{model}'" if model else ""
        return ModelError(f"The server at {base_url} has no {path}{named} (HTTP 404{said})", hint=PATH_HINT)
    return ModelError(f"The server at {base_url} answered HTTP {status}{said}", hint="See the server's log, then try again.")


def sse_data(lines: Iterable[bytes]) -> Iterator[str]:
    """The `data` of each Server-Sent Event: multi-line data joined by newlines, comments and other fields skipped."""
    data: list[str] = []
    for raw in lines:
        line = raw.decode("utf-8").rstrip("\r\n")
        if not line:
            if data:
                yield "\n".join(data)
                data = []
        elif line.startswith("data:"):
            value = line[5:]
            data.append(value[1:] if value.startswith(" ") else value)
        # ":" comments (keep-alive pings), "event:", "id:" and "retry:" carry no text
    if data:
        yield "\n".join(data)


class OpenAIHttpGenerator:
    def __init__(self, base_url: str, model: str = "", api_key: str | None = None, timeout: float = 120.0):
        """`timeout`: seconds to connect, and the longest silence allowed between two streamed pieces."""
        self.base_url = server_address(base_url)
        self.model = model
        self._api_key = api_key or None
        self.timeout = timeout
        self.name = f"{model or 'server'} @ {self.base_url}"
        self._checked = False
        self._lock = threading.Lock()
        self._tokenizer: str | None = None  # the tokenize endpoint that worked, "" when none does
        self._gives_odds = True  # until the server answers a request for them without them, or refuses it

    def __repr__(self) -> str:  # never the API key
        return f"OpenAIHttpGenerator({self.base_url!r}, model={self.model!r})"

    # -- HTTP ----------------------------------------------------------------------------------
    @contextmanager
    def _request(self, method: str, url: str, payload: dict | None = None) -> Iterator[httpx.Response]:
        """One request on its own connection, closed on leaving; HTTP errors become ModelErrors that say what to do."""
        headers = {"Accept": "application/json, text/event-stream"}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        # trust_env=False: no proxy from HTTP_PROXY and the like, so the prompts go to this server and nowhere
        # else (README, Privacy), as with the standard library's client before.
        with httpx.Client(timeout=self.timeout, trust_env=False) as client:
            try:
                response = client.send(client.build_request(method, url, json=payload, headers=headers), stream=True)
            except httpx.TimeoutException as exc:
                raise self._timeout_error() from exc
            except httpx.TransportError as exc:
                raise unreachable(self.base_url, exc) from exc
            try:
                if response.status_code >= 400:
                    try:
                        detail = _error_detail(response.read()[:2000])
                    except httpx.HTTPError:
                        detail = ""
                    raise self._status_error(response.status_code, response.url.path, detail)
                yield response
            finally:
                response.close()

    def _status_error(self, status: int, path: str, detail: str) -> ModelError:
        return status_error(self.base_url, status, path, detail, bool(self._api_key), self.model, KEY_HINT)

    def _timeout_error(self) -> ModelError:
        return ModelError(
            f"The server at {self.base_url} sent nothing for {self.timeout:g} s",
            hint="It may be busy or still loading its model; check the server, then ask again.",
        )

    def _malformed(self, what: str) -> ModelError:
        return ModelError(
            f"The server at {self.base_url} sent a reply that is not an OpenAI-compatible stream ({what[:120]})",
            hint="Check that the address points at an OpenAI-compatible API, usually ending in /v1.",
        )

    # -- the generator interface -----------------------------------------------------------------
    def load(self) -> list[str]:
        """Check once that the server answers; with no model name set, use the first model it lists."""
        with self._lock:
            if self._checked:
                return [self.model]
            with self._request("GET", self.base_url + "/models") as response:
                try:
                    listed = [m.get("id", "") for m in json.loads(response.read()).get("data", [])]
                except (ValueError, AttributeError, httpx.HTTPError):
                    listed = []  # some servers list no models; the chat endpoint is what matters
            if not self.model and listed:
                self.model = listed[0]
            self._checked = True
            return listed

    @property
    def loaded(self) -> bool:
        return self._checked

    def _payload(self, messages: Sequence[Message], max_tokens: int, temperature: float, stop: Sequence[str], stream: bool) -> dict:
        payload = {"messages": list(messages), "max_tokens": max_tokens, "temperature": temperature, "stream": stream}
        if self.model:
            payload["model"] = self.model
        if stop:
            payload["stop"] = list(stop)
        return payload

    def stream(self, messages: Sequence[Message], max_tokens: int, temperature: float = 0.0, stop: Sequence[str] = ()) -> Iterator[str]:
        self.load()
        # Leaving the with block, when the stream ends, fails, or is closed early (Stop), closes the
        # connection: the server sees the client leave.
        with self._request("POST", self.base_url + "/chat/completions", self._payload(messages, max_tokens, temperature, stop, True)) as response:
            if "text/event-stream" not in response.headers.get("Content-Type", ""):
                # A server that ignores "stream": true answers in one piece; that is still an answer.
                yield self._message_text(self._read(response))
                return
            finished = False
            for data in sse_data(self._lines(response)):
                if data.strip() == "[DONE]":
                    return
                try:
                    chunk = json.loads(data)
                except ValueError:
                    raise self._malformed(data) from None
                if not isinstance(chunk, dict):
                    raise self._malformed(data)
                if "error" in chunk:
                    raise ModelError(f"The server at {self.base_url} stopped with an error: {_error_detail(json.dumps(chunk))}", hint="See the server's log, then ask again.")
                for choice in chunk.get("choices") or []:
                    text = (choice.get("delta") or {}).get("content")
                    if text:
                        yield text
                    finished = finished or bool(choice.get("finish_reason"))
            if not finished:
                raise ModelError(f"The connection to {self.base_url} closed in the middle of the answer", hint="Check the server's log, then ask again.")

    def complete(self, messages: Sequence[Message], max_tokens: int, temperature: float = 0.0, stop: Sequence[str] = ()) -> str:
        self.load()
        with self._request("POST", self.base_url + "/chat/completions", self._payload(messages, max_tokens, temperature, stop, False)) as response:
            return self._message_text(self._read(response))

    def reply_odds(self, messages: Sequence[Message], words: Sequence[str]) -> dict[str, float] | None:
        """The first token's probabilities, from the OpenAI API's `logprobs` (llama.cpp's server, vLLM, OpenAI). A server
        that refuses them or leaves them out is not asked again: None, and the caller reads a reply instead."""
        if not self._gives_odds:
            return None
        self.load()
        payload = {**self._payload(messages, 1, 0.0, (), False), "logprobs": True, "top_logprobs": 20}
        try:
            with self._request("POST", self.base_url + "/chat/completions", payload) as response:
                first = json.loads(self._read(response))["choices"][0]["logprobs"]["content"][0]["top_logprobs"]
            odds = [(str(t["token"]).strip().lower(), math.exp(float(t["logprob"]))) for t in first]
        except (ModelError, ValueError, KeyError, IndexError, TypeError):
            self._gives_odds = False
            return None
        return {word: sum(p for token, p in odds if token == word.lower()) for word in words}

    def _lines(self, response: httpx.Response) -> Iterator[bytes]:
        """The body's lines as they arrive, split on line ends only."""
        pending = b""
        with self._reading():
            for piece in response.iter_bytes():
                pending += piece
                *lines, pending = pending.split(b"\n")
                yield from (line + b"\n" for line in lines)
        if pending:
            yield pending

    def _read(self, response: httpx.Response) -> bytes:
        with self._reading():
            return response.read()

    @contextmanager
    def _reading(self) -> Iterator[None]:
        try:
            yield
        except httpx.TimeoutException as exc:
            raise self._timeout_error() from exc
        except httpx.HTTPError as exc:
            raise ModelError(f"The connection to the server broke ({exc})", hint="Check the server's log, then ask again.") from exc

    def _message_text(self, body: bytes) -> str:
        try:
            return json.loads(body)["choices"][0]["message"].get("content") or ""
        except (ValueError, KeyError, IndexError, TypeError, AttributeError):
            raise self._malformed(body.decode("utf-8", "replace")) from None

    def warm_up(self, messages: Sequence[Message]) -> None:
        """Nothing to do: the server keeps its own model and prompt cache."""

    def count_tokens(self, text: str) -> int:
        """Exact when the server tokenizes (llama-cpp-python's /extras/tokenize, llama.cpp's /tokenize).

        The OpenAI API itself has no tokenizer endpoint (vLLM, Ollama), so then this is an estimate:
        about 4 bytes per token for English text with BPE vocabularies. The benchmarks count tokens, and the
        pipeline once per answer, for the estimate of the wait (Pipeline.reading_tokens).
        """
        root = self.base_url.removesuffix("/v1")
        if self._tokenizer is None:
            candidates = list(TOKENIZE_ENDPOINTS)
        else:
            candidates = [self._tokenizer] if self._tokenizer else []
        for endpoint in candidates:
            try:
                with self._request("POST", root + endpoint, TOKENIZE_ENDPOINTS[endpoint](text)) as response:
                    tokens = json.loads(self._read(response))["tokens"]
            except (ModelError, ValueError, KeyError, TypeError):
                continue
            self._tokenizer = endpoint
            return len(tokens)
        self._tokenizer = ""
        return math.ceil(len(text.encode("utf-8")) / 4)


def _error_detail(body: bytes | str) -> str:
    """The server's own words from an error body ({"detail": ...}, {"error": {"message": ...}}), kept short."""
    text = body.decode("utf-8", "replace") if isinstance(body, bytes) else body
    try:
        data = json.loads(text)
    except ValueError:
        return " ".join(text.split())[:200]
    if isinstance(data, dict):
        inner = data.get("error", data.get("detail", data.get("message", data)))
        if isinstance(inner, dict):
            inner = inner.get("message", inner)
        return str(inner)[:200]
    return str(data)[:200]
