"""RAG-Fusion alternates two prompts; their fixed prefixes must not be re-read for every question."""

from __future__ import annotations

import shutil

import pytest

from desktop_app.core.answers import prompts
from desktop_app.core.retrieval.query_styles import query_messages
from tests.token_counting import tokens_read

pytestmark = pytest.mark.integration


def answer_prompt(question):
    passage = "The PX-40 pump's filter must be replaced every 500 operating hours. " * 12
    return [
        {"role": "system", "content": prompts.ANSWER_SYSTEM},
        {"role": "user", "content": f"Passages:\n\n[1] (from px40.pdf)\n{passage}\n\nQuestion: {question}"},
    ]


def test_query_prompt_prefix_survives_an_answer_in_between(real_generator, data_home):
    first = "Which rivers flow through Vienna and Budapest?"
    second = "What is the population of the capitals of France and Germany?"
    # The session's model has served other tests: start from an empty cache and no snapshots.
    real_generator._snapshots.clear()
    real_generator.forget_context()
    _, cold = tokens_read(real_generator, query_messages(first, 4))
    tokens_read(real_generator, answer_prompt(first))  # the answer overwrites llama.cpp's one KV cache

    queries, warm = tokens_read(real_generator, query_messages(second, 4))

    question_tokens = real_generator.count_tokens(second)
    # Only the new question (plus chat markup) and the reply are read; the ~200-token instructions and examples are not.
    assert warm < question_tokens + 24 + 16 < cold
    # Restoring the snapshot must not change what the model writes (a fresh read: no snapshot in memory or on disk).
    real_generator._snapshots.clear()
    real_generator.load().reset()
    shutil.rmtree(data_home / "prefix-cache", ignore_errors=True)
    fresh, _ = tokens_read(real_generator, query_messages(second, 4))
    assert queries == fresh and "Paris" in queries  # the capital named, not the country
