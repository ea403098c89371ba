"""Paired differences between modes, as bench/paired_difference.py computes them from an eval JSON."""

from __future__ import annotations

from bench.paired_difference import bootstrap_interval, metrics_in, paired_differences

QUESTIONS = [
    {"modes": {"rag": {"cited_recall": 0.5, "citation_precision": 1.0}, "fusion": {"cited_recall": 1.0, "citation_precision": 0.5}}},
    {"modes": {"rag": {"cited_recall": 0.0, "citation_precision": None}, "fusion": {"cited_recall": 0.5, "citation_precision": 1.0}}},
    {"modes": {"rag": {"cited_recall": 0.25, "citation_precision": 1.0}}},  # fusion did not answer it: no pair
]


def test_pairs_skip_questions_without_a_value_in_either_mode():
    assert paired_differences(QUESTIONS, "fusion", "rag", "cited_recall") == [0.5, 0.5]  # 1.0 - 0.5, 0.5 - 0.0
    # rag cited nothing on the 2nd question, so it has no precision there: only the 1st pairs (0.5 - 1.0)
    assert paired_differences(QUESTIONS, "fusion", "rag", "citation_precision") == [-0.5]


def test_the_answer_metrics_in_a_file_are_found():
    assert metrics_in(QUESTIONS) == ["cited_recall", "citation_precision"]


def test_bootstrap_interval_of_a_constant_is_that_constant():
    assert bootstrap_interval([0.5, 0.5, 0.5]) == (0.5, 0.5)
