"""The speed levers (issue 5) keep behaviour: fewer tokens and shared prompt prefixes, same answers."""

from __future__ import annotations

import pytest

from desktop_app.core import extraction, prompts
from desktop_app.core.pipeline import Pipeline, read_queries
from desktop_app.core.samples import write_sample_datasheet
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


@pytest.mark.parametrize("general_knowledge", [False, True])
def test_query_prompt_starts_with_the_answer_prompt_so_the_kv_cache_is_shared(general_knowledge):
    query = prompts.query_messages("Why?", 4, system=prompts.answer_system(general_knowledge))
    answer = prompts.answer_messages("Why?", [], general_knowledge)
    assert query[0] == answer[0]
    assert prompts.QUERY_SYSTEM in query[1]["content"] and "Why?" in query[1]["content"]


def test_pipeline_generates_queries_with_the_shared_system_prompt_and_stops_early(tmp_path):
    generator = ScriptedGenerator(["pump flow rate\nmaximum pressure\nmotor power\nimpeller size\nand more text here\n"])
    pipeline = Pipeline(None, None, None, lambda: generator, Settings(n_queries=2, share_system_prompt=True))
    generated = pipeline.generate_queries("What flow does the pump reach?")
    assert generated.queries == ("pump flow rate", "maximum pressure")
    assert generator.prompts[0][0]["content"] == prompts.ANSWER_SYSTEM


def test_pipeline_keeps_the_separate_query_prompt_by_default():
    generator = ScriptedGenerator(["pump flow rate\n"])
    pipeline = Pipeline(None, None, None, lambda: generator, Settings(n_queries=2, query_early_stop=False))
    assert pipeline.generate_queries("What flow does the pump reach?").queries == ("pump flow rate",)
    assert generator.prompts[0][0]["content"] == prompts.QUERY_SYSTEM


@pytest.mark.parametrize("pages,parts", [(1, 4), (10, 3), (2415, 2), (7, 7)])
def test_page_ranges_cover_every_page_once_in_order(pages, parts):
    ranges = extraction.page_ranges(pages, parts)
    covered = [i for start, stop in ranges for i in range(start, stop)]
    assert covered == list(range(pages))
    assert len(ranges) <= parts


def test_parallel_extraction_reads_the_same_text_as_one_process(tmp_path, monkeypatch):
    pdf = write_sample_datasheet(tmp_path / "pump.pdf")
    alone = extraction.extract(pdf)
    monkeypatch.setattr(extraction, "PARALLEL_MIN_PAGES", 1)
    parallel = extraction.extract(pdf, workers=2)
    assert [p.text for p in parallel.pages] == [p.text for p in alone.pages]
    assert parallel.page_count == alone.page_count


def test_citation_style_numbering_is_stripped_from_queries():
    # With the answer's system prompt shared, the model numbers its queries like citations.
    from desktop_app.core.query_parsing import parse_queries

    raw = "[1] r package install from local source tarball\n[2] R CMD INSTALL\n"
    assert parse_queries(raw, "How do I install a package?", 4) == ["r package install from local source tarball", "R CMD INSTALL"]
