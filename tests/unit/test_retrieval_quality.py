"""Retrieval-quality stages (drift guard, keyword lists, adaptive fusion, naive-fusion) and the eval runner, with fakes."""

from __future__ import annotations

import pytest

from desktop_app.core.events import AnswerDone, QueriesGenerated
from desktop_app.core.ingest.importer import Importer
from desktop_app.core.pipeline import Pipeline
from desktop_app.core.retrieval import query_styles as prompts
from desktop_app.core.settings import Settings
from desktop_app.evaluation import harness as evaluation
from desktop_app.evaluation import query_styles as research_prompts

RECORDS = {
    "oslo": ("Oslo", "Oslo is the capital of Norway and its largest city."),
    "bergen": ("Bergen", "Bergen is a rainy city on the west coast of Norway."),
    "lima": ("Lima", "Lima is the capital of Peru, on the Pacific coast."),
    "pasta": ("Pasta", "Pasta is cooked in salted boiling water until al dente."),
}


@pytest.fixture
def library(empty_library, tmp_path):
    lib = empty_library
    beir = evaluation.BeirSet({k: v for k, v in RECORDS.items()}, [], {})
    records, names = evaluation.corpus_records(beir, tmp_path / "set")
    events = list(Importer(lib.store, lib.index, lib.embedder).import_texts(records))
    assert [e.stage for e in events] == ["ready"] * len(RECORDS)
    lib.names = names
    return lib


def result_of(events):
    return [e for e in events if isinstance(e, AnswerDone)][0].result


def research(mode):
    """A mode with research knobs turned (they live with the eval harness, not in Settings)."""
    return evaluation.parse_mode(mode).mode


def ask(library, question, mode, **settings):
    pipeline = Pipeline(library.store, library.index, library.embedder, library.generator, library.settings.replace(**settings))
    events = list(pipeline.ask(question, mode, generate_answer=False))
    return events, result_of(events)


def test_reimporting_unchanged_records_embeds_nothing(library, tmp_path):
    calls = library.embedder.calls
    records, _ = evaluation.corpus_records(evaluation.BeirSet(RECORDS, [], {}), tmp_path / "set")
    stages = [e.stage for e in Importer(library.store, library.index, library.embedder).import_texts(records)]
    assert stages == ["skipped"] * len(RECORDS) and library.embedder.calls == calls


def test_the_halves_of_a_split_set_name_their_documents_alike_so_they_share_one_imported_library(tmp_path):
    # split_devset.py gives each half a link to the whole set's corpus.jsonl.
    whole = tmp_path / "set"
    whole.mkdir()
    (whole / "corpus.jsonl").write_text("")
    beir = evaluation.BeirSet(RECORDS, [], {})
    names = []
    for half in ("tune", "report"):
        (whole / half).mkdir()
        (whole / half / "corpus.jsonl").symlink_to(whole / "corpus.jsonl")
        names.append([name for name, _, _ in evaluation.corpus_records(beir, whole / half)[0]])
    assert names[0] == names[1] == [name for name, _, _ in evaluation.corpus_records(beir, whole)[0]]


def test_drift_guard_drops_queries_far_from_the_question_and_reports_them(library, generator):
    generator.enqueue("capital of Norway\npasta boiling water al dente")
    events, result = ask(library, "What is the capital of Norway?", "fusion", drift_guard=0.3, keyword_weight=0.0)
    assert result.queries == ("capital of Norway",)
    assert result.dropped_queries == ("pasta boiling water al dente",)
    assert next(e for e in events if isinstance(e, QueriesGenerated)) == QueriesGenerated(result.queries, result.dropped_queries, None)
    assert [lst.query for lst in result.lists] == ["What is the capital of Norway?", "capital of Norway"]


def test_keyword_list_is_fused_with_its_weight_and_the_scores_show_it(library, generator):
    generator.enqueue("Norway capital city")
    _, result = ask(library, "What is the capital of Norway?", research("fusion+keyword_source=question"), keyword_weight=0.5, question_weight=2.0, rrf_k=5.0)
    assert [(lst.kind, lst.weight) for lst in result.lists] == [("vector", 2.0), ("vector", 1.0), ("keyword", 0.5)]
    assert result.rrf_k == 5.0
    weights = result.weights
    for source in result.sources:
        assert source.rrf_score == pytest.approx(sum(weights[key] / (5.0 + rank) for key, rank in source.ranks.items()))
    assert {library.names[s.passage.file.rsplit("/", 1)[-1]] for s in result.sources if "keyword: " + result.question in s.ranks} >= {"oslo"}


def test_a_confident_question_skips_query_generation(library, generator):
    _, result = ask(library, "Pasta is cooked in salted boiling water until al dente.", research("fusion+confident_similarity=0.9"), keyword_weight=0.0)
    assert generator.prompts == [] and result.queries == ()
    assert len(result.lists) == 1


def test_naive_fusion_uses_the_papers_prompt_and_k_60(library, generator):
    generator.enqueue("1. capital of Norway\n2. Norway capital\n3. Oslo\n4. Norwegian capital city")
    _, result = ask(library, "What is the capital of Norway?", "naive-fusion", rrf_k=5.0, question_weight=3.0, drift_guard=0.99)
    [messages] = generator.prompts
    assert messages[0]["content"] == prompts.NAIVE_QUERY_SYSTEM
    assert "Generate multiple search queries related to: What is the capital of Norway?" in messages[1]["content"]
    assert result.rrf_k == 60.0 and len(result.queries) == 4 and result.dropped_queries == ()
    assert {lst.weight for lst in result.lists} == {1.0}


def test_decomposition_may_write_one_query_per_entity_beyond_n_queries(library, generator):
    generator.enqueue("Oslo\nBergen\nLima\nTrondheim\nCusco\nStavanger\nArequipa")
    _, result = ask(library, "Which of these cities are capitals?", "fusion", n_queries=2, max_queries=6)
    assert len(result.queries) == 6


def test_eval_runner_scores_each_mode_through_the_pipeline(library, generator):
    beir = evaluation.BeirSet(RECORDS, [("q1", "What is the capital of Peru?")], {"q1": {"lima": 1}})
    generator.enqueue("Peru capital city")

    def pipeline_for(spec):
        return Pipeline(library.store, library.index, library.embedder, library.generator, Settings().replace(**spec.overrides))

    modes = [evaluation.parse_mode("rag"), evaluation.parse_mode("fusion+rrf_k=5")]
    out = list(evaluation.run_modes(beir, library.names, pipeline_for, modes, beir.queries))
    rows = [row for _, report, row in out if report is None]
    reports = {report.label: report.summary() for _, report, _ in out if report is not None}
    assert rows[0]["modes"]["rag"]["top"][0] == "lima"
    assert reports["rag"]["n"] == 1 and reports["rag"]["recall@10"] == 1.0 and reports["rag"]["mrr@10"] == 1.0
    assert reports["fusion+rrf_k=5"]["mean_queries"] == 1.0
    assert "fusion+rrf_k=5" in evaluation.format_table(list(reports.values()))


def test_default_query_prompt_asks_to_name_the_members_of_a_group(library, generator):
    generator.enqueue("Norway; Peru: capital")  # things the library names (one it never names is not searched)
    _, result = ask(library, "What are the capitals of the two most populous countries?", "fusion")
    system, *examples, last = generator.prompts[0]
    assert system["content"] == prompts.QUERY_SYSTEM_SHARED_FACT
    assert "name the ones you believe they are" in system["content"]
    assert examples[1]["content"] == prompts.SHARED_FACT_EXAMPLES[0][1]  # a worked example names members
    assert len(examples[1]["content"].split(";")) >= 3
    assert last["content"] == "Question: What are the capitals of the two most populous countries?"
    # Each name is searched alone (its own document) and with its fact (the passage that states it).
    assert result.queries == ("Norway", "Norway capital", "Peru", "Peru capital")
    assert [lst.query for lst in result.lists if lst.kind == "vector"][1:] == list(result.queries)


def test_name_fact_lines_are_capped_and_lines_without_a_fact_are_searched_whole(library, generator):
    generator.enqueue("Oslo: height\nBergen\nLima: height\nPasta: height\nNorway: height\nPeru: height\nPacific: height")
    _, result = ask(library, "How tall are the seven peaks?", "fusion", keyword_weight=0.0)
    assert result.queries == (
        "Oslo", "Oslo height", "Bergen", "Lima", "Lima height", "Pasta", "Pasta height", "Norway", "Norway height",
    )  # max_queries = 5 lines; Peru and Pacific are cut


def test_a_second_query_prompt_adds_its_queries_once(library, generator):
    generator.enqueue("Peru: capital", "Peru capital\nLima population")
    _, result = ask(library, "What is the capital of Peru and how many people live there?", research("fusion+extra_query_style=enumerate"))
    first, second = generator.prompts
    assert first[0]["content"] == prompts.QUERY_SYSTEM_SHARED_FACT and second[0]["content"] == research_prompts.QUERY_SYSTEM_ENUMERATE
    assert result.queries == ("Peru", "Peru capital", "Lima population")  # "Peru capital" is not searched twice


def test_split_name_facts():
    from desktop_app.core.retrieval.query_styles import split_name_facts

    assert split_name_facts(["Nile: length", "Amazon River:length in km", "UN", "Note: "]) == [
        "Nile", "Nile length", "Amazon River", "Amazon River length in km", "UN", "Note",
    ]


def test_fact_of_reads_back_what_split_name_facts_wrote():
    from desktop_app.core.name_facts import fact_of, names_of
    from desktop_app.core.retrieval.query_styles import split_name_facts

    queries = split_name_facts(["Amazon River: length in km", "Nile: source", "UN"])
    assert {name: fact_of(name, queries) for name in names_of(queries)} == {"Amazon River": "length in km", "Nile": "source"}
    assert fact_of("UN", queries) == "" and fact_of("amazon river", queries) == "length in km" and fact_of("", queries) == ""


def test_entity_round_searches_the_names_found_in_the_top_passages(library, generator):
    from desktop_app.evaluation.entity_round import ENTITY_SYSTEM

    generator.enqueue("Norway capital", "Oslo\nBergen\nNorway capital")
    _, result = ask(library, "Which cities of Norway are named here?", research("fusion+entity_round=3+entity_passages=2"), keyword_weight=0.0)
    first, second = generator.prompts
    assert second[0]["content"] == ENTITY_SYSTEM
    assert "Which cities of Norway are named here?" in second[-1]["content"] and "[2] " in second[-1]["content"]
    assert result.queries == ("Norway capital", "Oslo", "Bergen")  # a name already searched is not searched again
    assert [lst.query for lst in result.lists] == ["Which cities of Norway are named here?", "Norway capital", "Oslo", "Bergen"]
    for source in result.sources:  # the fused scores include the second round's lists
        assert source.rrf_score == pytest.approx(sum(result.weights[key] / (result.rrf_k + rank) for key, rank in source.ranks.items()))


def test_interleave_is_selectable_and_its_scores_are_what_ranked(library, generator):
    generator.enqueue("Norway capital\nPeru capital")
    _, result = ask(library, "What are the capitals of Norway and Peru?", research("fusion+fusion_method=interleave"), keyword_weight=0.0, question_weight=2.0)
    scores = [s.rrf_score for s in result.sources]
    assert scores == sorted(scores, reverse=True)
    for source in result.sources:
        assert source.rrf_score == pytest.approx(max(result.weights[key] / rank for key, rank in source.ranks.items()))


def test_a_passage_found_by_a_generated_name_is_judged_by_its_similarity_to_the_question(library, generator):
    # The model "names" pasta for a question the library cannot answer: the pasta passage is found at rank 1
    # of that query, but the "not found" gate judges it by its similarity to the question, not to the name.
    generator.enqueue("Pasta: boiling")
    question = "What is the boiling point of the refrigerant R-1234yf?"
    _, result = ask(library, question, "fusion", keyword_weight=0.0)
    pasta = next(s for s in result.sources if s.passage.file.endswith("pasta.txt"))
    assert pasta.ranks["Pasta"] == 1
    question_vector, pasta_vector = library.embedder.embed([question, pasta.passage.text])
    assert pasta.similarity == pytest.approx(float(question_vector @ pasta_vector), abs=1e-5)
    name_vector = library.embedder.embed(["Pasta"])[0]
    assert pasta.similarity < float(name_vector @ pasta_vector)
