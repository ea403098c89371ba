"""Query prompts that lost their measurements (docs/evaluation.md), kept for experiments.

They are registered into the core's table of query styles on import, so `desktop-app-cli eval --modes
fusion+query_style=names` (or the named variant `fusion-names`) can still run them; the app never uses them.

- "decompose": one short keyword query per fact or entity to look up.
- "enumerate": decompose, and also name each member of a group the question asks about.
- "names": the model lists by name what the answer is about.
- "named-facts": each name followed by the fact asked, one query per line.
- "name-fact": one "name: fact" line per name, each searched as the name alone and with its fact (the default
  until 2026-11-24; the default "shared-fact" writes a fact shared by several names once and finds as much).
"""

from __future__ import annotations

from ..core.retrieval.query_styles import NAMING_INSTRUCTIONS, SHARED_FACT_EXAMPLES, QueryStyle, register_query_style, split_name_facts, unfold_shared_facts

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
QUERY_SYSTEM_NAME_FACT = NAMING_INSTRUCTIONS + _NAME_FACT_FORMAT
QUERY_SYSTEM_NAMES = QUERY_SYSTEM_NAME_FACT.replace(_NAME_FACT_FORMAT, "Write only the names, one per line.")
QUERY_SYSTEM_NAMED_FACTS = QUERY_SYSTEM_NAME_FACT.replace(_NAME_FACT_FORMAT, "Write one line per name: the name, then the fact asked about it in a few words.")

# Made up, like the default's examples, so that they match no test, sample or benchmark question.
QUERY_EXAMPLES = (
    (
        "Which of the three lightest Kestrel drones flies longest, and how long does it take to charge?",
        "lightest Kestrel drones\nKestrel Nano flight time charging time\nKestrel Mini flight time charging time\n"
        "Kestrel Scout flight time charging time",
    ),
    ("How many players can join a game of Starfold Harbor?", "Starfold Harbor number of players\nStarfold Harbor game rules"),
)
ENUMERATE_EXAMPLE = (
    "Which grape varieties do the four estates of the Valdoria wine cooperative grow?",
    "Valdoria wine cooperative estates\nCasa Merla grape varieties\nPodere Ostra grape varieties\n"
    "Tenuta Ribe grape varieties\nVilla Corvo grape varieties",
)
# The default's made-up examples, one "name: fact" line per name.
NAME_FACT_EXAMPLES = tuple((q, unfold_shared_facts(a)) for q, a in SHARED_FACT_EXAMPLES)
# The same questions, answered in each style's own format.
NAMES_EXAMPLES = tuple((q, "\n".join(line.partition(":")[0] for line in a.splitlines())) for q, a in NAME_FACT_EXAMPLES)
NAMED_FACTS_EXAMPLES = tuple((q, a.replace(": ", " ")) for q, a in NAME_FACT_EXAMPLES)

RESEARCH_QUERY_STYLES = (
    register_query_style(QueryStyle("decompose", QUERY_SYSTEM, QUERY_EXAMPLES)),
    register_query_style(QueryStyle("enumerate", QUERY_SYSTEM_ENUMERATE, (ENUMERATE_EXAMPLE, *QUERY_EXAMPLES))),
    register_query_style(QueryStyle("names", QUERY_SYSTEM_NAMES, NAMES_EXAMPLES)),
    register_query_style(QueryStyle("named-facts", QUERY_SYSTEM_NAMED_FACTS, NAMED_FACTS_EXAMPLES)),
    register_query_style(QueryStyle("name-fact", QUERY_SYSTEM_NAME_FACT, NAME_FACT_EXAMPLES, postprocess=split_name_facts)),
)
