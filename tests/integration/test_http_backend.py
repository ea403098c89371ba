"""The OpenAI-compatible HTTP backend against a real server: llama-cpp-python's own, serving SmolLM2 on 127.0.0.1."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from desktop_app.core.errors import ModelError
from desktop_app.core.events import AnswerDone, EvidenceSelected, QueriesGenerated, SourcesRanked, StageStarted, Token
from desktop_app.core.library import Library
from desktop_app.core.models.openai_client import API_KEY_ENV, OpenAIHttpGenerator
from desktop_app.core.settings import Settings
from desktop_app.sample_datasheet import write_sample_datasheet
from tests.integration.conftest import free_port

pytestmark = pytest.mark.integration

QUESTION = "What is the maximum operating temperature of the PX-40 pump?"


def generator_for(server, **changes) -> OpenAIHttpGenerator:
    options = dict(base_url=server.url, model=server.model, api_key=server.api_key, timeout=120)
    options.update(changes)
    return OpenAIHttpGenerator(**options)


def wait_for(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return condition()


def test_streaming_arrives_in_pieces_that_add_up_to_the_non_streamed_reply(llama_server):
    generator = generator_for(llama_server)
    assert llama_server.model in generator.load()
    messages = [{"role": "user", "content": "What is the capital of France? Answer in one sentence."}]
    # llama.cpp's first read of a prompt can differ in the last bits from a cached re-read; read it once
    # so the streamed and the non-streamed reply start from the same cache (both greedy at temperature 0).
    generator.complete(messages, max_tokens=1)
    pieces = list(generator.stream(messages, max_tokens=24))
    whole = generator.complete(messages, max_tokens=24)
    assert len(pieces) >= 3, pieces
    assert "".join(pieces) == whole
    assert whole.strip()  # what the model says is its business; the stream must add up to it
    assert generator.count_tokens("Paris is the capital of France.") >= 5  # the server's own tokenizer
    # The question check's odds come from the server's logprobs, as from the local model's probabilities.
    odds = generator.reply_odds([{"role": "user", "content": "Is Paris the capital of France? Reply yes or no."}], ("yes", "no"))
    assert odds is not None and 0 < odds["yes"] + odds["no"] <= 1.0001  # the tiny model spreads its odds wide


def test_closing_the_stream_early_disconnects_and_the_server_stops(llama_server):
    generator = generator_for(llama_server)
    disconnects = llama_server.log_text().count("Disconnected from client")
    stream = generator.stream([{"role": "user", "content": "Write a very long story about a dragon and a lighthouse."}], max_tokens=1500)
    first = [next(stream) for _ in range(3)]
    stream.close()  # what the Stop button does
    assert all(first)
    assert wait_for(lambda: llama_server.log_text().count("Disconnected from client") > disconnects, 60), llama_server.log_text()[-2000:]
    # The server is free again at once, not still writing 1,500 tokens for nobody.
    assert generator.complete([{"role": "user", "content": "Say OK."}], max_tokens=4).strip()


def test_a_whole_question_through_the_server(llama_server, real_embedder, data_home, tmp_path):
    settings = Settings(llm_backend="http", llm_url=llama_server.url, llm_http_model=llama_server.model, llm_api_key=llama_server.api_key, n_queries=2, max_queries=2, max_answer_tokens=60)
    library = Library(data_home, settings=settings, embedder=real_embedder)
    pdf = write_sample_datasheet(tmp_path / "px40.pdf")
    assert [e.stage for e in library.import_paths([pdf])][-1] == "ready"
    requests_before = llama_server.log_text().count("POST /v1/chat/completions")
    events = list(library.ask(QUESTION, "fusion"))
    library.close()

    kinds = [type(e) for e in events if not isinstance(e, StageStarted)]  # the steps the window shows while it waits
    # A first look at the question's own finds, then the server's queries, the fused passages and their quotes.
    assert kinds[:4] == [EvidenceSelected, QueriesGenerated, SourcesRanked, EvidenceSelected] and kinds[-1] is AnswerDone
    tokens = [e.text for e in events if isinstance(e, Token)]
    assert tokens and "".join(tokens).strip()
    result = events[-1].result
    assert result.answer.strip() and result.timings.first_token > 0
    assert any(s.passage.page == 4 for s in result.context)  # the temperature limits are on page 4
    assert isinstance(library.generator(), OpenAIHttpGenerator)
    # Both the queries and the answer came from the server (the local model was never needed).
    assert llama_server.log_text().count("POST /v1/chat/completions") >= requests_before + 2


def test_wrong_key_and_missing_v1_are_explained(llama_server):
    with pytest.raises(ModelError, match="refused the API key") as caught:
        generator_for(llama_server, api_key="wrong").complete([{"role": "user", "content": "Hi"}], 2)
    assert API_KEY_ENV in caught.value.user_message()
    assert "wrong" not in caught.value.user_message()
    without_v1 = llama_server.url.removesuffix("/v1")
    with pytest.raises(ModelError, match="HTTP 404") as caught:
        list(generator_for(llama_server, base_url=without_v1).stream([{"role": "user", "content": "Hi"}], 2))
    assert "ends in /v1" in caught.value.user_message()


def cli(*args, env=None, timeout=600):
    return subprocess.run([sys.executable, "-m", "desktop_app.cli", *args], capture_output=True, text=True, timeout=timeout, env=env)


def test_cli_ask_streams_the_servers_answer_and_explains_a_dead_address(llama_server, tmp_path):
    env = dict(os.environ, **{API_KEY_ENV: llama_server.api_key})  # the key never goes on the command line
    pdf = write_sample_datasheet(tmp_path / "px40.pdf")
    assert cli("ingest", str(pdf), env=env).returncode == 0

    requests_before = llama_server.log_text().count("POST /v1/chat/completions")
    out = cli("ask", QUESTION, "--mode", "rag", "--llm-url", llama_server.url, "--llm-model", llama_server.model, env=env)
    assert out.returncode == 0, out.stderr
    assert "Fused passages (RRF):" in out.stdout and "Answer:" in out.stdout
    answer = out.stdout.split("Answer:", 1)[1]
    assert answer.strip() and "first token after" in answer
    # Plain RAG writes no queries: the answer, then its question check (answers/model_check.py), one request for
    # the first token's odds (logprobs) per sentence it reads, until one answers (review.DOUBTED at most), and the
    # claim check for a sentence the words fail (review.MAX_REREADS at most; a sentence citing nothing is read
    # against its line's closing citation too).
    from desktop_app.core.answers.review import DOUBTED, MAX_REREADS

    assert requests_before + 2 <= llama_server.log_text().count("POST /v1/chat/completions") <= requests_before + 1 + DOUBTED + MAX_REREADS
    assert llama_server.api_key not in out.stdout + out.stderr

    dead = f"http://127.0.0.1:{free_port()}/v1"
    out = cli("ask", QUESTION, "--llm-url", dead, "--json", env=env)
    assert out.returncode == 2
    assert out.stderr.startswith(f"Error: Nothing answered at {dead}"), out.stderr
    assert "Start the server or check the address in Settings" in out.stderr
    assert "Traceback" not in out.stderr
    assert json.loads(out.stdout or "null") is None  # no half result on stdout
