"""Seconds spent per stage of one question, added up as the stages run (some run more than once)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

STAGES = ("query_generation", "embedding", "retrieval", "fusion", "rerank", "evidence")


class StageClock:
    def __init__(self, started: float | None = None) -> None:
        self.seconds: dict[str, float] = dict.fromkeys(STAGES, 0.0)
        self.started = time.perf_counter() if started is None else started
        self.moments: dict[str, float] = {}  # seconds from `started` to the first time something happened

    def mark(self, moment: str) -> None:
        self.moments.setdefault(moment, time.perf_counter() - self.started)

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        mark = time.perf_counter()
        try:
            yield
        finally:
            self.seconds[name] += time.perf_counter() - mark
