"""The prompts that ask the LLM for search queries: a small table of query styles, one entry per style.

Each style is its system message, its worked examples (question -> the reply we want), how the user's
question is put to the model, and how the parsed lines become queries. The app ships two:

- "shared-fact" (the default): the things the answer is about, by name, naming the members of a group the
  question only describes, then the fact asked about them, written once: "Kestrel Nano; Kestrel Mini: battery
  life". Each name is searched alone (which finds the document about it) and with the fact (which finds the
  passage that states it). It replaced "name-fact" (one "name: fact" line per name), which finds the same but
  writes the fact once per name: about a third more time writing queries (docs/evaluation.md).
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

DEFAULT_QUERY_STYLE = "shared-fact"


def question_line(question: str, n: int) -> str:
    return f"Question: {question}"


def keep_lines(lines: Sequence[str]) -> list[str]:
    return list(lines)


def unfold_shared_facts(raw: str) -> str:
    """"Kestrel Nano; Kestrel Mini: weight" -> one "name: fact" line per name, the form `split_name_facts` reads.

    A fact shared by several names is written once, after them, not once per name: fewer tokens for the
    model to write. A list cut before its colon (the model named more things than are searched) gives the
    names alone."""
    lines: list[str] = []
    for line in raw.splitlines():
        names, colon, fact = line.partition(":")
        if ";" not in names:
            lines.append(line)
        elif colon:
            lines.extend(f"{name.strip()}:{fact}" for name in names.split(";") if name.strip())
        else:
            lines.extend(name.strip() for name in names.split(";") if name.strip())
    return "\n".join(lines)


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
    unfold: Callable[[str], str] = str  # the model's text -> one query per line, before parsing
    item_ends: str = "\n"  # what ends one item of the model's list (the early stop counts items at these)
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
NAMING_INSTRUCTIONS = (
    "List the specific people, places, organisations or things that the answer to the question is about, by name. "
    "When the question describes them without naming them (the top five X, the past presidents, the members of Y), "
    "name the ones you believe they are. "
)
QUERY_SYSTEM_SHARED_FACT = NAMING_INSTRUCTIONS + (
    "Write the names separated by semicolons, a colon, then the fact asked about them in a few words. "
    "When different facts are asked about different names, write one such line per fact."
)

# Worked examples teach a small model the format better than instructions alone. They are made up (a drone
# range, a wine cooperative, a board game) so that they match no test, sample or benchmark question (the
# earlier ones asked about the PX-40 pump, the sample datasheet of the tests, and about capitals and founders
# much like the dev set): two groups described without names, whose members are named, and one single thing.
SHARED_FACT_EXAMPLES: tuple[Example, ...] = (
    ("How long does the battery last in the three lightest drones of the Kestrel range?", "Kestrel Nano; Kestrel Mini; Kestrel Scout: battery life"),
    (
        "Which grape varieties do the four estates of the Valdoria wine cooperative grow?",
        "Casa Merla; Podere Ostra; Tenuta Ribe; Villa Corvo: grape varieties",
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


# A list of names ends at each ";" too: the early stop cuts a list once enough names are written, even before
# its fact (the names are then searched alone).
register_query_style(
    QueryStyle("shared-fact", QUERY_SYSTEM_SHARED_FACT, SHARED_FACT_EXAMPLES, postprocess=split_name_facts, unfold=unfold_shared_facts, item_ends="\n;")
)
register_query_style(QueryStyle("naive", NAIVE_QUERY_SYSTEM, user_message=naive_request, one_line_per_thing=False))

