"""Answer-level metrics on tiny hand-made examples whose numbers can be checked by hand."""

from __future__ import annotations

import pytest

from desktop_app.evaluation.answer_metrics import (
    all_correct,
    citation_precision,
    cited_evidence_recall,
    flatten_answer,
    gold_found,
    loose_accuracy,
    mean_of,
    median_of,
    normalize_text,
    supported_share,
)

RELEVANT = {"china", "india", "usa", "indonesia"}


def test_cited_evidence_recall_is_the_share_of_relevant_records_cited():
    # cites china, india and a wrong one: 2 of the 4 relevant records = 0.5
    assert cited_evidence_recall(["china", "india", "brazil"], RELEVANT) == 0.5
    assert cited_evidence_recall([], RELEVANT) == 0.0  # citing nothing finds nothing
    assert cited_evidence_recall(["china", "china"], RELEVANT) == 0.25  # a record cited twice counts once: 1 / 4


def test_citation_precision_is_the_share_of_cited_records_that_are_relevant():
    # 3 records cited, 2 relevant: 2 / 3
    assert citation_precision(["china", "india", "brazil"], RELEVANT) == pytest.approx(0.6667, abs=1e-4)
    assert citation_precision(["brazil"], RELEVANT) == 0.0
    assert citation_precision([], RELEVANT) is None  # no citations: nothing to be precise about, left out of the mean


def test_normalizing_ignores_case_punctuation_and_thousands_separators():
    assert normalize_text("The U.S. had 1,234,567 people!") == "the u s had 1234567 people"
    assert normalize_text("Tokyo's 37,400,068") == "tokyo s 37400068"
    assert normalize_text("3.5 million, 2,5") == "3 5 million 2 5"  # a decimal point is punctuation too; "2,5" is no thousands group


def test_gold_strings_are_found_as_whole_words_after_normalizing():
    answer = "The largest cities are Shanghai [1], Delhi [2] and New York City; 1,400,000,000 people live in China."
    assert gold_found(["shanghai", "DELHI", "New York", "1400000000", "York City", "Jakarta"], answer) == [True, True, True, True, True, False]
    assert gold_found(["Delhi"], "New Delhi is big") == [True]
    assert gold_found(["York"], "Yorkshire") == [False]  # not part of a word
    assert gold_found([""], "anything") == [False]  # an empty gold string is never found


def test_a_chinese_or_japanese_answer_holds_its_gold_inside_a_run_of_characters():
    # Written without spaces, a name or number sits inside a run: "He was born in Xinqiu town in 1916."
    answer = "孙玉文于1916年出生于新秋镇。"
    assert gold_found(["新秋镇", "1916", "秋文镇", "191"], answer) == [True, True, False, False]
    assert gold_found(["東京"], "首都は東京です。") == [True]


def test_loose_accuracy_and_all_correct_by_hand():
    gold = ["Shanghai", "Delhi", "New York City", "Jakarta"]
    answer = "Shanghai, Delhi and New York City."
    assert loose_accuracy(gold, answer) == 0.75  # 3 of the 4 strings
    assert all_correct(gold, answer) is False
    assert all_correct(gold[:3], answer) is True
    assert loose_accuracy([], answer) is None and all_correct([], answer) is None  # no gold answer: not scored


def test_flatten_answer_as_fanoutqa_scores_it():
    # a dict counts its keys and its values; a list each item; bools are yes/no; whole floats lose ".0"
    answer = {"China": "Shanghai", "India": ["Delhi", 31.0], "Tuvalu": True}
    assert flatten_answer(answer) == ["China", "Shanghai", "India", "Delhi", "31", "Tuvalu", "yes"]
    assert flatten_answer(1_412_000_000) == ["1412000000"]
    assert flatten_answer(2.5) == ["2.5"]
    assert flatten_answer("  ") == []


def test_supported_share_counts_sentences_not_citations():
    checks = [
        ("Shanghai is the largest city of China", True),
        ("Delhi is the largest city of India", True),  # cites [2] and [3]: [3] does not support it
        ("Delhi is the largest city of India", False),
        ("Jakarta is in Indonesia", False),
    ]
    # 3 cited sentences: the first supported, the second has one unsupported citation, the third none -> 1 / 3
    assert supported_share(checks) == pytest.approx(1 / 3)
    assert supported_share([]) is None


def test_means_and_medians_leave_out_undefined_values():
    assert mean_of([1.0, None, 0.0, True]) == pytest.approx(2 / 3)  # (1 + 0 + 1) / 3
    assert mean_of([None]) is None
    assert median_of([3.0, None, 1.0, 2.0]) == 2.0
    assert median_of([]) is None


def test_the_mode_summary_by_hand():
    from desktop_app.evaluation.answer_report import format_table, summarize

    def row(cited_recall, precision, not_found, ttft, total):
        return {"recall@10": 1.0, "ndcg@10": 1.0, "cited_recall": cited_recall, "citation_precision": precision, "cites_any": precision is not None,
                "accuracy": None, "all_correct": None, "supported_share": 1.0 if precision is not None else None, "not_found": not_found,
                "first_token_s": ttft, "total_s": total}

    entries = [
        {"modes": {"rag": row(1.0, 1.0, False, 2.0, 5.0)}},
        {"modes": {"rag": row(0.5, 0.5, False, 4.0, 9.0)}},
        {"modes": {"rag": row(0.0, None, True, 1.0, 1.5)}},  # "not found": cites nothing, has no precision
    ]
    (summary,) = summarize(entries, ["rag"])
    assert summary["cited_recall"] == 0.5  # (1 + 0.5 + 0) / 3
    assert summary["citation_precision"] == 0.75 and summary["n_citing"] == 2  # (1 + 0.5) / 2 answers that cite
    assert summary["cites_any"] == pytest.approx(0.6667, abs=1e-4)  # 2 of 3
    assert summary["not_found"] == pytest.approx(0.3333, abs=1e-4)  # 1 of 3
    assert (summary["median_first_token_s"], summary["median_total_s"]) == (2.0, 5.0)  # middle of 1, 2, 4 and of 1.5, 5, 9
    assert summary["accuracy"] is None
    table = format_table([summary], "title", has_gold=False)
    assert "0.500" in table and "(2)" in table
