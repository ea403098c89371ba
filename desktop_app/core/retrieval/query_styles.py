"""The prompts that ask the LLM for search queries: a small table of query styles, one entry per style.

Each style is its system message, its worked examples (question -> the reply we want), how the user's
question is put to the model, and how the parsed lines become queries. The app ships two:

- "name-fact" (the default): one "name: fact" line per thing the answer is about, naming the members of a
  group the question only describes; each line is searched as the name alone (which finds the document about
  it) and as the name with its fact (which finds the passage that states it). Measured in docs/evaluation.md.
- "naive": the RAG-Fusion paper's prompt, for the naive-fusion mode.

The styles that lost their measurements live with the eval harness (desktop_app/evaluation/query_styles.py),
which registers them here so `eval --modes fusion+query_style=names` can still run them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..registry import Registry

Message = dict[str, str]
Example = tuple[str, str]  # (question, the reply we want)

DEFAULT_QUERY_STYLE = "name-fact"


def question_line(question: str, n: int) -> str:
    return f"Question: {question}"


def keep_lines(lines: Sequence[str]) -> list[str]:
    return list(lines)


def split_name_facts(lines: Sequence[str]) -> list[str]:
    """"Kestrel Nano: weight" -> "Kestrel Nano" and "Kestrel Nano weight": the name alone finds the document
    about it, the name with its fact finds the passage that states it."""
    out: list[str] = []
    for line in lines:
        name, colon, fact = line.partition(":")
        name, fact = name.strip(), fact.strip()
        for query in ((name, f"{name} {fact}") if colon and name and fact else (line.replace(":", " ").strip(),)):
            if query and query not in out:
                out.append(query)
    return out


@dataclass(frozen=True)
class QueryStyle:
    name: str
    system: str
    examples: tuple[Example, ...] = ()
    user_message: Callable[[str, int], str] = question_line  # (question, n) -> the last user turn
    postprocess: Callable[[Sequence[str]], list[str]] = keep_lines  # parsed lines -> the queries searched
    # True: a question naming more things than n_queries may get one line each, up to max_queries.
    one_line_per_thing: bool = True

    def messages(self, question: str, n: int) -> list[Message]:
        messages = [{"role": "system", "content": self.system}]
        for example_question, example_reply in self.examples:
            messages.append({"role": "user", "content": question_line(example_question, n)})
            messages.append({"role": "assistant", "content": example_reply})
        messages.append({"role": "user", "content": self.user_message(question, n)})
        return messages

    def line_limit(self, n_queries: int, max_queries: int) -> int:
        return max(n_queries, max_queries) if self.one_line_per_thing else n_queries


# Asked for *search queries*, a small model writes queries about the group a question describes ("largest car
# makers founders") and rarely names its members; asked to list by name what the answer is about, it names them.
QUERY_SYSTEM_NAME_FACT = (
    "List the specific people, places, organisations or things that the answer to the question is about, by name. "
    "When the question describes them without naming them (the top five X, the past presidents, the members of Y), "
    "name the ones you believe they are. "
    "Write one line per name: the name, a colon, then the fact asked about it in a few words."
)

# Worked examples teach a small model the format better than instructions alone. They are made up (a drone
# range, a wine cooperative, a board game) so that they match no test, sample or benchmark question (the
# earlier ones asked about the PX-40 pump, the sample datasheet of the tests, and about capitals and founders
# much like the dev set): two groups described without names, whose members are named, and one single thing.
NAME_FACT_EXAMPLES: tuple[Example, ...] = (
    (
        "How long does the battery last in the three lightest drones of the Kestrel range?",
        "Kestrel Nano: battery life\nKestrel Mini: battery life\nKestrel Scout: battery life",
    ),
    (
        "Which grape varieties do the four estates of the Valdoria wine cooperative grow?",
        "Casa Merla: grape varieties\nPodere Ostra: grape varieties\nTenuta Ribe: grape varieties\nVilla Corvo: grape varieties",
    ),
    ("How many players can join a game of Starfold Harbor?", "Starfold Harbor: number of players"),
)

# The RAG-Fusion paper's prompt (Raudaschl, 2023), kept for the naive-fusion comparison.
NAIVE_QUERY_SYSTEM = "You are a helpful assistant that generates multiple search queries based on a single input query."


def naive_request(question: str, n: int) -> str:
    return f"Generate multiple search queries related to: {question}\nOUTPUT ({n} queries):"


QUERY_STYLES: Registry[QueryStyle] = Registry("query style")  # the eval harness adds its research styles
register_query_style = QUERY_STYLES.add
query_style = QUERY_STYLES.__getitem__


def query_messages(question: str, n: int, style: str = DEFAULT_QUERY_STYLE) -> list[Message]:
    return query_style(style).messages(question, n)


register_query_style(QueryStyle("name-fact", QUERY_SYSTEM_NAME_FACT, NAME_FACT_EXAMPLES, postprocess=split_name_facts))
register_query_style(QueryStyle("naive", NAIVE_QUERY_SYSTEM, user_message=naive_request, one_line_per_thing=False))
