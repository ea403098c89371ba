"""No worked example in a query prompt may come from test, sample or benchmark data (issue 15).

An example copied from the data a test or benchmark asks about teaches the model that answer, and the
measurement then flatters the prompt.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from desktop_app.core.retrieval.query_styles import QUERY_STYLES
from desktop_app.evaluation import query_styles as research  # noqa: F401  (registers the research styles too)
from desktop_app.sample_datasheet import SAMPLE_PAGES

REPO = Path(__file__).resolve().parents[2]
BENCHMARKS = [REPO / ".cache" / name for name in ("devset", "faqset")]


def examples():
    return [(style, question, reply) for style in QUERY_STYLES for question, reply in QUERY_STYLES[style].examples]


def test_every_query_style_is_checked():
    assert {"shared-fact", "name-fact", "decompose", "enumerate", "names", "named-facts"} <= {style for style, _, _ in examples()}


def test_no_example_names_what_the_sample_datasheet_is_about():
    sample = " ".join(heading + " " + body for heading, body in SAMPLE_PAGES)
    codes = set(re.findall(r"\b[A-Z][A-Za-z]*-?\d+\b|\bNorrwave\b", sample))  # PX-40, SK-40, IP67, Norrwave ...
    assert {"PX-40", "SK-40", "Norrwave"} <= codes
    for style, question, reply in examples():
        for code in codes:
            assert code not in question + reply, (style, code)


def test_no_example_question_is_asked_by_a_test():
    test_text = "\n".join(p.read_text(encoding="utf-8") for p in (REPO / "tests").rglob("*.py") if p.name != Path(__file__).name)
    for style, question, _ in examples():
        assert question not in test_text, (style, question)


@pytest.mark.parametrize("folder", BENCHMARKS, ids=lambda p: p.name)
def test_no_example_comes_from_a_benchmark_set(folder):
    if not (folder / "queries.jsonl").is_file():
        pytest.skip(f"{folder} is not built (make eval builds it)")
    questions = {json.loads(line)["text"].lower() for line in (folder / "queries.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()}
    titles = {json.loads(line).get("title", "").lower() for line in (folder / "corpus.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()}
    for style, question, reply in examples():
        assert question.lower() not in questions, (style, question)
        for line in reply.splitlines():
            name = line.partition(":")[0].strip().lower()
            assert name not in titles, (style, name)  # the example names a thing the benchmark has an article about
