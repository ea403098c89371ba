"""The prompts of whole-document answers: the model reads a document's outline and its numbered central
sentences (never its passages), and writes a few sentences citing them like [1]."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..answers.review import claim_spans
from ..citation_marks import cited_numbers
from ..languages import language_clause
from ..document_overview import OverviewSection
from ..types import Source
from ..words import MARK, is_number, meaningful

OVERVIEW_SYSTEM = (
    "You describe the user's documents from their outline and numbered key sentences. "
    "Use only what they say. After each sentence, cite the key sentences it comes from in square brackets, like [1] or [2][3]. "
    "Be concise."
)

INSTRUCTIONS = {
    "abstract": "Write a short abstract of {name} in 3 to 4 sentences: what it is and what it covers, citing the key sentences like [1].",
    "part": "Summarize {part} of {name} in 3 to 5 sentences, citing the key sentences like [1].",
    "compare": "Compare {name} and {other} in 3 to 5 sentences: what each covers and how they differ, citing the key sentences like [1].",
}


# The instructions' own words: a sentence of nothing else that cites several key sentences is the small model echoing
# being told to cite them ("The key sentences are [1], [2], ..."), citing all and saying nothing. (In the
# instructions' language: a reply in another says it in other words, and stays.)
INSTRUCTION_WORDS = frozenset(w for w in meaningful(MARK.sub(" ", " ".join((OVERVIEW_SYSTEM, *INSTRUCTIONS.values()))).casefold()) if not is_number(w))


def without_instruction_echoes(answer: str) -> str:
    spans = [(start, end) for start, end in claim_spans(answer) if len(cited_numbers(answer[start:end])) >= 2 and set(meaningful(MARK.sub(" ", answer[start:end]))) <= INSTRUCTION_WORDS]
    for start, end in reversed(spans):
        answer = answer[:start].rstrip(" \t") + answer[end:]
    return answer.strip()


def outline_lines(sections: Sequence[OverviewSection], unit: str = "p.") -> str:
    return "\n".join(f"- {s.title} ({unit} {s.page})" for s in sections)


def key_sentence_lines(context: Sequence[Source], first_number: int = 1) -> str:
    """Each sentence under its number on a line of its own, as the passage prompt sets its passages (prompts.py's
    passage_block: with the mark run into the text the 1.5B model cited the wrong passage)."""
    return "\n\n".join(f"[{n}]\n{' '.join(s.passage.text.split())}" for n, s in enumerate(context, start=first_number))


def document_block(file: str, title: str, outline: Sequence[OverviewSection], context: Sequence[Source], first_number: int = 1) -> str:
    name = Path(file).name
    heading = f"Document: {name}" + (f" ({title})" if title and title != name else "")
    shown = f"\nOutline:\n{outline_lines(outline)}" if outline else ""  # pages of a document whose overview is not built yet
    return f"{heading}{shown}\nKey sentences:\n{key_sentence_lines(context, first_number)}"


def overview_messages(blocks: Sequence[str], question: str, instruction: str) -> list[dict[str, str]]:
    return [
        {"role": "system", "content": OVERVIEW_SYSTEM},
        # The instruction comes last: small models follow the most recent instruction best.
        {"role": "user", "content": "\n\n".join(blocks) + f"\n\nQuestion: {question}\n\n{instruction}{language_clause(question, blocks)}"},
    ]
