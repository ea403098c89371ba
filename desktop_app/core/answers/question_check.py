"""Does what the answer rests on answer the question? The local model, asked yes or no, once per answer.

grounding.py cannot see a claim that copies a passage faithfully but answers another question (a region's population
for the country's). The model can, shown the sentence the first grounded claim rests on (after its document's title,
so "It has ..." keeps its subject) and the question, after the answer streamed; its prompt's fixed start stays read.
One signal, the odds of "no" over "no" or "yes", two thresholds; a backend giving no odds is read as a reply.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from ..models.llm import Generator

SYSTEM = "You check whether a text answers a question. Reply yes or no: does the text answer the question?"
MAX_CHARS = 400  # a very long sentence (a table row read as one) is cut: the check must stay a small share of the answer
REFUSE_ABOVE, FLAG_ABOVE = 0.75, 0.5  # on the tune halves right answers stayed under 0.23 (docs/grounding.md)
Doubt = enum.Enum("Doubt", "NONE SOME SURE")  # SOME flags the claim's citations, SURE refuses the answer


@dataclass(frozen=True)
class QuestionCheck:
    generator: Generator
    refuse_when_sure: bool = False

    def doubt(self, question: str, statement: str) -> Doubt:
        messages = check_messages(question, " ".join(statement.split())[:MAX_CHARS])
        odds = getattr(self.generator, "reply_odds", lambda *_: None)(messages, ("yes", "no"))
        if odds and odds["yes"] + odds["no"] > 0:
            no = odds["no"] / (odds["yes"] + odds["no"])
            return Doubt.SURE if no > REFUSE_ABOVE and self.refuse_when_sure else Doubt.SOME if no > FLAG_ABOVE else Doubt.NONE
        return Doubt.SOME if self.generator.complete(messages, max_tokens=1).strip().lower().startswith("no") else Doubt.NONE


def check_messages(question: str, text: str) -> list[dict[str, str]]:  # all before "Text:" is the kept prefix
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": f"Text: {text}\n\nQuestion: {question}"}]
