"""The prompts of whole-document answers: the model reads a document's outline and its numbered central
sentences (never its passages), and writes a few sentences citing them like [1]."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..answers.review import claim_spans
from ..citation_marks import cited_numbers, with_marks
from ..languages import language_clause
from ..document_overview import OverviewSection
from ..types import Source
from ..words import MARK, is_number, meaningful

CITE = "After each sentence, cite the key sentences it comes from in square brackets, like [1] or [2][3]."
CITING = "citing the key sentences like [1]"
OVERVIEW_SYSTEM = f"You describe the user's documents from their outline and numbered key sentences. Use only what they say. {CITE} Be concise."

INSTRUCTIONS = {
    "abstract": f"Write a short abstract of {{name}} in 3 to 4 sentences: what it is and what it covers, {CITING}.",
    "part": f"Summarize {{part}} of {{name}} in 3 to 5 sentences, {CITING}.",
    "compare": f"Compare {{name}} and {{other}} in 3 to 5 sentences: what each covers and how they differ, {CITING}.",
}


# The instructions' own words: a sentence citing several key sentences that repeats the words telling it to cite them,
# and says nothing else but for one word of its own ("The key sentences are [1], [2], ...", "Key sentences include [1]
# and [2][3]"), is the small model echoing being told to cite, citing all and saying nothing. "It covers installation
# [1][2]" says something in the instructions' words, and stays. (In the instructions' language: a reply in another says
# it in other words, and stays.)
def _words_of(*texts: str) -> frozenset[str]:
    return frozenset(w for w in meaningful(MARK.sub(" ", " ".join(texts)).casefold()) if not is_number(w))


INSTRUCTION_WORDS = _words_of(OVERVIEW_SYSTEM, *INSTRUCTIONS.values())
CITING_WORDS = _words_of(CITE, CITING)
ECHO_OWN_WORDS = 1  # a verb pointing at the marks ("include"); two words of its own can say something


def _echoes(sentence: str) -> bool:
    said = set(meaningful(MARK.sub(" ", sentence)))
    return len(cited_numbers(sentence)) >= 2 and bool(said & CITING_WORDS) and len(said - INSTRUCTION_WORDS) <= ECHO_OWN_WORDS


def without_instruction_echoes(answer: str) -> str:
    """The answer without its echoes. An echo's marks say where the sentence before it came from when that one cites
    nothing ("A guide to X. Key sentences include [1] and [2][3]."): they move there, for the check to judge."""
    spans = claim_spans(answer)
    for k in reversed(range(len(spans))):
        start, end = spans[k]
        if not _echoes(echo := answer[start:end]):
            continue
        answer = answer[:start].rstrip(" \t") + answer[end:]
        if k and not cited_numbers(answer[(before := spans[k - 1])[0] : before[1]]):
            answer = answer[: before[0]] + with_marks(answer[before[0] : before[1]], cited_numbers(echo)) + answer[before[1] :]
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
