"""Query generation falls back to the question and its key terms only for model failures, and the eval counts it (issues 15, 34)."""

from __future__ import annotations

import pytest

from desktop_app.core.errors import ModelError
from desktop_app.core.events import QueriesGenerated
from desktop_app.core.pipeline import Pipeline
from desktop_app.evaluation import harness as evaluation
from desktop_app.sample_datasheet import write_sample_datasheet
from tests.fakes import ScriptedGenerator


class FailingQueries(ScriptedGenerator):
    """Raises `error` when asked for search queries (the first call); answers normally after that."""

    def __init__(self, error: Exception):
        super().__init__()
        self.error = error

    def stream(self, messages, max_tokens, temperature=0.0, stop=()):
        if not self.prompts:
            self.prompts.append(list(messages))
            raise self.error
        return super().stream(messages, max_tokens, temperature, stop)


@pytest.fixture
def library(empty_library, tmp_path):
    list(empty_library.import_paths([write_sample_datasheet(tmp_path / "px40.pdf")]))
    return empty_library


def pipeline_with(library, generator):
    return Pipeline(library.store, library.index, library.embedder, lambda: generator, library.settings)


def test_a_bug_in_query_generation_surfaces_instead_of_becoming_plain_rag(library):
    pipeline = pipeline_with(library, FailingQueries(TypeError("stream() got an unexpected keyword argument")))
    with pytest.raises(TypeError):
        list(pipeline.ask("What supply voltage does the pump need?", "fusion", generate_answer=False))


def test_a_model_that_cannot_be_loaded_is_an_error_not_a_fallback(library):
    class Unloadable(ScriptedGenerator):
        def load(self):
            raise ModelError("The model broken.gguf could not be loaded")

    with pytest.raises(ModelError, match="could not be loaded"):
        list(pipeline_with(library, Unloadable()).ask("What supply voltage does the pump need?", "fusion", generate_answer=False))


def test_a_model_failure_falls_back_to_the_question_with_a_notice(library):
    generator = FailingQueries(ModelError("The server at http://127.0.0.1:9/v1 sent nothing for 5 s"))
    generator.enqueue("It runs on 24 V DC [1].")
    events = list(pipeline_with(library, generator).ask("What supply voltage does the pump need?", "fusion"))
    [generated] = [e for e in events if isinstance(e, QueriesGenerated)]
    result = events[-1].result
    # The question is searched whole and by its key terms (stop words out), not only whole (issue 34).
    assert generated.queries == ("supply voltage pump need",) and "sent nothing for 5 s" in generated.notice
    assert "searched the question and its key terms" in generated.notice and generated.notice in result.notices
    assert [lst.query for lst in result.lists if lst.kind == "vector"] == ["What supply voltage does the pump need?", "supply voltage pump need"]
    assert result.found and result.answer.startswith("It runs on 24 V DC")  # the answer still came


def test_eval_counts_the_questions_whose_query_generation_fell_back(library):
    names = {"px40.pdf": "px40"}
    beir = evaluation.BeirSet({"px40": ("PX-40", "")}, [("q1", "What voltage?"), ("q2", "What pressure?")], {"q1": {"px40": 1}, "q2": {"px40": 1}})
    generator = FailingQueries(ModelError("Nothing answered at http://127.0.0.1:9/v1"))
    generator.enqueue("Here are the queries:\n")  # q2: nothing usable

    def pipeline_for(spec):
        return pipeline_with(library, generator)

    out = list(evaluation.run_modes(beir, names, pipeline_for, [evaluation.parse_mode("fusion")], beir.queries))
    rows = [row for _, report, row in out if report is None]
    [summary] = [report.summary() for _, report, _ in out if report is not None]
    assert [row["modes"]["fusion"]["query_fallback"] for row in rows] == ["failed", "empty"]
    assert summary["query_fallbacks"] == 2 and summary["query_fallbacks_by_reason"] == {"failed": 1, "empty": 1}
    table = evaluation.format_table([summary])
    assert "fallbk" in table and "2 of 2 questions searched the question alone" in table


def test_eval_results_of_runs_without_fallbacks_say_so(library):
    generator = ScriptedGenerator(["PX-40: supply voltage"])
    beir = evaluation.BeirSet({"px40": ("PX-40", "")}, [("q1", "What voltage?")], {"q1": {"px40": 1}})
    out = list(evaluation.run_modes(beir, {"px40.pdf": "px40"}, lambda spec: pipeline_with(library, generator), [evaluation.parse_mode("fusion")], beir.queries))
    [summary] = [report.summary() for _, report, _ in out if report is not None]
    assert summary["query_fallbacks"] == 0 and "searched the question alone" not in evaluation.format_table([summary])


def test_eval_command_prints_and_writes_the_fallback_count(tmp_path, monkeypatch, capsys):
    import json

    from desktop_app import cli
    from desktop_app.core import library as library_module
    from tests.fakes import HashingEmbedder

    folder = tmp_path / "set"
    folder.mkdir()
    (folder / "corpus.jsonl").write_text(json.dumps({"_id": "d1", "title": "Pump", "text": "The pump runs on 24 V DC."}) + "\n")
    (folder / "queries.jsonl").write_text(json.dumps({"_id": "q1", "text": "What voltage does the pump need?"}) + "\n")
    (folder / "qrels.tsv").write_text("query-id\tcorpus-id\tscore\nq1\td1\t1\n")
    real = library_module.Library
    generator = FailingQueries(ModelError("Nothing answered at http://127.0.0.1:9/v1"))
    monkeypatch.setattr(library_module, "Library", lambda home: real(home, embedder=HashingEmbedder(), generator=generator))
    out = tmp_path / "eval.json"
    assert cli.main(["eval", str(folder), "--home", str(tmp_path / "home"), "--modes", "rag,fusion", "--json", str(out)]) == 0
    assert "fusion: 1 of 1 questions searched the question alone (query generation failed: 1" in capsys.readouterr().out
    summaries = {s["mode"]: s for s in json.loads(out.read_text())["summaries"]}
    assert summaries["fusion"]["query_fallbacks"] == 1 and summaries["rag"]["query_fallbacks"] == 0
