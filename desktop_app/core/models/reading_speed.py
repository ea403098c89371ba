"""How fast the model reads a prompt on this computer, measured, so the wait before an answer's first word can
be estimated ("Reading 6 passages, about 40 s").

Measured from the warm-up (the prompts' fixed instructions, when they are read rather than loaded from the
prompt cache) and from every answer: the tokens of its passages and question over the time to its first piece.
Both count what the model had to read then, so an answer's estimate is its own tokens over the recent speed.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator

SMOOTHING = 0.5  # the newest measurement's share: the speed follows a machine that got busier within an answer or two


class ReadingSpeed:
    def __init__(self) -> None:
        self.tokens_per_second: float | None = None  # None until something was measured

    def record(self, tokens: int, seconds: float) -> None:
        if tokens <= 0 or seconds <= 0:
            return
        rate = tokens / seconds
        old = self.tokens_per_second
        self.tokens_per_second = rate if old is None else (1 - SMOOTHING) * old + SMOOTHING * rate

    def seconds_for(self, tokens: int) -> float | None:
        """The estimated time to read `tokens`, or None before any measurement."""
        return tokens / self.tokens_per_second if self.tokens_per_second and tokens > 0 else None

    def timed(self, pieces: Iterable[str], tokens: int) -> Iterator[str]:
        """The model's pieces, passed on; the time from the first request to the first piece is recorded."""
        started = time.perf_counter()  # a generator: this runs when the stream is first asked for a piece
        first = True
        for piece in pieces:
            if first:
                self.record(tokens, time.perf_counter() - started)
                first = False
            yield piece
