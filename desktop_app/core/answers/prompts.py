"""The prompts the LLM sees. Fixed instructions come first so llama.cpp can reuse their KV cache."""

from __future__ import annotations

from collections.abc import Sequence

from ..types import Source

NOT_FOUND_MARK = "NOT FOUND"

QUERY_SYSTEM = (
    "You write search queries for a search engine over the user's documents. "
    "Split the question into the separate facts, entities or sub-questions that must be looked up, "
    "and write one short keyword query (2 to 8 words) for each: one query per person, place, thing or fact, "
    "naming it explicitly. Do not repeat or paraphrase the whole question. "
    "Write only the queries, one per line, with no numbering and no explanations."
)

# "enumerate": also name the members of a group the question asks about, when the model knows them,
# so each member's own document is searched ("the five most populous countries" -> China, India, ...).
QUERY_SYSTEM_ENUMERATE = QUERY_SYSTEM + (
    " When the question asks about a group (the largest, the first, the top five, every member of something), "
    "first write one query for the group, then one query naming each member you know, with the fact asked."
)
# "names": the model lists by name what the answer is about, and each name is searched. Asked this way a small
# model names the members of a described group ("the past five presidents") far more often than when asked for
# search queries, which it writes about the group instead (issue 4).
QUERY_SYSTEM_NAMES = (
    "List the specific people, places, organisations or things that the answer to the question is about, by name. "
    "When the question describes them without naming them (the top five X, the past presidents, the members of Y), "
    "name the ones you believe they are. Write only the names, one per line."
)
NAMES_EXAMPLES = (
    ("What are the capitals of the three most populous countries in Africa?", "Nigeria\nEthiopia\nEgypt"),
    ("Who founded the four largest car makers in Japan?", "Toyota\nHonda\nNissan\nSuzuki"),
    ("How often should the filter of the PX-40 pump be replaced?", "PX-40 pump"),
)
# "named-facts": the same, each name followed by the fact asked about it.
NAMED_FACTS_EXAMPLES = (
    ("What are the capitals of the three most populous countries in Africa?", "Nigeria capital\nEthiopia capital\nEgypt capital"),
    ("Who founded the four largest car makers in Japan?", "Toyota founder\nHonda founder\nNissan founder\nSuzuki founder"),
    ("How often should the filter of the PX-40 pump be replaced?", "PX-40 pump filter replacement interval"),
)
# "name-fact": one line per name, "name: fact"; the pipeline searches both the name alone and the name with its fact.
NAME_FACT_EXAMPLES = (
    ("What are the capitals of the three most populous countries in Africa?", "Nigeria: capital\nEthiopia: capital\nEgypt: capital"),
    ("Who founded the four largest car makers in Japan?", "Toyota: founder\nHonda: founder\nNissan: founder\nSuzuki: founder"),
    ("How often should the filter of the PX-40 pump be replaced?", "PX-40 pump: filter replacement interval"),
)
QUERY_SYSTEM_NAME_FACT = QUERY_SYSTEM_NAMES.replace(
    "Write only the names, one per line.", "Write one line per name: the name, a colon, then the fact asked about it in a few words."
)
QUERY_SYSTEM_NAMED_FACTS = QUERY_SYSTEM_NAMES.replace(
    "Write only the names, one per line.", "Write one line per name: the name, then the fact asked about it in a few words."
)
ENUMERATE_EXAMPLE = (
    "What are the capitals of the three most populous countries in Africa?",
    "most populous countries in Africa\nNigeria capital city\nEthiopia capital city\nEgypt capital city",
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


# Worked examples teach a small model the format and the split better than instructions alone.
# They are deliberately outside any test domain: one multi-part question, one single-fact question.
QUERY_EXAMPLES = (
    (
        "Which of the three largest cities in Canada has the oldest university, and when was it founded?",
        "largest cities in Canada\nToronto oldest university founded\nMontreal oldest university founded\nVancouver oldest university founded",
    ),
    (
        "How often should the filter of the PX-40 pump be replaced?",
        "PX-40 pump filter replacement interval\nPX-40 maintenance schedule",
    ),
)

# The RAG-Fusion paper's prompt (Raudaschl, 2023), kept for the naive-fusion comparison.
NAIVE_QUERY_SYSTEM = "You are a helpful assistant that generates multiple search queries based on a single input query."


def query_messages(question: str, n: int, style: str = "decompose") -> list[dict[str, str]]:
    if style == "naive":
        return [
            {"role": "system", "content": NAIVE_QUERY_SYSTEM},
            {"role": "user", "content": f"Generate multiple search queries related to: {question}\nOUTPUT ({n} queries):"},
        ]
    system = {"enumerate": QUERY_SYSTEM_ENUMERATE, "names": QUERY_SYSTEM_NAMES, "named-facts": QUERY_SYSTEM_NAMED_FACTS, "name-fact": QUERY_SYSTEM_NAME_FACT}.get(style, QUERY_SYSTEM)
    examples = {
        "enumerate": (ENUMERATE_EXAMPLE, *QUERY_EXAMPLES),
        "names": NAMES_EXAMPLES,
        "named-facts": NAMED_FACTS_EXAMPLES,
        "name-fact": NAME_FACT_EXAMPLES,
    }.get(style, QUERY_EXAMPLES)
    messages = [{"role": "system", "content": system}]
    for example_question, example_queries in examples:
        messages.append({"role": "user", "content": f"Question: {example_question}"})
        messages.append({"role": "assistant", "content": example_queries})
    messages.append({"role": "user", "content": f"Question: {question}"})
    return messages


def answer_system(general_knowledge: bool = False) -> str:
    return ANSWER_SYSTEM_GENERAL if general_knowledge else ANSWER_SYSTEM


def passage_header(source_number: int, source: Source) -> str:
    from pathlib import Path

    # No page number here: small models then cite "[3]" for "page 3" instead of the passage number.
    what = "table from" if source.passage.kind == "table" else "from"
    return f"[{source_number}] ({what} {Path(source.passage.file).name})"


def answer_messages(question: str, context: Sequence[Source], general_knowledge: bool = False) -> list[dict[str, str]]:
    blocks = []
    for number, source in enumerate(context, start=1):
        # A Markdown table keeps its line breaks: one row per line is how the model reads which value is whose.
        text = source.passage.text if source.passage.kind == "table" else " ".join(source.passage.text.split())
        blocks.append(f"{passage_header(number, source)}\n{text}")
    passages = "\n\n".join(blocks)
    return [
        {"role": "system", "content": answer_system(general_knowledge)},
        # The reminder comes last: small models follow the most recent instruction best.
        {"role": "user", "content": f"Passages:\n\n{passages}\n\nQuestion: {question}\n\nAnswer the question in a full sentence, citing the passages like [1]."},
    ]
