"""Follow-up questions: rewrite "and what about its IP rating?" into a standalone question from the chat history."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass

from ..models.llm import Generator

REWRITE_SYSTEM = (
    "You rewrite the user's follow-up question into one standalone question that can be understood without the "
    "conversation. Replace pronouns and vague references (it, its, they, that, this one) with the things they refer to. "
    "Write it in the same language as the follow-up question. Reply with the rewritten question only."
)
MAX_TURNS = 3  # older turns rarely matter for resolving a pronoun and only cost prompt time
MAX_ANSWER_CHARS = 400
_LABEL = re.compile(r"^(standalone question|rewritten question|question|rewritten)\s*:\s*", re.IGNORECASE)


@dataclass(frozen=True)
class Turn:
    question: str
    answer: str


def rewrite_messages(history: Sequence[Turn], question: str) -> list[dict[str, str]]:
    conversation = "\n".join(f"User: {t.question}\nAssistant: {textwrap.shorten(t.answer, MAX_ANSWER_CHARS, placeholder='...')}" for t in history[-MAX_TURNS:])
    return [
        {"role": "system", "content": REWRITE_SYSTEM},
        {"role": "user", "content": f"Conversation:\n{conversation}\n\nFollow-up question: {question}\n\nStandalone question:"},
    ]


def parse_rewrite(raw: str, question: str) -> str:
    for line in raw.splitlines():
        line = _LABEL.sub("", line.strip()).strip().strip("\"'`\u201c\u201d").strip()
        if line:
            # A rambling reply is not a question; keep the user's words rather than a wrong rewrite.
            return line if len(line) <= max(300, 3 * len(question)) else question
    return question


def rewrite_followup(generator: Generator, history: Sequence[Turn], question: str) -> str:
    return parse_rewrite(generator.complete(rewrite_messages(history, question), max_tokens=96, temperature=0.0), question) if history else question
