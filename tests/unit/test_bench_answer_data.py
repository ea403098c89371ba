"""The answer benchmarks' data helpers: FanOutQA gold answers, the near-miss refusal set and its rates."""

from __future__ import annotations

import json
import zipfile

from bench import gold_answers
from bench.near_miss import NEAR_MISSES, absent_from
from bench.refusals import near_miss_questions, rates

DEV_QUESTION = {
    "id": "d1",
    "question": "What is the capital of each of the two largest countries?",
    "decomposition": [
        {"question": "Which are the two largest countries?", "answer": ["Russia", "Canada"], "evidence": {"title": "List of countries by area"}, "decomposition": []},
        {"question": "Capitals?", "answer": "...", "evidence": None, "decomposition": [
            {"question": "Capital of Russia?", "answer": "Moscow", "evidence": {"title": "Russia"}, "decomposition": []},
            {"question": "Capital of Canada?", "answer": "Ottawa", "evidence": {"title": "Canada"}, "decomposition": []},
        ]},
    ],
    "answer": {"Russia": "Moscow", "Canada": "Ottawa"},
}
TEST_QUESTION = {"id": "t1", "question": "Who?", "necessary_evidence": [{"title": "Russia"}]}  # the test split: no answer


def write_set(folder):
    folder.mkdir()
    corpus = [{"_id": "w1", "title": "Russia", "text": "..."}, {"_id": "w2", "title": "Canada", "text": "..."}]
    (folder / "corpus.jsonl").write_text("".join(json.dumps(r) + "\n" for r in corpus))
    (folder / "queries.jsonl").write_text(json.dumps({"_id": "t1", "text": "Who?"}) + "\n" + json.dumps({"_id": "d1", "text": "Capitals?"}) + "\n")
    return folder


def test_the_wheel_is_read_without_installing_it(tmp_path):
    wheel = tmp_path / "fanoutqa-1.1.1-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as z:
        z.writestr(gold_answers.SPLITS["dev"], json.dumps([DEV_QUESTION]))
    assert gold_answers.fanoutqa_questions("dev", wheel) == [DEV_QUESTION]


def test_evidence_comes_from_every_step_of_the_decomposition():
    assert gold_answers.evidence_titles(DEV_QUESTION) == ["List of countries by area", "Russia", "Canada"]
    assert gold_answers.evidence_titles(TEST_QUESTION) == ["Russia"]


def test_answers_are_added_only_where_fanoutqa_has_them(tmp_path):
    folder = write_set(tmp_path / "set")
    assert gold_answers.add_answers(folder, [TEST_QUESTION]) == (0, 2)  # the test split has no answers: nothing written
    assert "answers" not in (folder / "queries.jsonl").read_text()
    assert gold_answers.add_answers(folder, [TEST_QUESTION, DEV_QUESTION]) == (1, 2)
    lines = [json.loads(line) for line in (folder / "queries.jsonl").read_text().splitlines()]
    assert lines[1]["answers"] == ["Russia", "Moscow", "Canada", "Ottawa"] and "answers" not in lines[0]


def test_an_answered_set_keeps_the_needed_articles_that_are_in_the_corpus(tmp_path):
    devset = write_set(tmp_path / "set")
    out = tmp_path / "answered"
    assert gold_answers.write_answered_set(devset, out, [DEV_QUESTION, TEST_QUESTION]) == 1  # the test question has no answer
    assert (out / "corpus.jsonl").resolve() == (devset / "corpus.jsonl").resolve()  # linked, not copied
    assert (out / "qrels.tsv").read_text() == "query-id\tcorpus-id\tscore\nd1\tw1\t1\nd1\tw2\t1\n"  # the list article is not in the corpus
    assert json.loads((out / "queries.jsonl").read_text())["answers"] == ["Russia", "Moscow", "Canada", "Ottawa"]


def test_absence_is_checked_on_whole_words():
    assert absent_from(("born", "1925"), "He was reborn in 19250.") == []  # neither occurs as a word
    assert absent_from(("Born", "light-years"), "born far away, 310 light-years") == ["Born", "light-years"]


def test_near_miss_questions_need_their_article_in_the_library_without_the_fact():
    first, second = NEAR_MISSES[0], NEAR_MISSES[1]
    sample = [
        {"_id": first.record, "title": first.title, "text": "Nothing about it here."},
        {"_id": second.record, "title": second.title, "text": f"It states the fact: {second.absent[0]}."},
    ]
    kept, left_out = near_miss_questions(sample)
    assert kept == [first]
    assert any(second.question in reason and second.absent[0] in reason for reason in left_out)
    assert len(left_out) == len(NEAR_MISSES) - 1  # the rest: not in this sample


def test_the_near_miss_set_is_large_enough_and_one_question_per_article():
    assert len(NEAR_MISSES) >= 30
    assert len({q.record for q in NEAR_MISSES}) == len(NEAR_MISSES)


def test_refusal_rates_per_set_and_mode():
    rows = [
        {"set": "near-miss", "mode": "rag", "refused": True},
        {"set": "near-miss", "mode": "rag", "refused": False},
        {"set": "near-miss", "mode": "fusion", "refused": True},
        {"set": "answerable", "mode": "rag", "refused": False},
    ]
    got = rates(rows, ["rag", "fusion"])
    assert got["near-miss"]["rag"] == {"n": 2, "refusals": 1, "rate": 0.5}  # 1 of 2 refused
    assert got["near-miss"]["fusion"]["rate"] == 1.0
    assert got["answerable"]["rag"]["rate"] == 0.0 and got["unanswerable"]["rag"]["n"] == 0
