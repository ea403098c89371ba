"""The answer streamed token by token, and the plain "not found" answer.

The model is told to reply exactly NOT FOUND when the passages do not hold the answer. The first few characters are held back until they can
no longer be the start of that mark, so the user never sees "NOT FO..." flash by: a refusal becomes the app's own "Not found in your documents."
with the closest pages. A reply that starts repeating itself (a small model's loop: one sentence over and over until the token limit) is
stopped as soon as REPEAT_WORDS words (word_pieces.WORD: in any script) in a row come a second time, and cut where the repetition began.
A citation mark is one word whatever it cites: a model counting "[1], [2], [3] ..." on past its passages loops too; it is cut with the
sentence the run of marks began in, which led in to nothing.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Generator, Iterable, Sequence
from pathlib import Path

from ..events import Token
from ..models.token_stream import TokenStream
from ..places import place_of
from ..types import Source
from ..word_pieces import WORD
from ..words import MARK
from .prompts import NOT_FOUND_MARK

NOT_FOUND_TEXT = "Not found in your documents."
NOT_FOUND_LINE = "not found in your documents."  # a list answer's line for a name nothing was found for

REPEAT_WORDS = 10  # words in a row written twice: a loop, not an answer (an answer's lines differ in their names)
_WORD_OR_MARK = re.compile(f"{MARK.pattern}|{WORD.pattern}")
_SENTENCE_END = re.compile(r"(?:[.!?](?=\s)|[\u3002\uff01\uff1f\n])\s*")  # "10.4" ends none
REPEAT_NOTICE = "The answer began repeating itself, so it was stopped there."
Streamed = tuple[str, bool, float | None]  # (answer, found, when the first token arrived): what an answer stream returns after its tokens


def not_found_answer(sources: Sequence[Source], limit: int = 3) -> str:  # each page once, in the side panel's order (not by cosine)
    closest = list(dict.fromkeys(f"{Path(s.passage.file).name} {place_of(s.passage)}" for s in sources))[:limit]
    return f"{NOT_FOUND_TEXT} The closest pages are: {'; '.join(closest)}." if closest else f"{NOT_FOUND_TEXT} Your library has no passages to search yet."


def missing_lines(missing: Sequence[str]) -> str:  # a list answer's lines for the named things no passage mentions (retrieval/evidence.py)
    return "".join(f"\n- {name}: {NOT_FOUND_LINE}" for name in missing)


def refuse(sources: Sequence[Source]) -> Generator[Token, None, Streamed]:
    """The not-found answer as one token, without asking the model."""
    answer, first_token_at = not_found_answer(sources), time.perf_counter()
    yield Token(answer)
    return answer, False, first_token_at


class RepeatWatch:
    """Finds the first run of REPEAT_WORDS words that a growing text writes a second time, each word looked at once."""

    def __init__(self, words: int = REPEAT_WORDS):
        self.words, self._seen, self._next = words, set[tuple[str, ...]](), 0  # _next: the first run not yet seen

    def repeat_at(self, text: str) -> int | None:
        """Where in `text` a repeated run starts, or None. The last word may be unfinished: it waits."""
        found = [(m.start(), "[n]" if m.group(0)[0] == "[" else m.group(0).casefold()) for m in _WORD_OR_MARK.finditer(text)][:-1]
        for i in range(self._next, len(found) - self.words + 1):
            run = tuple(word for _, word in found[i : i + self.words])
            if run in self._seen:
                if set(run) != {"[n]"}:
                    return found[i][0]
                while i and found[i - 1][1] == "[n]":  # back to the run's first mark, then to the end of the sentence before it
                    i -= 1
                return max((m.end() for m in _SENTENCE_END.finditer(text, 0, found[i][0])), default=found[i][0])
            self._seen.add(run)
            self._next = i + 1
        return None


def stream_answer(pieces: Iterable[str], refusal: Callable[[], str], cancel: threading.Event | None = None, notices: list[str] | None = None) -> Generator[Token, None, Streamed]:
    """Yields the model's tokens, the first few held back to catch a NOT FOUND reply (`refusal` gives the answer that
    replaces it, or an empty reply); a reply that repeats itself is stopped, with REPEAT_NOTICE in `notices`."""
    pending, text, decided, watch = "", "", False, RepeatWatch()
    with TokenStream(pieces, cancel) as stream:
        for piece in stream:
            if decided:
                text += piece
                yield Token(piece)
                if (cut := watch.repeat_at(text)) is not None:
                    text = text[:cut].rstrip()
                    if notices is not None:
                        notices.append(REPEAT_NOTICE)
                    break
                continue
            pending += piece
            probe = pending.lstrip().upper()
            if probe.startswith(NOT_FOUND_MARK):
                answer = refusal()
                yield Token(answer)
                return answer, False, stream.first_at
            if len(probe) < len(NOT_FOUND_MARK) and NOT_FOUND_MARK.startswith(probe):  # it may still become the mark
                continue
            decided = True
            text = pending.lstrip()
            yield Token(text)
    if not decided and (text := pending.strip()):  # a short reply, all of it held back
        yield Token(text)
    if not text.strip():
        answer = refusal()
        yield Token(answer)
        return answer, False, stream.first_at
    return text, True, stream.first_at
