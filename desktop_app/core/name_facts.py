"""Name-fact queries, read back: the query step searches each named thing alone and with its fact ("Tarrow Works" and
"Tarrow Works founder", retrieval/query_styles.split_name_facts). Retrieval reads the names from them (which things a
list answer has a line for) and the answer check reads each name's fact (the line's own question); both read them here,
so the format is read in one place."""

from __future__ import annotations

from collections.abc import Sequence


def extends(query: str, name: str) -> bool:
    """The query is the name with its fact ("Tarrow Works founder" extends "Tarrow Works"), compared regardless of case."""
    return bool(name) and query.lower().startswith(name.lower() + " ")


def most(count: int) -> int:
    """How many of a name's own words (those the question does not state) a passage holds to name it: more than half, so
    "Tarrow Works Ltd" is named where "Tarrow Works" is (retrieval/evidence.mentions and on_question.invented_names)."""
    return count // 2 + 1


def names_of(queries: Sequence[str]) -> list[str]:
    """The names of name-fact queries: a query that another query extends ("Tarrow Works" and "Tarrow Works founder").

    split_name_facts writes each "name: fact" line as the name alone and the name with its fact;
    other query styles (paraphrases) rarely produce such pairs, so they name nothing and answers stay prose."""
    return [q for q in queries if any(extends(o, q) for o in queries)]


def fact_of(name: str, queries: Sequence[str]) -> str:
    """The fact a name-fact query asks about `name` ("Tarrow Works founder" -> "founder"), or "": names_of's inverse."""
    return next((q[len(name) :].strip() for q in queries if extends(q, name)), "")
