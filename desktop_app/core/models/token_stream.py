"""Reading a generator's token stream: when the first piece came, stopping when asked, and always closing it.

Closing matters: it stops llama.cpp (or the server's response) at once and frees the model for the next call,
so the Stop button and an early stop cost no further tokens.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Iterator


class TokenStream:
    """Use as `with TokenStream(pieces, cancel) as stream: for piece in stream: ...`; then `stream.first_at`."""

    def __init__(self, pieces: Iterable[str], cancel: threading.Event | None = None):
        self._pieces = pieces
        self._cancel = cancel
        self.first_at: float | None = None  # perf_counter() when the first piece arrived

    def __iter__(self) -> Iterator[str]:
        for piece in self._pieces:
            if self.first_at is None:
                self.first_at = time.perf_counter()
            if self._cancel is not None and self._cancel.is_set():
                return
            yield piece

    def close(self) -> None:
        close = getattr(self._pieces, "close", None)
        if close:
            close()

    def __enter__(self) -> TokenStream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
