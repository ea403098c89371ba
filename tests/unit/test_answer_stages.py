"""The steps of preparing an answer, as the window and the CLI tell them: typed StageStarted events in order,
and a wait for the model counted in the answer's timings."""

from __future__ import annotations

import time

from desktop_app.cli.render import TextRenderer
from desktop_app.core.events import READING, SEARCHING, WRITING_QUERIES, AnswerDone, SourcesRanked, StageStarted, Token
from desktop_app.sample_datasheet import write_sample_datasheet


def test_the_pipeline_says_each_stage_before_it_starts(empty_library, generator, tmp_path):
    list(empty_library.import_paths([write_sample_datasheet(tmp_path / "px40.pdf")]))
    generator.enqueue("pump temperature limit\npump coolant", "It runs to 85 C [1].")
    events = list(empty_library.ask("What is the maximum temperature?", "fusion"))
    kinds = [(type(e).__name__, getattr(e, "stage", "") or getattr(e, "preliminary", "")) for e in events if not isinstance(e, Token)]
    # A first look at the question's own finds comes before the model writes its queries; the fused evidence's
    # quotes (EvidenceSelected) as soon as the passages are ranked, before the model reads.
    assert kinds[:7] == [
        ("EvidenceSelected", True), ("StageStarted", WRITING_QUERIES), ("QueriesGenerated", ""), ("StageStarted", SEARCHING), ("SourcesRanked", ""),
        ("EvidenceSelected", False), ("StageStarted", READING),
    ]
    ranked = next(e for e in events if isinstance(e, SourcesRanked))
    reading = [e for e in events if isinstance(e, StageStarted) and e.stage == READING][0]
    assert reading.passages == len(ranked.context) > 0
    # Plain RAG writes no queries: it only searches and reads.
    generator.enqueue("It runs to 85 C [1].")
    stages = [e.stage for e in empty_library.ask("What is the maximum temperature?", "rag") if isinstance(e, StageStarted)]
    assert stages == [SEARCHING, READING]


def test_a_wait_for_the_model_is_counted_in_the_timings(empty_library, generator, tmp_path):
    list(empty_library.import_paths([write_sample_datasheet(tmp_path / "px40.pdf")]))
    generator.enqueue("It runs to 85 C [1].")
    asked_at = time.perf_counter() - 2.0  # asked two seconds ago, while the model was loading
    result = next(e for e in empty_library.ask("What is the maximum temperature?", "rag", asked_at=asked_at) if isinstance(e, AnswerDone)).result
    assert result.timings.model_wait >= 2.0 and result.timings.total >= 2.0 and result.timings.first_token >= 2.0


def test_the_cli_says_the_stages_on_stderr(capsys):
    renderer = TextRenderer()
    renderer.render([StageStarted(WRITING_QUERIES), StageStarted(READING, 3)])
    captured = capsys.readouterr()
    assert captured.err.splitlines() == ["Writing search queries...", "Reading 3 passages..."]
    assert captured.out == ""


def test_a_fault_in_the_answer_check_shows_the_answer_unchecked_and_says_so(empty_library, generator, tmp_path, monkeypatch):
    # Two faults of the check (a mark beyond the passages, a passage with no sentence to read) lost the whole answer.
    from desktop_app.core import pipeline

    def broken(*args, **kwargs):
        raise ValueError("a fault of the check")

    monkeypatch.setattr(pipeline, "review_answer", broken)
    list(empty_library.import_paths([write_sample_datasheet(tmp_path / "px40.pdf")]))
    generator.enqueue("It runs to 85 C [1].")
    result = next(e for e in empty_library.ask("What is the maximum temperature?", "rag") if isinstance(e, AnswerDone)).result
    assert result.found and result.answer == "It runs to 85 C [1]." and [c.n for c in result.citations] == [1]
    assert pipeline.CHECK_FAILED in result.notices
