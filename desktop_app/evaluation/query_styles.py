"""Query prompts that lost their measurements (docs/evaluation.md), kept for experiments.

They are registered into the core's table of query styles on import, so `desktop-app-cli eval --modes
fusion+query_style=names` (or the named variant `fusion-names`) can still run them; the app never uses them.

- "decompose": one short keyword query per fact or entity to look up.
- "enumerate": decompose, and also name each member of a group the question asks about.
- "names": the model lists by name what the answer is about.
- "named-facts": each name followed by the fact asked, one query per line.
"""

from __future__ import annotations

from ..core.retrieval.query_styles import QUERY_SYSTEM_NAME_FACT, QueryStyle, register_query_style

QUERY_SYSTEM = (
    "You write search queries for a search engine over the user's documents. "
    "Split the question into the separate facts, entities or sub-questions that must be looked up, "
    "and write one short keyword query (2 to 8 words) for each: one query per person, place, thing or fact, "
    "naming it explicitly. Do not repeat or paraphrase the whole question. "
    "Write only the queries, one per line, with no numbering and no explanations."
)
QUERY_SYSTEM_ENUMERATE = QUERY_SYSTEM + (
    " When the question asks about a group (the largest, the first, the top five, every member of something), "
    "first write one query for the group, then one query naming each member you know, with the fact asked."
)
_NAME_FACT_FORMAT = "Write one line per name: the name, a colon, then the fact asked about it in a few words."
QUERY_SYSTEM_NAMES = QUERY_SYSTEM_NAME_FACT.replace(_NAME_FACT_FORMAT, "Write only the names, one per line.")
QUERY_SYSTEM_NAMED_FACTS = QUERY_SYSTEM_NAME_FACT.replace(_NAME_FACT_FORMAT, "Write one line per name: the name, then the fact asked about it in a few words.")

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
ENUMERATE_EXAMPLE = (
    "What are the capitals of the three most populous countries in Africa?",
    "most populous countries in Africa\nNigeria capital city\nEthiopia capital city\nEgypt capital city",
)
NAMES_EXAMPLES = (
    ("What are the capitals of the three most populous countries in Africa?", "Nigeria\nEthiopia\nEgypt"),
    ("Who founded the four largest car makers in Japan?", "Toyota\nHonda\nNissan\nSuzuki"),
    ("How often should the filter of the PX-40 pump be replaced?", "PX-40 pump"),
)
NAMED_FACTS_EXAMPLES = (
    ("What are the capitals of the three most populous countries in Africa?", "Nigeria capital\nEthiopia capital\nEgypt capital"),
    ("Who founded the four largest car makers in Japan?", "Toyota founder\nHonda founder\nNissan founder\nSuzuki founder"),
    ("How often should the filter of the PX-40 pump be replaced?", "PX-40 pump filter replacement interval"),
)

RESEARCH_QUERY_STYLES = (
    register_query_style(QueryStyle("decompose", QUERY_SYSTEM, QUERY_EXAMPLES)),
    register_query_style(QueryStyle("enumerate", QUERY_SYSTEM_ENUMERATE, (ENUMERATE_EXAMPLE, *QUERY_EXAMPLES))),
    register_query_style(QueryStyle("names", QUERY_SYSTEM_NAMES, NAMES_EXAMPLES)),
    register_query_style(QueryStyle("named-facts", QUERY_SYSTEM_NAMED_FACTS, NAMED_FACTS_EXAMPLES)),
)
