"""Does what the answer rests on answer the question? The local model, asked yes or no, once per answer.

grounding.py cannot see a claim that copies a passage faithfully but answers another question (a region's population
for the country's). The model can, shown the sentence the first grounded claim rests on (after its document's title,
so "It has ..." keeps its subject) and the question, after the answer streamed (no delay before the first token). The
prompt's fixed start stays read (models/prefix_snapshots.py). A plain "no" flags the claim's citations, never refuses.
"""

from __future__ import annotations

from ..models.llm import Generator

SYSTEM = "You check whether a text answers a question. Reply yes or no only."
MAX_CHARS = 400  # a very long sentence (a table row read as one) is cut: the check must stay a small share of the answer


class QuestionCheck:
    def __init__(self, generator: Generator):
        self.generator = generator

    def answers(self, question: str, statement: str) -> bool:  # False only when the model says it does not
        text = " ".join(statement.split())[:MAX_CHARS]
        reply = self.generator.complete(check_messages(question, text), max_tokens=1) if text else ""
        return not reply.strip().lower().startswith("no")


def check_messages(question: str, text: str) -> list[dict[str, str]]:  # all before "Text:" is the kept prefix
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": f"Text: {text}\n\nQuestion: {question}\n\nDoes the text answer the question?"}]
