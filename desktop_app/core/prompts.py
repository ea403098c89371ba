"""The prompts the LLM sees. Fixed instructions come first so llama.cpp can reuse their KV cache."""

from __future__ import annotations

from collections.abc import Sequence

from .types import Source

NOT_FOUND_MARK = "NOT FOUND"

QUERY_SYSTEM = (
    "You write search queries for a search engine over the user's documents. "
    "Split the question into the separate facts, entities or sub-questions that must be looked up, "
    "and write one short keyword query (2 to 8 words) for each. "
    "Write only the queries, one per line, with no numbering and no explanations."
)

ANSWER_SYSTEM = (
    "You answer questions using only the numbered passages from the user's documents. "
    "After each sentence, cite the passages it comes from in square brackets, like [1] or [2][3]. "
    "Be concise. If the passages do not contain the answer, reply exactly: " + NOT_FOUND_MARK
)

ANSWER_SYSTEM_GENERAL = (
    "You answer questions using the numbered passages from the user's documents when they help, "
    "citing them in square brackets like [1]. If they do not contain the answer, say so first, "
    "then answer from general knowledge and say that you did."
)


def query_messages(question: str, n: int) -> list[dict[str, str]]:
    return [
        {"role": "system", "content": QUERY_SYSTEM},
        {"role": "user", "content": f"Write at most {n} search queries for this question:\n{question}"},
    ]


def passage_header(source_number: int, source: Source) -> str:
    from pathlib import Path

    # No page number here: small models then cite "[3]" for "page 3" instead of the passage number.
    return f"[{source_number}] (from {Path(source.passage.file).name})"


def answer_messages(question: str, context: Sequence[Source], general_knowledge: bool = False) -> list[dict[str, str]]:
    blocks = []
    for number, source in enumerate(context, start=1):
        text = " ".join(source.passage.text.split())
        blocks.append(f"{passage_header(number, source)}\n{text}")
    passages = "\n\n".join(blocks)
    return [
        {"role": "system", "content": ANSWER_SYSTEM_GENERAL if general_knowledge else ANSWER_SYSTEM},
        # The reminder comes last: small models follow the most recent instruction best.
        {"role": "user", "content": f"Passages:\n\n{passages}\n\nQuestion: {question}\n\nAnswer from the passages and cite them like [1]."},
    ]
