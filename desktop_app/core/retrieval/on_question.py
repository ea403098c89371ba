"""Generated queries that stay on the question.

- Echoes of the prompt's worked examples are dropped. A small model sometimes copies a made-up name from the
  query prompt's examples (a drone range, a wine cooperative) into its queries for an unrelated question. A query
  holding a word of those names that neither the question nor the library mentions searches for the example,
  not for the question. A name the library does mention is kept: a person may own a document about it.
- A thing the model names that no passage names is dropped with its fact ("Quillon Office" and "Quillon Office save
  plot" for a question about saving a plot, over manuals that never name it). The named-things format makes a small
  model name something even for a question about none: a product, a distribution, an edition. Keyword search finds no
  word of such a name; meaning search, whatever is nearest to it; and as a name it would get a line of a list answer.
  A passage names it when it holds most of the name's own words (those the question does not state), and one of its
  others if it has any, as evidence.py's `mentions` reads a list line's name: "Tarrow Works Ltd" where a page says
  "Tarrow Works"; not "Adobe Acrobat" where one page says "Adobe" of a font, nor "SAS Cloud Edition" asked about SAS
  where a list of references says "Cloud ... Edition". A name whose words all are the question's is the person's, kept.
- A query that says nothing (a single letter, or a number the question does not state) is dropped too.
- A query naming one of the question's terms in other spelling ("ASN.1 DER Coding" for "asn1_der_coding", "Foo Bar" for
  "FooBar") names it as the question spells it: a function, file or option is written one way in a manual, and keyword
  search finds that spelling as one phrase, not its words scattered over every page about the topic.
- A question left with no usable query (the model wrote none, failed, or wrote only echoes) is searched by its own
  key terms too: its content words, stop words out, as one more query beside the whole question.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Sequence
from functools import cache

from ..name_facts import extends, most, names_of
from ..storage.chunks import content_words
from .query_parsing import normalize
from .query_styles import QueryStyle, query_style
from .query_writing import NO_QUERIES, GeneratedQueries

# words -> those of them the library's text holds (Store.mentioned_words)
Mentioned = Callable[[Iterable[str]], set[str]]
# (words, least, anchors) -> some passage holds at least `least` of the words and one of the anchors (Store.holds_together)
HeldTogether = Callable[[Sequence[str], int, Sequence[str]], bool]
KEY_TERMS = "searched the question and its key terms"
# A name's own words read by invented_names, at most: the index is asked once per choice of most of them (15 at 6 words);
# a name written as a long phrase is read by its first words.
NAME_WORDS = 6
QUESTION_ALONE = "searched the question alone"


def with_translations(notice: str | None, languages: Sequence[str]) -> str | None:
    """A fallback notice that also names the question's translations (languages' English names), searched besides:
    "searched the question alone" above a list of queries in Russian and Spanish read as a contradiction."""
    if not notice or not languages:
        return notice
    also = f"in {' and '.join(languages)}"
    return notice.replace(QUESTION_ALONE, f"searched the question, also {also}").replace(KEY_TERMS, f"{KEY_TERMS}, and the question {also}")


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.casefold())


@cache
def example_name_words(style: QueryStyle) -> frozenset[str]:
    """The words of the made-up names in a style's worked examples: every name a reply lists before its colon,
    and the capitalised words of each example question after its first word (the group it names)."""
    words: set[str] = set()
    for question, reply in style.examples:
        for line in reply.splitlines():
            names = line.partition(":")[0]
            words.update(w for name in names.split(";") for w in _words(name))
        words.update(w.casefold() for w in re.findall(r"\w+", question)[1:] if w[:1].isupper())
    return frozenset(words)


def example_echoes(queries: Sequence[str], question: str, styles: Sequence[str], mentioned: Mentioned) -> set[str]:
    """The queries that name something from the styles' worked examples that neither the question nor the library mentions."""
    examples = frozenset().union(*(example_name_words(query_style(s)) for s in styles))
    asked = set(_words(question))
    suspects = {q: {w for w in _words(q) if w in examples and w not in asked} for q in queries}
    unknown = set().union(*suspects.values())
    if not unknown:
        return set()
    unknown -= mentioned(unknown)
    return {q for q, words in suspects.items() if words & unknown}


def invented_names(queries: Sequence[str], question: str, together: HeldTogether) -> set[str]:
    """The name-fact queries (a name alone, and the name with its fact) of things no passage names (evidence.mentions): none
    holds most of the name's own content words (those the question does not state) with one of its others, if it has any."""
    asked = set(content_words(question))
    invented = []
    for name in names_of(queries):
        words = content_words(name)
        own, anchors = [w for w in words if w not in asked][:NAME_WORDS], [w for w in words if w in asked]
        if own and not together(own, most(len(own)), anchors):
            invented.append(name)
    return {q for q in queries if any(q == name or extends(q, name) for name in invented)}


def key_terms(question: str) -> str:
    """The question's content words (stop words out), or "" when they say nothing the question does not."""
    terms = " ".join(content_words(question))
    return terms if terms and normalize(terms) != normalize(question) else ""


def says_nothing(query: str, question: str) -> bool:
    """A query with nothing to search by: no content word (a single letter, "R"), or only numbers the question does not
    state ("10"). Keyword search finds no word of it or every passage holding a number; meaning search, whatever is
    nearest to a letter or a figure. A name alone of the shared-fact format ("R; CSV: reading files") can be one."""
    words = content_words(query)
    return all(w.isdigit() and w not in _words(question) for w in words)


def _squashed(text: str) -> str:  # letters and digits only: the spellings of a term compared
    return "".join(re.findall(r"[^\W_]", text.casefold()))


def in_question_spelling(query: str, question: str) -> str:
    """The query with each run of two or more of its words that spells a term of the question otherwise written as that term
    ("ASN.1 DER Coding difference" -> "asn1_der_coding difference"); the query itself when none does."""
    terms = {_squashed(t): t for t in (w.strip("\"'()[]{}<>,;:?!.\u201c\u201d") for w in question.split()) if _squashed(t)}
    words = list(re.finditer(r"\S+", query))
    for first in range(len(words)) if terms else ():
        for last in range(len(words) - 1, first, -1):
            run = query[words[first].start() : words[last].end()]
            if (term := terms.get(_squashed(run))) and run != term:
                return in_question_spelling(query[: words[first].start()] + term + query[words[last].end() :], question)
    return query


def stay_on_question(generated: GeneratedQueries, question: str, styles: Sequence[str], mentioned: Mentioned, together: HeldTogether) -> GeneratedQueries:
    """`generated` without echoes of the prompt's examples, things the library cannot be about nor queries saying nothing,
    the question's terms as it spells them; with no query left, the question's key terms."""
    unusable = example_echoes(generated.queries, question, styles, mentioned) | invented_names(generated.queries, question, together)
    unusable |= {q for q in generated.queries if says_nothing(q, question)}
    queries = tuple(dict.fromkeys(in_question_spelling(q, question) for q in generated.queries if q not in unusable))
    dropped = (*generated.dropped, *(q for q in generated.queries if q in unusable))
    notice = generated.notice
    if not queries:
        terms = key_terms(question)
        queries = (terms,) if terms else ()
        if terms:  # the notice keeps its opening phrase, which the eval counts by (query_writing.fallback_reason)
            notice = (notice or f"{NO_QUERIES}; {QUESTION_ALONE}.").replace(QUESTION_ALONE, KEY_TERMS)
    return dataclasses.replace(generated, queries=queries, dropped=dropped, notice=notice)
