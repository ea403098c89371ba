"""Does what the answer rests on answer the question? The local model, asked yes or no, once per answer.

grounding.py cannot see a claim that copies a passage faithfully but answers another question (a region's
population for the country's, a measure's definition for its value). The multilingual model can, shown only the
sentence the answer's first grounded claim rests on (after its document's title, so "It has ..." keeps its subject)
and the question. One short call after the answer streamed: no delay before the first token, about 0.6-0.9 s on two
cores (the sentence and the question are read). Only a plain "no" counts, and it flags the claim's citations: it
does not refuse the answer (the model says no to some right answers too).
"""

from __future__ import annotations

from ..models.llm import Generator

SYSTEM = "You check whether a text answers a question. Reply yes or no only."
MAX_CHARS = 400  # a very long sentence (a table row read as one) is cut: the check must stay a small share of the answer


class QuestionCheck:
    def __init__(self, generator: Generator):
        self.generator = generator

    def answers(self, question: str, statement: str) -> bool:
        """False only when the model says the statement does not answer the question."""
        text = " ".join(statement.split())[:MAX_CHARS]
        asked = f"Text: {text}\n\nQuestion: {question}\n\nDoes the text answer the question?"
        reply = self.generator.complete([{"role": "system", "content": SYSTEM}, {"role": "user", "content": asked}], max_tokens=1) if text else ""
        return not reply.strip().lower().startswith("no")
