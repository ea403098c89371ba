"""Does what the answer rests on answer the question? The local model, asked yes or no, once per answer.

grounding.py cannot see a claim that copies a passage faithfully but answers another question (a region's
population for the country's, a measure's definition for its value). The multilingual model can, shown only the
sentences the grounded claims rest on (each after its document's title, so "It has ..." keeps its subject) and the
question. One short call after the answer streamed: no delay before the first token. Only a plain "no" refuses.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..models.llm import Generator

SYSTEM = "You check whether a text answers a question. Reply yes or no only."
MAX_STATEMENTS = 3  # the sentences of the first grounded claims: enough for an answer, short enough to read fast
MAX_CHARS = 1200  # a very long sentence (a table row read as one) is cut: the check must stay a small share of the answer


class QuestionCheck:
    def __init__(self, generator: Generator):
        self.generator = generator

    def answers(self, question: str, statements: Sequence[str]) -> bool:
        """False only when the model says the statements do not answer the question."""
        text = " ".join(" ".join(s.split()) for s in statements[:MAX_STATEMENTS])[:MAX_CHARS]
        asked = f"Text: {text}\n\nQuestion: {question}\n\nDoes the text answer the question?"
        reply = self.generator.complete([{"role": "system", "content": SYSTEM}, {"role": "user", "content": asked}], max_tokens=2) if text else ""
        return not reply.strip().lower().startswith("no")
