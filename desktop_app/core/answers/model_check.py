"""Two yes/no questions to the local model about an answer, read from its odds of "no" over "no" or "yes":
- `doubt`: does the sentence a grounded claim rests on (after its document's title: "It has ..." keeps its subject)
  answer the question, after worked examples? grounding.py cannot see a faithful copy answering another question (a
  region's population for the country's); review.py asks of the first claims until one answers;
- `states`: does the cited sentence say what a claim the words fail (grounding.py) says, in other words, in any
  language the model reads ("X is headed by Y" states "Y is in charge of X")?
The prompts' fixed starts stay read. A backend giving no odds is read as a one-token reply."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from ..models.llm import Generator

SYSTEM = "You check whether a text answers a question. Reply yes or no: does the text answer the question?"
CLAIM_SYSTEM = "You check whether a text states a claim. Reply yes or no: does the text say what the claim says?"
MAX_CHARS = 400  # a very long sentence (a table row read as one) is cut: the check must stay a small share of the answer
REFUSE_ABOVE, FLAG_ABOVE = 0.6, 0.5  # five tune halves' 153 right answers stayed under 0.54, many near misses just above (docs/grounding.md)
# The question check's worked examples, made up, about relations no measuring set asks: the thing asked's fact (in
# other words too) answers; another thing's fact, or a definition where a value is asked, does not. In the kept
# prefix, so free per check; they make the 1.5B model say no to more near misses (docs/grounding.md, sixth session).
EXAMPLES = (
    ("Harbour Museum of Lenvik: The museum opens at 10 a.m. from Tuesday to Sunday.", "What time does the Harbour Museum of Lenvik open?", "yes"),
    ("Lenvik: The old lighthouse north of the town opens to visitors at 9 a.m.", "What time does the Harbour Museum of Lenvik open?", "no"),
    ("Brightwater Dam: Water held behind the dam covers 12 square kilometres.", "How large is the reservoir of the Brightwater Dam?", "yes"),
    ("Orm crossing: The ferry Aster carries 120 cars on each trip across the sound.", "How many cars does the ferry Linnea carry?", "no"),
    ("Kesselsee: Der Wanderweg am Kesselsee ist 14 Kilometer lang und führt um den ganzen See.", "Wie lang ist der Wanderweg am Kesselsee?", "yes"),
    ("Orsa valley: Annual rainfall is the total depth of rain that falls in a year, measured in millimetres.", "What is the annual rainfall of the Orsa valley?", "no"),
)
STATED_BELOW = 0.5  # a claim is stated when "no" is the less likely reply
Doubt = enum.Enum("Doubt", "NONE SOME SURE")  # SOME flags the claim's citations, SURE refuses the answer


@dataclass(frozen=True)
class ModelCheck:
    generator: Generator
    refuse_when_sure: bool = False
    asks_question: bool = True  # Settings.question_check
    rereads_claims: bool = True  # Settings.claim_check

    def doubt(self, question: str, statement: str) -> Doubt:
        if not self.asks_question:
            return Doubt.NONE
        no, odds = self._no(check_messages(question, " ".join(statement.split())[:MAX_CHARS]))
        return Doubt.SURE if odds and no > REFUSE_ABOVE and self.refuse_when_sure else Doubt.SOME if no > FLAG_ABOVE else Doubt.NONE

    def states(self, claim: str, text: str) -> bool:
        return self.rereads_claims and self._no(claim_messages(claim, " ".join(text.split())[: 2 * MAX_CHARS]))[0] < STATED_BELOW

    def _no(self, messages: list[dict[str, str]]) -> tuple[float, bool]:  # and whether they are odds: a reply's "no" is not sure
        odds = getattr(self.generator, "reply_odds", lambda *_: None)(messages, ("yes", "no"))
        if odds and odds["yes"] + odds["no"] > 0:
            return odds["no"] / (odds["yes"] + odds["no"]), True
        return float(self.generator.complete(messages, max_tokens=1).strip().lower().startswith("no")), False


def check_messages(question: str, text: str) -> list[dict[str, str]]:  # all before the last "Text:" is the kept prefix
    shown = [({"role": "user", "content": f"Text: {t}\n\nQuestion: {q}"}, {"role": "assistant", "content": a}) for t, q, a in EXAMPLES]
    return [{"role": "system", "content": SYSTEM}, *(m for pair in shown for m in pair), {"role": "user", "content": f"Text: {text}\n\nQuestion: {question}"}]


def claim_messages(claim: str, text: str) -> list[dict[str, str]]:
    return [{"role": "system", "content": CLAIM_SYSTEM}, {"role": "user", "content": f"Text: {text}\n\nClaim: {claim}"}]
