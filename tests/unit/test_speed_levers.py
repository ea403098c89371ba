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


def test_pipeline_stops_generating_queries_once_enough_are_written():
    generator = ScriptedGenerator(["pump flow rate\nmaximum pressure\nmotor power\nimpeller size\nmore\nand more\nand more text\n"])
    pipeline = Pipeline(None, None, None, lambda: generator, Settings(n_queries=2, max_queries=3))
    assert pipeline.generate_queries("What flow does the pump reach?").queries == ("pump flow rate", "maximum pressure", "motor power")
    assert generator.prompts[0][0]["content"] == prompts.query_messages("x", 2, "name-fact")[0]["content"]


def test_citation_style_numbering_is_stripped_from_queries():
    # Models that saw citation instructions number their queries like citations.
    from desktop_app.core.retrieval.query_parsing import parse_queries

    raw = "[1] r package install from local source tarball\n[2] R CMD INSTALL\n"
    assert parse_queries(raw, "How do I install a package?", 4) == ["r package install from local source tarball", "R CMD INSTALL"]
