"""The answer streamed token by token, and the plain "not found" answer.

The model is told to reply exactly NOT FOUND when the passages do not hold the answer. The first few
characters are held back until they can no longer be the start of that mark, so the user never sees
"NOT FO..." flash by: a refusal becomes the app's own "Not found in your documents." with the closest pages.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Generator, Iterable, Sequence
from pathlib import Path

from ..events import Token
from ..places import place_of
from ..models.token_stream import TokenStream
from ..types import Source
from .prompts import NOT_FOUND_MARK

NOT_FOUND_TEXT = "Not found in your documents."

# (answer, found, when the first token arrived): what an answer stream returns after its tokens.
Streamed = tuple[str, bool, float | None]


def not_found_answer(sources: Sequence[Source], limit: int = 3) -> str:
    closest = []
    seen = set()
    for source in sorted(sources, key=lambda s: -s.similarity):
        key = (source.passage.file, source.passage.page, source.passage.kind)  # sections are numbered like pages
        if key in seen:
            continue
        seen.add(key)
        closest.append(f"{Path(source.passage.file).name} {place_of(source.passage)}")
        if len(closest) >= limit:
            break
    if not closest:
        return NOT_FOUND_TEXT + " Your library has no passages to search yet."
    return f"{NOT_FOUND_TEXT} The closest pages are: {'; '.join(closest)}."


def refuse(sources: Sequence[Source]) -> Generator[Token, None, Streamed]:
    """The not-found answer as one token, without asking the model."""
    answer = not_found_answer(sources)
    first_token_at = time.perf_counter()
    yield Token(answer)
    return answer, False, first_token_at


def _may_become_mark(probe: str) -> bool:
    return len(probe) < len(NOT_FOUND_MARK) and NOT_FOUND_MARK.startswith(probe)


def stream_answer(pieces: Iterable[str], refusal: Callable[[], str], cancel: threading.Event | None = None) -> Generator[Token, None, Streamed]:
    """Yields the model's tokens; holds back the first few characters to catch its NOT FOUND reply.

    `refusal` gives the not-found answer that replaces a NOT FOUND (or empty) reply.
    """
    pending = ""
    text = ""
    decided = False
    with TokenStream(pieces, cancel) as stream:
        for piece in stream:
            if decided:
                text += piece
                yield Token(piece)
                continue
            pending += piece
            probe = pending.lstrip().upper()
            if probe.startswith(NOT_FOUND_MARK):
                answer = refusal()
                yield Token(answer)
                return answer, False, stream.first_at
            if _may_become_mark(probe):
                continue
            decided = True
            text = pending.lstrip()
            yield Token(text)
    first_token_at = stream.first_at
    if not decided and pending.strip():
        text = pending.strip()
        yield Token(text)
    if not text.strip():
        answer = refusal()
        yield Token(answer)
        return answer, False, first_token_at
    return text, True, first_token_at
