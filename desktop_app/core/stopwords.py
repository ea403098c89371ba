"""The English function words every word match in the app skips: they say how a sentence is built, not what it is about.

Each use adds its own words to this base: keyword queries (storage/chunks.py) also skip the verbs of a
request ("tell", "list"), the grounding check (answers/grounding.py) uses them as they are, evidence selection (retrieval/evidence.py) pronouns and small number words.
"""

from __future__ import annotations

FUNCTION_WORDS = frozenset(
    "a about all also an and any are as at be been by can could did do does for from how in into is it its of on or "
    "should so some such than that the their them then there these they this those to was we were what when where "
    "which who will with would you your".split()
)
