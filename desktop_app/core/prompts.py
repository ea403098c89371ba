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


def answer_system(general_knowledge: bool = False) -> str:
    return ANSWER_SYSTEM_GENERAL if general_knowledge else ANSWER_SYSTEM


def query_messages(question: str, n: int, system: str | None = None) -> list[dict[str, str]]:
    """With `system` (the answer's system prompt) the query instructions move into the user turn.

    Both prompts then start with the same tokens, so llama.cpp keeps that prefix in its KV cache:
    the answer reuses what query generation evaluated, and the next question's queries reuse the answer's.
    """
    request = f"Write at most {n} search queries for this question:\n{question}"
    if system is not None:
        return [{"role": "system", "content": system}, {"role": "user", "content": f"{QUERY_SYSTEM}\n\n{request}"}]
    return [
        {"role": "system", "content": QUERY_SYSTEM},
        {"role": "user", "content": request},
    ]


def passage_header(source_number: int, source: Source) -> str:
    from pathlib import Path

    return f"[{source_number}] ({Path(source.passage.file).name}, page {source.passage.page})"


def answer_messages(question: str, context: Sequence[Source], general_knowledge: bool = False) -> list[dict[str, str]]:
    blocks = []
    for number, source in enumerate(context, start=1):
        text = " ".join(source.passage.text.split())
        blocks.append(f"{passage_header(number, source)}\n{text}")
    passages = "\n\n".join(blocks)
    return [
        {"role": "system", "content": answer_system(general_knowledge)},
        {"role": "user", "content": f"Passages:\n\n{passages}\n\nQuestion: {question}"},
    ]
