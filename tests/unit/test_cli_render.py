"""What the CLI shows of a question, an import and an eval run, from scripted event streams (no models)."""

from __future__ import annotations

import json

import pytest

from desktop_app import cli
from desktop_app.core.codec import result_to_json
from desktop_app.core.events import AnswerDone, QueriesGenerated, QuestionRewritten, SourcesRanked, SqlRan, Token
from desktop_app.core.types import AskResult, Citation, ImportProgress, Passage, Source, SqlResult, Timings

QUESTION = "What is the top speed of the blender?"


def source(n: int, chunk_id: int, page: int, score: float, ranks: dict[str, int], kind: str = "text") -> Source:
    passage = Passage(chunk_id, 1, "/docs/blender manual.pdf", "Blender manual", page, 0, 90, f"Passage {chunk_id} text.", kind=kind)
    return Source(n, passage, score, ranks, 0.5)


SOURCES = tuple(source(n, 10 + n, n % 3 + 1, 0.05 - n / 1000, {QUESTION: n, "blender speed": 12 - n}, "table" if n == 4 else "text") for n in range(1, 13))
CONTEXT = SOURCES[:2]
RESULT = AskResult(
    question=QUESTION,
    mode="fusion",
    queries=("blender speed", "blender rpm"),
    dropped_queries=(),
    lists=(),
    rrf_k=60.0,
    sources=SOURCES,
    context=CONTEXT,
    answer="It spins at 20,000 rpm [1].",
    citations=(Citation(1, "/docs/blender manual.pdf", 2, "The motor\n  spins at 20,000 rpm.", 11, 0, 90),),
    found=True,
    timings=Timings(query_generation=0.84, first_token=1.26, total=2.5),
    notices=("Citation [2] is not in the answer's passages.",),
    standalone_question="",
)
STREAM = [
    QuestionRewritten("and its speed?", QUESTION),
    QueriesGenerated(("blender speed", "blender rpm"), (), "One query was dropped."),
    SourcesRanked((), SOURCES, CONTEXT),
    Token("It spins "),
    Token("at 20,000 rpm [1]."),
    AnswerDone(RESULT),
]
EXPECTED_TEXT = """\
Searched as: What is the top speed of the blender?
Search queries:
  - blender speed
  - blender rpm
Note: One query was dropped.
Fused passages (RRF):
 *  1. 0.0490  blender manual.pdf p.2  ranks: 1, 11
 *  2. 0.0480  blender manual.pdf p.3  ranks: 2, 10
    3. 0.0470  blender manual.pdf p.1  ranks: 3, 9
    4. 0.0460  blender manual.pdf table p.2  ranks: 4, 8
    5. 0.0450  blender manual.pdf p.3  ranks: 5, 7
    6. 0.0440  blender manual.pdf p.1  ranks: 6, 6
    7. 0.0430  blender manual.pdf p.2  ranks: 7, 5
    8. 0.0420  blender manual.pdf p.3  ranks: 8, 4
    9. 0.0410  blender manual.pdf p.1  ranks: 9, 3
   10. 0.0400  blender manual.pdf p.2  ranks: 10, 2

Answer:
It spins at 20,000 rpm [1].

[1] blender manual.pdf, page 2: The motor spins at 20,000 rpm....
Note: Citation [2] is not in the answer's passages.

(2.5 s; first token after 1.3 s; queries 0.8 s)
"""


def test_the_renderer_has_a_method_for_every_event_the_core_yields():
    import typing

    from desktop_app.cli.render import Renderer, method_name
    from desktop_app.core.events import AskEvent

    assert all(callable(getattr(Renderer, method_name(kind), None)) for kind in (*typing.get_args(AskEvent), ImportProgress))


@pytest.fixture
def answer_with(empty_library, monkeypatch):
    """Makes the CLI's library answer with a given event stream: what `cli.main` prints is the renderer's work alone."""

    def script(events):
        monkeypatch.setattr(empty_library, "ask", lambda *args, **kwargs: iter(events))

    monkeypatch.setitem(cli._OPEN, "library", empty_library)
    return script


def test_ask_shows_the_queries_the_fused_list_the_streamed_answer_citations_and_notices(answer_with, capsys):
    answer_with(STREAM)
    assert cli.main(["ask", QUESTION]) == 0
    assert capsys.readouterr().out == EXPECTED_TEXT


def test_ask_json_is_the_codecs_result_and_only_that(answer_with, capsys):
    answer_with(STREAM)
    assert cli.main(["ask", QUESTION, "--json"]) == 0
    out = capsys.readouterr().out
    assert out == json.dumps(result_to_json(RESULT), indent=2) + "\n"
    assert json.loads(out)["fused"][3]["kind"] == "table"


def test_a_question_that_fails_midway_leaves_no_json(answer_with, capsys):
    from desktop_app.core.errors import ModelError

    def failing():
        yield QueriesGenerated(("blender speed",), (), None)
        raise ModelError("Nothing answered at http://127.0.0.1:9/v1", hint="Start the server.")

    answer_with(failing())
    assert cli.main(["ask", QUESTION, "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("Error: Nothing answered at http://127.0.0.1:9/v1")


def test_sql_answers_show_the_query_its_rows_and_a_corrected_answer(capsys):
    from desktop_app.cli.render import TextRenderer

    failed = SqlResult("SELECT nope FROM sales", error="no such column: nope")
    ran = SqlResult("SELECT region, sum(total) AS total\nFROM sales GROUP BY region", ("region", "total"), (("North", 1200.5), ("South", 99)), 0.004)
    result = AskResult(QUESTION, "sql", (), (), (), 60.0, (), (), "The query result: North 1,200.50.", (), True, Timings(total=1.0, generation=0.5), sql_runs=(failed, ran))
    TextRenderer().render([SqlRan(failed, 1), SqlRan(ran, 2), Token("North sold 1,300."), AnswerDone(result)])
    out = capsys.readouterr().out
    assert out.startswith("SQL:\n  SELECT nope FROM sales\nQuery failed: no such column: nope\nSQL (retry):\n")
    assert "  region  total\n  ------  ------\n  North   1200.5\n  South       99\n(2 rows; 4 ms)" in out
    assert "\nAnswer:\nNorth sold 1,300.\n\nCorrected answer: The query result: North 1,200.50.\n" in out
    assert "(1.0 s; SQL written in 0.0 s, ran in" in out


def test_an_import_shows_each_file_and_ends_each_bar_as_one_line_off_a_terminal(capsys):
    from desktop_app.cli.render import TextRenderer

    events = [
        ImportProgress("/docs/a.pdf", "queued"),
        ImportProgress("/docs/a.pdf", "extracting", 0, 0),
        ImportProgress("/docs/a.pdf", "extracting", 4, 4),
        *(ImportProgress("/docs/a.pdf", "embedding", done, 12) for done in (4, 8, 12)),
        ImportProgress("/docs/a.pdf", "ready", 4, 4, "2 pages read by OCR"),
        ImportProgress("/docs/b.pdf", "skipped", 3, 3, "unchanged, already in the library"),
        ImportProgress("/docs/locked.pdf", "failed", message="locked.pdf is password protected"),
    ]
    shown = list(TextRenderer(suggest_password_flag=True).show(events))
    assert shown == events  # handed on to the command, which counts the failures
    captured = capsys.readouterr()
    assert captured.out == (
        "ready    a.pdf: 4 pages (2 pages read by OCR)\n"
        "skipped  b.pdf: unchanged, already in the library\n"
        "failed   locked.pdf: locked.pdf is password protected (give it with --password)\n"
    )
    bars = captured.err.splitlines()
    assert [b.split()[:2] + b.split()[-1:] for b in bars] == [["a.pdf:", "extracting", "4/4"], ["a.pdf:", "embedding", "12/12"]]
    assert "\r" not in captured.err and "\x1b" not in captured.err  # no redraws or colours in a log


BEIR_CORPUS = [
    {"_id": "d1", "title": "Blender", "text": "The blender motor spins at 20,000 rpm."},
    {"_id": "d2", "title": "Kettle", "text": "The kettle boils a litre of water in three minutes."},
    {"_id": "d3", "title": "Toaster", "text": "The toaster has six browning levels."},
]


def test_eval_imports_the_corpus_scores_the_questions_and_shows_progress_and_the_table(data_home, tmp_path, capsys):
    from desktop_app.cli.render import TextRenderer
    from desktop_app.core.library import Library
    from desktop_app.evaluation.runner import EvalFinished, plan_eval, run_eval
    from tests.fakes import HashingEmbedder, ScriptedGenerator

    folder = tmp_path / "kitchen"
    folder.mkdir()
    (folder / "corpus.jsonl").write_text("".join(json.dumps(r) + "\n" for r in BEIR_CORPUS))
    (folder / "queries.jsonl").write_text(json.dumps({"_id": "q1", "text": "How fast does the blender motor spin?"}) + "\n" + json.dumps({"_id": "q2", "text": "How long does the kettle take to boil water?"}) + "\n")
    (folder / "qrels.tsv").write_text("query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td2\t1\n")
    with pytest.raises(ValueError, match="unknown mode 'nope'"):
        plan_eval(folder, "rag,nope")

    library = Library(data_home, embedder=HashingEmbedder(), generator=ScriptedGenerator())
    events = list(TextRenderer().show(run_eval(plan_eval(folder, "rag"), library, tmp_path / "cache.sqlite")))
    library.close()
    finished = events[-1]
    assert isinstance(finished, EvalFinished)
    assert finished.summaries[0]["mode"] == "rag" and finished.summaries[0]["recall@5"] == 1.0
    assert [row["modes"]["rag"]["top"][0] for row in finished.questions] == ["d1", "d2"]
    captured = capsys.readouterr()
    assert captured.out.startswith("kitchen: 2 questions, 3 records (LLM cache: 0 hits, 0 misses)\nmode")
    assert "\nrag " in captured.out
    err = captured.err.splitlines()
    assert err[0].startswith("Importing kitchen") and err[0].endswith("3/3")
    assert err[1] == f"3 records in the library (3 newly imported) at {data_home}"
    assert err[2].startswith("Questions") and err[2].endswith("2/2")


def test_ask_prints_the_quotes_before_the_answer_and_json_keeps_them(answer_with, capsys):
    import dataclasses

    from desktop_app.core.events import EvidenceSelected
    from desktop_app.core.types import Quote

    quote = Quote(Citation(1, "/docs/blender manual.pdf", 2, "The motor spins at 20,000 rpm.", 11, 4, 34), 0.7, "")
    result = dataclasses.replace(RESULT, quotes=(quote,))
    first_look = dataclasses.replace(quote, citation=dataclasses.replace(quote.citation, n=0, text="Blades are steel."))
    answer_with([EvidenceSelected((first_look,), preliminary=True), *STREAM[:3], EvidenceSelected((quote,), ("Mixer X",)), *STREAM[3:5], AnswerDone(result)])
    assert cli.main(["ask", QUESTION]) == 0
    out = capsys.readouterr().out
    # A first look while the queries are written (no passage number: the answer does not cite it), then the evidence read.
    assert out.index("(a first look while the search queries are written):\n  > \u201cBlades are steel.\u201d blender manual.pdf, page 2") < out.index(
        "From your documents:\n  > \u201cThe motor spins at 20,000 rpm.\u201d [1] blender manual.pdf, page 2\n  > Mixer X: nothing found"
    )
    assert out.index("From your documents:") < out.index("Answer:\nIt spins")
    assert cli.main(["ask", QUESTION, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["quotes"][0]["citation"]["text"] == "The motor spins at 20,000 rpm." and data["quotes"][0]["place"] == "page 2"


def test_an_answer_changed_after_streaming_is_shown_as_kept(capsys):
    from desktop_app.cli.render import TextRenderer

    kept = "- Kestrel Nano weighs 249 grams [1].\n- Heron Lite: not found in your documents."
    result = AskResult(QUESTION, "fusion", (), (), (), 60.0, (), (), kept, (), True, Timings(total=1.0, generation=0.5))
    TextRenderer().render([Token("- Kestrel Nano weighs 249 grams [1].\n- Heron Lite weighs 310 grams [1]."), AnswerDone(result)])
    out = capsys.readouterr().out
    assert f"\nCorrected answer: {kept}\n" in out


def test_an_answer_kept_as_streamed_is_not_repeated(capsys):
    from desktop_app.cli.render import TextRenderer

    result = AskResult(QUESTION, "fusion", (), (), (), 60.0, (), (), "It weighs 249 grams [1].", (), True, Timings(total=1.0, generation=0.5))
    TextRenderer().render([Token("It weighs 249 grams [1]."), AnswerDone(result)])
    assert "Corrected answer" not in capsys.readouterr().out


def test_the_filters_a_question_states_are_shown_with_how_to_ask_without_them(capsys):
    from desktop_app.cli.render import TextRenderer
    from desktop_app.core.events import FiltersRead
    from desktop_app.core.retrieval.question_filters import read_filters
    from desktop_app.core.types import DocumentName

    filters = read_filters("What is the top speed on pages 3-4 of blender.pdf?", [DocumentName(1, "/docs/blender.pdf", "Blender manual")])
    TextRenderer().render([FiltersRead(filters), Token("It spins fast [1].")])
    out = capsys.readouterr().out
    assert "Filters: pages 3-4; blender.pdf" in out
    assert "searched: What is the top speed?" in out and "'of blender.pdf'" in out and "--ignore-filter" in out


def test_a_whole_documents_answer_lists_the_passages_it_read_without_scores(capsys):
    from desktop_app.cli.render import TextRenderer

    # Answered from an outline: nothing was searched, so there is no RRF score or rank to print (it printed
    # "Fused passages (RRF):" with "0.0000 ... ranks: " on every row).
    result = AskResult(QUESTION, "fusion", (), (), (), 60.0, CONTEXT, CONTEXT, "- 1 Speeds (p. 2) [1]", (), True,
                       Timings(total=0.1, first_token=0.1), answered_from="Answered from the outline of blender manual.pdf")
    TextRenderer().render([SourcesRanked((), CONTEXT, CONTEXT, answered_from=result.answered_from), Token("- 1 Speeds (p. 2) [1]"), AnswerDone(result)])
    out = capsys.readouterr().out
    assert "Passages read (not searched):" in out and "RRF" not in out and "ranks" not in out and "queries" not in out
    assert "  1. blender manual.pdf p.2" in out and "  2. blender manual.pdf p.3" in out
