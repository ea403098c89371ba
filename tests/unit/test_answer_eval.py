"""The answer eval end to end on a three-record corpus, with fake models: what it scores, caches and resumes."""

from __future__ import annotations

import json
import re

import pytest

from desktop_app.core.answers.prompts import ANSWER_SYSTEM
from desktop_app.core.library import Library
from desktop_app.evaluation import answers
from desktop_app.evaluation.harness import load_beir, parse_mode
from desktop_app.evaluation.query_cache import CachedGenerator
from tests.fakes import HashingEmbedder, ScriptedGenerator, is_claim_check, is_question_check

RECORDS = [
    {"_id": "oslo", "title": "Oslo", "text": "Oslo is the capital of Norway and its largest city."},
    {"_id": "bergen", "title": "Bergen", "text": "Bergen is a rainy city on the west coast of Norway."},
    {"_id": "lund", "title": "Lund", "text": "Lund is a university town in southern Sweden."},
]


class CitingGenerator(ScriptedGenerator):
    """Answers from the prompt it is given: one sentence about Oslo citing the passage that names Oslo."""

    def __init__(self):
        super().__init__()
        self.answer_prompts = 0
        self.query_prompts = 0

    def stream(self, messages, max_tokens, temperature=0.0, stop=()):
        if is_question_check(messages) or is_claim_check(messages):
            yield "yes" if is_question_check(messages) else "no"
            return
        if messages[0]["content"] != ANSWER_SYSTEM:
            self.query_prompts += 1
            yield from ["Oslo: capital\n", "Bergen: weather\n"]
            return
        self.answer_prompts += 1
        blocks = re.findall(r"^\[(\d+)\]\n(.+)$", messages[-1]["content"], re.M)
        oslo = next(n for n, text in blocks if "Oslo" in text)
        yield from ["Oslo is the capital ", f"of Norway [{oslo}]."]


@pytest.fixture
def dev_folder(tmp_path):
    folder = tmp_path / "set"
    folder.mkdir()
    (folder / "corpus.jsonl").write_text("\n".join(json.dumps(r) for r in RECORDS))
    question = {"_id": "q1", "text": "What is the capital of Norway, and which Norwegian city is rainy?", "answers": ["Oslo", "Bergen"]}
    (folder / "queries.jsonl").write_text(json.dumps(question) + "\n")
    (folder / "qrels.tsv").write_text("query-id\tcorpus-id\tscore\nq1\toslo\t1\nq1\tbergen\t1\n")
    return folder


def run_eval(dev_folder, tmp_path, live, checkpoint=None, modes=("rag", "fusion"), library_name="lib"):
    beir = load_beir(dev_folder)
    library = Library(tmp_path / library_name, embedder=HashingEmbedder(), generator=live)
    names = answers.import_corpus(library, dev_folder, beir)
    cache = CachedGenerator(library.generator, tmp_path / "queries.sqlite", "fake")  # one cache file for every run
    router = answers.SearchCachedGenerator(cache, library.generator)
    pipelines = answers.mode_pipelines(library, [parse_mode(m) for m in modes], router)
    gold = answers.load_gold_answers(dev_folder)
    entries = answers.evaluate(beir, gold, names, pipelines, router, beir.queries, checkpoint, answers.read_checkpoint(checkpoint))
    cache.close()
    library.close()
    return entries


def test_each_answer_is_scored_on_what_it_cites_and_says(dev_folder, tmp_path):
    entries = run_eval(dev_folder, tmp_path, CitingGenerator())
    assert [e["id"] for e in entries] == ["q1"] and entries[0]["gold"] == ["Oslo", "Bergen"]
    for mode in ("rag", "fusion"):
        row = entries[0]["modes"][mode]
        assert row["answer"].startswith("Oslo is the capital of Norway [")
        assert row["cited_records"] == ["oslo"] and row["citations"][0]["record"] == "oslo"
        assert row["cited_recall"] == 0.5  # cites 1 of the 2 relevant records
        assert row["citation_precision"] == 1.0  # the 1 record it cites is relevant
        assert row["accuracy"] == 0.5 and row["all_correct"] is False  # "Oslo" is in the answer, "Bergen" is not
        assert row["supported_share"] == 1.0  # its one cited sentence is in the Oslo passage
        assert row["not_found"] is False and row["total_s"] >= 0
    assert entries[0]["modes"]["fusion"]["queries"]  # fusion ran its query step


def test_generated_queries_replay_from_the_cache_but_answers_are_always_generated(dev_folder, tmp_path):
    first = CitingGenerator()
    run_eval(dev_folder, tmp_path, first, modes=("fusion",))
    assert (first.query_prompts, first.answer_prompts) == (1, 1)
    second = CitingGenerator()  # a new model and library, the same query cache file
    run_eval(dev_folder, tmp_path, second, modes=("fusion",), library_name="lib2")
    assert (second.query_prompts, second.answer_prompts) == (0, 1)  # queries replayed; the answer (and its timing) live


def test_an_interrupted_run_resumes_without_asking_again(dev_folder, tmp_path):
    checkpoint = tmp_path / "run.json.rows.jsonl"
    first = CitingGenerator()
    entries = run_eval(dev_folder, tmp_path, first, checkpoint, modes=("rag",))
    assert first.answer_prompts == 1 and len(checkpoint.read_text().splitlines()) == 1
    again = CitingGenerator()
    resumed = run_eval(dev_folder, tmp_path, again, checkpoint, modes=("rag", "fusion"))
    assert again.answer_prompts == 1  # only fusion, which the first run did not do
    assert resumed[0]["modes"]["rag"] == entries[0]["modes"]["rag"]
    assert len(checkpoint.read_text().splitlines()) == 2


def test_a_not_found_answer_cites_nothing_and_has_no_precision(dev_folder, tmp_path):
    live = ScriptedGenerator(["NOT FOUND"])
    row = run_eval(dev_folder, tmp_path, live, modes=("rag",))[0]["modes"]["rag"]
    assert row["not_found"] is True and row["cites_any"] is False
    assert row["cited_recall"] == 0.0 and row["citation_precision"] is None and row["supported_share"] is None
    # Its text names the closest files (oslo.txt, bergen.txt), but it answered nothing: accuracy 0.
    assert "oslo.txt" in row["answer"] and row["accuracy"] == 0.0 and row["all_correct"] is False


def test_the_answer_eval_checks_answers_with_the_live_models_odds_as_the_app_does(tmp_path):
    # The question check after the answer must read the live model's odds: through the router it would otherwise
    # fall back to a reply, and the eval would measure a check the app does not run.
    class Live:
        name = "live"

        def reply_odds(self, messages, words):
            return {"yes": 0.2, "no": 0.8}

    cache = CachedGenerator(lambda: Live(), tmp_path / "queries.sqlite", "live")
    router = answers.SearchCachedGenerator(cache, lambda: Live())
    router.answering = True
    assert router.reply_odds([{"role": "user", "content": "?"}], ("yes", "no")) == {"yes": 0.2, "no": 0.8}
    router.answering = False  # searching: the query cache keeps replies only
    assert router.reply_odds([{"role": "user", "content": "?"}], ("yes", "no")) is None
    cache.close()
