"""The "Words copied ahead when quoting" setting (prompt-lookup decoding) must answer on any prompt length."""

from __future__ import annotations

import pytest

from desktop_app.core.answers import prompts
from desktop_app.core.models.llm import LlamaGenerator

pytestmark = pytest.mark.integration


def test_guess_ahead_answers_a_prompt_longer_than_one_batch(default_model_path, data_home):
    passage = (
        "The PX-40 is a centrifugal pump for clean water, rated for 40 litres per minute at 3 bar. "
        "Its housing is cast iron with a stainless steel shaft, and the motor runs on 230 V at 50 Hz. "
        "Install the pump on a level base and prime it with water before the first start. "
        "Do not run the pump dry: the shaft seal is cooled by the pumped water and fails within minutes without it. "
        "The inlet filter must be replaced every 500 operating hours, or sooner when the flow drops by a quarter. "
        "Drain the pump before frost; water left in the housing can crack the casting. "
        "The warranty covers manufacturing defects for two years from the date of purchase."
    )
    messages = [
        {"role": "system", "content": prompts.answer_system(False)},
        {
            "role": "user",
            "content": f"Passages:\n\n[1] (from px40.pdf, page 3)\n{passage}\n\nQuestion: How often must the PX-40 filter be replaced?\n\n"
            "Answer the question in a full sentence, citing the passages like [1].",
        },
    ]
    # A small batch makes this short prompt cross n_batch, as a real answer prompt and its answer cross the default 512.
    guessing = LlamaGenerator(default_model_path, n_ctx=1024, n_batch=64, prompt_lookup_tokens=2, persist_prefixes=False)
    assert guessing.count_tokens(messages[1]["content"]) > 2 * 64
    answer = guessing.complete(messages, max_tokens=24)
    # The answer states the passage's fact. (Not compared word for word with the plain model's: verifying drafted
    # tokens in a batch rounds differently, and bench.llama_levers saw a greedy answer change with 5 guessed tokens.)
    assert "500" in answer
