"""The speed levers (issue 5) keep behaviour: fewer tokens, same queries."""

from __future__ import annotations

from desktop_app.core.pipeline import Pipeline
from desktop_app.core.retrieval import query_styles as prompts
from desktop_app.core.retrieval.query_writing import read_queries
from desktop_app.core.settings import Settings
from tests.fakes import ScriptedGenerator


class CountingStream:
    """A token stream that records how many pieces were taken and whether it was closed."""

    def __init__(self, pieces):
        self._pieces = iter(pieces)
        self.taken = 0
        self.closed = False

    def __iter__(self):
        return self

    def __next__(self):
        piece = next(self._pieces)
        self.taken += 1
        return piece

    def close(self):
        self.closed = True


def test_query_reading_stops_once_enough_queries_are_complete():
    stream = CountingStream(["install", " package\n", "local tarball\n", "R CMD INSTALL\n", "Explanation:", " these queries ..."])
    raw = read_queries(stream, "How do I install a package?", 3)
    assert raw.splitlines() == ["install package", "local tarball", "R CMD INSTALL"]
    assert stream.taken == 4  # the explanation was never generated
    assert stream.closed


def test_query_reading_keeps_everything_when_the_model_writes_too_few():
    stream = CountingStream(["one query\n", "Here are the queries:\n", "two"])
    assert read_queries(stream, "question?", 3) == "one query\nHere are the queries:\ntwo"
    assert stream.closed


class MentionsEverything:
    """A library whose text mentions every word: no generated query is an echo of the prompt's examples."""

    def mentioned_words(self, words):
        return set(words)

    def holds_together(self, words, least, anchors=()):
        return True


def test_pipeline_stops_generating_queries_once_enough_are_written():
    reply = "pump flow rate\nmaximum pressure\nmotor power\nimpeller size\nmore\nand more\nand more text\n"
    generator = ScriptedGenerator([reply])
    pipeline = Pipeline(MentionsEverything(), None, None, lambda: generator, Settings(n_queries=2, max_queries=3))
    assert pipeline.generate_queries("What flow does the pump reach?").queries == ("pump flow rate", "maximum pressure", "motor power")
    # The model was stopped after the third query: the rest of its reply was never generated.
    assert 0 < generator.pieces_sent < len(reply.split())
    assert generator.prompts[0][0]["content"] == prompts.query_messages("x", 2, "shared-fact")[0]["content"]


def test_a_fact_shared_by_several_names_is_written_once_and_searched_with_each_name():
    generator = ScriptedGenerator(["Kestrel Nano; Kestrel Mini; Kestrel Scout: battery life"])
    pipeline = Pipeline(MentionsEverything(), None, None, lambda: generator, Settings())
    assert pipeline.generate_queries("How long do the three lightest Kestrel drones fly?").queries == (
        "Kestrel Nano", "Kestrel Nano battery life", "Kestrel Mini", "Kestrel Mini battery life", "Kestrel Scout", "Kestrel Scout battery life",
    )  # fmt: skip


def test_a_list_of_more_names_than_are_searched_is_cut_at_the_last_name_searched():
    # Asked about "the original states", a small model lists thirteen names before it writes the fact.
    names = [f"State {letter}" for letter in "ABCDEFGHIJKLM"]
    generator = ScriptedGenerator(["; ".join(names) + ": capital"])
    pipeline = Pipeline(MentionsEverything(), None, None, lambda: generator, Settings(max_queries=5))
    assert pipeline.generate_queries("What are the capitals of the original states?").queries == tuple(names[:5])  # searched alone
    assert generator.pieces_sent < 2 * 7  # stopped at the sixth name: the rest was never generated


def test_citation_style_numbering_is_stripped_from_queries():
    # Models that saw citation instructions number their queries like citations.
    from desktop_app.core.retrieval.query_parsing import parse_queries

    raw = "[1] r package install from local source tarball\n[2] R CMD INSTALL\n"
    assert parse_queries(raw, "How do I install a package?", 4) == ["r package install from local source tarball", "R CMD INSTALL"]
