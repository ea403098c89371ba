"""Fast stand-ins for the models, for unit tests only (integration tests use the real ones)."""

from __future__ import annotations

import hashlib
import re
import threading
import time
from collections.abc import Iterator, Sequence

import numpy as np


class HashingEmbedder:
    """Bag of words hashed into a vector: texts that share words are similar, as with a real model."""

    def __init__(self, name: str = "hashing-test", dimension: int = 64):
        self.name = name  # another name and dimension stand for another embedding model
        self.dimension = dimension
        self.calls = 0

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.calls += 1
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in re.findall(r"\w+", text.lower()):
                digest = hashlib.md5(word.encode()).digest()
                out[row, digest[0] % self.dimension] += 1.0
            norm = np.linalg.norm(out[row])
            if norm:
                out[row] /= norm
            else:
                out[row, 0] = 1.0
        return out


class GatedEmbedder(HashingEmbedder):
    """Embeds a batch only when the test lets it: the window can be looked at mid-import."""

    def __init__(self):
        super().__init__()
        self.gate = threading.Semaphore(0)
        self.free = False

    def embed(self, texts):
        if not self.free:
            self.gate.acquire(timeout=30)
        return super().embed(texts)

    def let(self, batches: int) -> None:
        self.gate.release(batches)

    def open(self) -> None:
        self.free = True
        self.gate.release(10_000)


def is_question_check(messages) -> bool:
    from desktop_app.core.answers.model_check import SYSTEM

    return bool(messages) and messages[0].get("content") == SYSTEM


def is_claim_check(messages) -> bool:
    from desktop_app.core.answers.model_check import CLAIM_SYSTEM

    return bool(messages) and messages[0].get("content") == CLAIM_SYSTEM


class ScriptedGenerator:
    """Replies with queued texts, token by token, and records the prompts it saw.

    A slow model: `delay` seconds before each reply's first token (reading the prompt), or `hold`, an Event
    each reply waits for before its first token (a test decides when the model "has read" its prompt)."""

    name = "scripted"

    def __init__(self, replies: Sequence[str] = (), delay: float = 0.0, hold: threading.Event | None = None):
        self.replies = list(replies)
        # The answer's model checks (answers/model_check.py) are answered apart, never from the queue: the answer
        # answers the question, and a claim the words fail is not said in other words.
        self.check_reply = "yes"
        self.claim_reply = "no"
        self.checks: list[list[dict]] = []
        self.prompts: list[list[dict]] = []
        self.pieces_sent = 0  # pieces the callers actually took (an early stop takes fewer than the reply has)
        self.delay = delay
        self.hold = hold

    def enqueue(self, *replies: str) -> None:
        self.replies.extend(replies)

    def stream(self, messages, max_tokens: int, temperature: float = 0.0, stop=()) -> Iterator[str]:
        if is_question_check(messages) or is_claim_check(messages):
            self.checks.append(list(messages))
            yield self.check_reply if is_question_check(messages) else self.claim_reply
            return
        self.prompts.append(list(messages))
        reply = self.replies.pop(0) if self.replies else ""
        if self.delay:
            time.sleep(self.delay)
        if self.hold is not None:
            self.hold.wait(timeout=60)
        for piece in re.findall(r"\S+\s*|\s+", reply):
            self.pieces_sent += 1
            yield piece

    def complete(self, messages, max_tokens: int, temperature: float = 0.0, stop=()) -> str:
        return "".join(self.stream(messages, max_tokens, temperature, stop))

    def count_tokens(self, text: str) -> int:
        return len(text.split())
