"""A Generator that remembers `complete` replies in SQLite, for evaluation runs.

Re-running the eval with other fusion settings (k, weights, guard, keyword lists) then costs no
LLM time. The key is the model's name plus the exact messages and sampling arguments, so a
changed prompt is a cache miss. Each entry keeps the seconds the model took, so timings stay honest.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from ..core.models.llm import Generator, Message


class CachedGenerator:
    def __init__(self, load: Callable[[], Generator], path: Path, model_name: str):
        self._load = load  # the real model loads only on the first cache miss
        self.name = model_name
        self._conn = sqlite3.connect(str(path), check_same_thread=False)
        self._conn.execute("CREATE TABLE IF NOT EXISTS replies (key TEXT PRIMARY KEY, reply TEXT NOT NULL, seconds REAL NOT NULL)")
        self._lock = threading.Lock()
        self.replayed = 0.0  # model seconds behind cache hits since the last take_replayed()
        self.hits = 0
        self.misses = 0

    def _key(self, messages: Sequence[Message], max_tokens: int, temperature: float, stop: Sequence[str]) -> str:
        blob = json.dumps([self.name, list(messages), max_tokens, temperature, list(stop)], sort_keys=True)
        return hashlib.sha256(blob.encode()).hexdigest()

    def complete(self, messages: Sequence[Message], max_tokens: int, temperature: float = 0.0, stop: Sequence[str] = ()) -> str:
        key = self._key(messages, max_tokens, temperature, stop)
        with self._lock:
            row = self._conn.execute("SELECT reply, seconds FROM replies WHERE key = ?", (key,)).fetchone()
        if row is not None:
            self.hits += 1
            self.replayed += row[1]
            return row[0]
        started = time.perf_counter()
        reply = self._load().complete(messages, max_tokens, temperature, stop)
        seconds = time.perf_counter() - started
        self.misses += 1
        with self._lock, self._conn:
            self._conn.execute("INSERT OR REPLACE INTO replies VALUES (?, ?, ?)", (key, reply, seconds))
        return reply

    def stream(self, messages: Sequence[Message], max_tokens: int, temperature: float = 0.0, stop: Sequence[str] = ()) -> Iterator[str]:
        """Cached like `complete`: query generation streams (it stops early once enough queries are written).

        What is stored is what the consumer read before closing the stream; the same consumer on the same
        prompt stops at the same place, so a replay gives it the same text. Lines are replayed one by one so
        an early-stopping reader sees the same line boundaries. The key differs from `complete`'s.
        """
        key = "stream:" + self._key(messages, max_tokens, temperature, stop)
        with self._lock:
            row = self._conn.execute("SELECT reply, seconds FROM replies WHERE key = ?", (key,)).fetchone()
        if row is not None:
            self.hits += 1
            self.replayed += row[1]
            yield from row[0].splitlines(keepends=True)
            return
        self.misses += 1
        started = time.perf_counter()
        pieces = self._load().stream(messages, max_tokens, temperature, stop)
        text = ""
        try:
            for piece in pieces:
                text += piece
                yield piece
        finally:
            close = getattr(pieces, "close", None)
            if close:
                close()
            seconds = time.perf_counter() - started
            with self._lock, self._conn:
                self._conn.execute("INSERT OR REPLACE INTO replies VALUES (?, ?, ?)", (key, text, seconds))

    def count_tokens(self, text: str) -> int:
        return self._load().count_tokens(text)

    def take_replayed(self) -> float:
        """Model seconds replayed from the cache since the last call (a miss's time is measured live)."""
        seconds, self.replayed = self.replayed, 0.0
        return seconds

    def close(self) -> None:
        self._conn.close()
