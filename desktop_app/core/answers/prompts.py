"""The answer prompts the LLM sees. Fixed instructions come first so llama.cpp can reuse their KV cache.
(The prompts that write search queries are in retrieval/query_styles.py.)"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..languages import language_clause
from ..types import Source

NOT_FOUND_MARK = "NOT FOUND"

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


def passage_block(source_number: int, source: Source) -> str:
    """"[3]" on its own line, then the text: no page number (small models cite "[3]" for "page 3"), no file name
    (file_line says it once per file). Run into the text, the mark made the 1.5B model cite the first passage for
    a fact of the second (tests/integration/test_conversation.py, on the sample datasheet)."""
    if source.passage.kind == "table":  # a Markdown table keeps its line breaks: one row per line is how the model reads which value is whose
        return f"[{source_number}] (a table)\n{source.passage.text}"
    return f"[{source_number}]\n{' '.join(source.passage.text.split())}"


def file_line(file: str, pages: Sequence[int] = ()) -> str:
    """"From R-data.pdf:"; with `pages` (a question that names them), the pages its passages are on, so the model sees
    that "page 5" is what it reads ("What is on page 5 of X?" was answered "not found" by a model shown no page)."""
    where = f", {'page' if len(pages) == 1 else 'pages'} {', '.join(map(str, pages))}" if pages else ""
    return f"From {Path(file).name}{where}:"


def list_instruction(names: Sequence[str]) -> str:
    """For a question about several named things: one cited sentence per name, each on its own line. Of six wordings
    (two questions of our own, the 1.5B model), a skeleton ("- Tarrow Works:") or a pattern got citations without
    facts or the pattern echoed; one sentence per name, its passage number at the end, stated and cited each fact."""
    return (
        f"Answer with one short sentence per name ({', '.join(names)}), each on its own line starting with \"- \" "
        "and ending with the number of the passage that says it, like [1]."
    )


def answer_messages(question: str, context: Sequence[Source], general_knowledge: bool = False, names: Sequence[str] = (), asked: str = "", pages_asked: bool = False) -> list[dict[str, str]]:
    """`names`: a list answer's things, a line each (two or more); `asked`: the question as written, whose language counts;
    `pages_asked`: the question names the pages it is about, which each file's line then says."""
    blocks = []
    for number, source in enumerate(context, start=1):
        if number == 1 or source.passage.file != context[number - 2].passage.file:
            pages = sorted({s.passage.page for s in context if s.passage.file == source.passage.file}) if pages_asked else ()
            blocks.append(file_line(source.passage.file, pages))
        blocks.append(passage_block(number, source))
    passages = "\n\n".join(blocks)
    instruction = (list_instruction(names) if len(names) >= 2 else "Answer the question in a full sentence, citing the passages like [1].") + language_clause(asked or question, (s.passage.text for s in context))
    return [
        {"role": "system", "content": answer_system(general_knowledge)},
        # The reminder comes last: small models follow the most recent instruction best.
        {"role": "user", "content": f"Passages:\n\n{passages}\n\nQuestion: {question}\n\n{instruction}"},
    ]
