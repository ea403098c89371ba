"""Follow-up questions: rewrite "and what about its IP rating?" into a standalone question from the chat history."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass

from ..languages import different_languages, different_scripts, language_clause
from ..models.llm import Generator
from ..words import Vocabulary, meaningful

REWRITE_SYSTEM = (
    "You rewrite the user's follow-up question into one standalone question that can be understood without the "
    "conversation. Replace pronouns and vague references (it, its, they, that, this one) with the things they refer to. "
    "Write it in the same language as the follow-up question. Reply with the rewritten question only."
)
# A question's closing mark, in Latin, Chinese and Japanese (full width), Arabic, Greek and Armenian writing.
QUESTION_MARKS = ("?", "\uff1f", "\u061f", "\u037e", "\u055e")
MAX_TURNS = 3  # older turns rarely matter for resolving a pronoun and only cost prompt time
MAX_ANSWER_CHARS = 400
# A follow-up with this many words of its own asks something by itself: a rewrite keeping half of them or fewer (in any
# form) is another question ("Which <tool> option reduces memory usage?" came back as the chat's question before it,
# "What does the -k option of <tool> do?"). A rewrite replaces references; it keeps what the person asked.
OWN_WORDS = 3
_LABEL = re.compile(r"^(standalone question|rewritten question|question|rewritten)\s*:\s*", re.IGNORECASE)


@dataclass(frozen=True)
class Turn:
    question: str
    answer: str
    filters: tuple[str, ...] = ()  # the phrases its search was limited by ("in R-data.pdf", "pages 10-20"): read for the last turn, whose filters a follow-up keeps


def rewrite_messages(history: Sequence[Turn], question: str) -> list[dict[str, str]]:
    """The follow-up's language named: "the same language" alone did not hold (after an English question, a Japanese follow-up was rewritten in English)."""
    conversation = "\n".join(f"User: {t.question}\nAssistant: {textwrap.shorten(t.answer, MAX_ANSWER_CHARS, placeholder='...')}" for t in history[-MAX_TURNS:])
    follow_up = f"Follow-up question: {question}{language_clause(question, None, 'it')}"
    return [{"role": "system", "content": REWRITE_SYSTEM}, {"role": "user", "content": f"Conversation:\n{conversation}\n\n{follow_up}\n\nStandalone question:"}]


def parse_rewrite(raw: str, question: str, history: Sequence[Turn] = ()) -> str:
    """The reply's first line, unless it is no rewrite and the user's words are kept: a rambling reply, a sentence of an earlier
    answer, a statement for a question ending in a question mark (the model answered instead), a translation (searched in a
    language the follow-up's documents may not be in), or another question (none of a self-contained follow-up's words)."""
    line = next((text for text in (_LABEL.sub("", s.strip()).strip().strip("\"'`\u201c\u201d").strip() for s in raw.splitlines()) if text), "")
    answered = question.rstrip().endswith(QUESTION_MARKS) and not line.rstrip().endswith(QUESTION_MARKS)
    own, kept = set(meaningful(question)), Vocabulary([line])
    replaced = len(own) >= OWN_WORDS and 2 * sum(map(kept.holds, own)) <= len(own)
    wrong = not line or len(line) > max(300, 3 * len(question)) or answered or replaced or any(line in t.answer for t in history) or different_languages(line, question) or different_scripts(line, question)
    return question if wrong else line


def rewrite_followup(generator: Generator, history: Sequence[Turn], question: str) -> str:
    return parse_rewrite(generator.complete(rewrite_messages(history, question), max_tokens=96, temperature=0.0), question, history) if history else question
