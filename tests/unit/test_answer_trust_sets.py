"""Issue 30's measuring sets are what they claim: a right citation states the fact, a wrong one does not; a near
miss's article holds no answer of its kind; recorded answers are re-judged by the current check."""

from __future__ import annotations

import re

import pytest

from bench.answer_cache import Recorded, unchecked
from bench.answer_trust import interleaved, Item, repeats_a_sentence
from bench.build_made_up_sets import claim_pairs, questions
from bench.build_near_sets import ABSENT, near_hit, near_miss
from bench.made_up_world import LANGUAGES, documents


def _words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.lower()))


def _states(answer: str, passage: str) -> bool:
    """Every word of the answer is in the passage: numbers as written, names in any case ending ("Велмор" in "Велморе");
    in Chinese, which has no spaces between words, as written anywhere in it (a number not inside a longer one)."""
    if re.search("[\u4e00-\u9fff]", passage):
        return bool(re.search(rf"(?<!\d){re.escape(answer)}(?!\d)", passage))
    words = _words(passage)
    stems = [w if w.isdigit() else w[: max(3, len(w) - 2)] for w in _words(answer)]
    return all(any(w == s if s.isdigit() else w.startswith(s) for w in words) for s in stems)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_right_citation_states_the_fact_and_a_wrong_one_does_not(lang):
    docs = documents(lang, 2, seed=1, prefix="t")
    corpus, queries, qrels = claim_pairs(docs)
    passages = {p["_id"]: p["text"] for p in corpus}
    answers = {f"{d.id}-{f.key}": f.answer for d in docs for f in d.facts}
    cited: dict[str, list[str]] = {}
    for qid, pid in qrels:
        cited.setdefault(qid, []).append(passages[pid])
    for q in queries:
        if q["joint"]:
            assert len(cited[q["_id"]]) == 2
            continue
        answer = answers[q["_id"].rsplit("-", 1)[0]]
        assert _states(answer, " ".join(cited[q["_id"]])) == (q["label"] == "right"), q
    assert {q["label"] for q in queries} == {"right", "wrong"} and len(queries) >= 30


def test_russian_claims_decline_the_names_their_passages_state():
    docs = documents("ru", 1, seed=2, prefix="t")
    town = next(d for d in docs if d.kind == "town")
    population = next(f for f in town.facts if f.key == "population")
    assert town.title + "е" in population.passage and town.title + "а" in population.claim


@pytest.mark.parametrize("lang", ["de", "zh"])
def test_each_question_in_the_documents_language_has_an_english_twin_with_the_same_answer(lang):
    docs = documents(lang, 1, seed=3, prefix="g")
    _, queries, qrels = questions(docs)
    assert all(q["text"] and q["text"] != q["text_en"] and q["answers"] for q in queries)
    assert len(qrels) == len(queries) == sum(len(d.facts) for d in docs)


def _hit(template: str, title: str, text: str):
    question = near_hit({"_id": "x", "title": title, "text": text}, template)
    return question and (question.text, question.answers)


def test_a_near_hit_asks_the_fact_its_sentence_states():
    town = "Velmora is a town. It had a population of about 12,400 in 2010."
    assert _hit("population", "Velmora", town) == ("What is the population of Velmora?", ("12,400",))
    painter = "Orlan Vesk was a painter. He was born in Tamberwick, a small port."
    assert _hit("where born", "Orlan Vesk", painter) == ("Where was Orlan Vesk born?", ("Tamberwick",))
    assert _hit("how many", "Kestrel Band", "The band has 7 members.") == ("How many members does Kestrel Band have?", ("7",))
    assert _hit("who", "The Quiet Loom", "The Quiet Loom is a novel written by Idra Falkenholt.") == ("Who wrote The Quiet Loom?", ("Idra Falkenholt",))
    assert _hit("capital", "Norvania", "It is the capital of Norvania.") is None
    assert _hit("where born", "Quiet style", "Quiet style is a movement in painting. It was born in Tamberwick.") is None  # not a person


def test_a_near_miss_is_asked_only_of_an_article_that_holds_no_answer():
    town = {"_id": "x", "title": "Velmora (town)", "text": "Velmora is a town on the coast, founded in 1402."}
    assert near_miss(town, "population").text == "What is the population of Velmora?"
    assert near_miss({**town, "text": "Velmora is a town with 8,200 inhabitants."}, "population") is None
    assert near_miss(town, "where born") is None  # a town is not born


def test_the_absence_checks_see_an_answer_of_the_kind():
    assert not ABSENT["population"]("Velmora is a town with 8,200 inhabitants.")
    assert ABSENT["population"]("Velmora is a town on the coast, founded in 1402.")
    assert not ABSENT["when"]("Velmora was founded in the 15th century.")
    assert not ABSENT["where born"]("Orlan Vesk, born in Tamberwick, painted harbours.")


def test_a_reply_that_says_the_same_sentence_twice_is_caught():
    assert repeats_a_sentence("The pump runs for ten hours. It is grey. The pump runs for ten hours.")
    assert not repeats_a_sentence("The pump runs for ten hours. It is grey.")


def test_checks_off_is_the_raw_reply_unless_the_model_refused():
    answered = Recorded("q", "fusion", " The pump weighs 9 kg [1]. ", ("The pump weighs 9 kg [1].", True), {}, 1.0, 0.5, 0.0)
    refused = Recorded("q", "fusion", "NOT FOUND", ("Not found in your documents.", False), {}, 1.0, 0.5, 0.0)
    assert unchecked(answered) == ("The pump weighs 9 kg [1].", True)
    assert unchecked(refused) == ("", False)


def test_sets_take_turns_and_a_german_question_keeps_its_english_twin():
    de = [Item("german", "g1", "Wie?", variant="de"), Item("german", "g1-en", "How?", variant="en")]
    hits = [Item("near-hit", "h1", "a?"), Item("near-hit", "h2", "b?")]
    assert [i.qid for i in interleaved([hits, de])] == ["h1", "g1", "g1-en", "h2"]


def test_a_refused_near_hit_counts_apart_whether_the_model_had_it_right_or_wrong():
    # Refusing a right reply loses an answer; refusing a wrong one keeps a wrong answer from the person. The report
    # counts each apart, beside the near hits refused in all.
    from bench.answer_trust import report_lines, row_of
    from desktop_app.core.types import Passage, Source

    text = "The Orvel pump weighs 9 kg."
    sources = [Source(1, Passage(1, 1, "/pump.pdf", "Orvel pump", 1, 0, len(text), text), 0.1, {}, 0.5)]
    item = Item("near-hit", "h1", "How much does the Orvel pump weigh?", gold=("9 kg",))
    rows = []
    for qid, reply in (("h1", "The Orvel pump weighs 9 kg [1]."), ("h2", "The Orvel pump weighs 12 kg [1].")):
        recorded = Recorded(item.question, "fusion", reply, (reply, True, item.question, sources, sources), {}, 1.0, 0.5, 0.0)
        rows.append(row_of(Item("near-hit", qid, item.question, gold=item.gold), recorded, {}))
    assert [(r["refused"], r.get("right_refused"), r.get("wrong_refused")) for r in rows] == [(False, False, None), (True, None, True)]
    lines = {line[1].strip(): line[3] for line in report_lines(rows, ["fusion"])}
    assert lines["of the model's right replies"].startswith("0.00") and lines["of its wrong replies"].startswith("1.00")
