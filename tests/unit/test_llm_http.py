"""The HTTP generator's stream parsing and error messages, against a tiny local server that misbehaves on purpose.

The real OpenAI-compatible server (llama-cpp-python's) is exercised in tests/integration/test_http_backend.py.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from desktop_app.core.errors import ModelError
from desktop_app.core.library import Library
from desktop_app.core.models.openai_client import API_KEY_ENV, OpenAIHttpGenerator, sse_data
from desktop_app.core.settings import Settings, load_settings
from tests.fakes import HashingEmbedder

MESSAGES = [{"role": "user", "content": "Hello?"}]


def chunk(text: str | None = None, finish: str | None = None) -> bytes:
    delta = {"content": text} if text is not None else {}
    return b"data: " + json.dumps({"choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}).encode() + b"\n\n"


class Scripted(BaseHTTPRequestHandler):
    """Answers /v1/models, and /v1/chat/completions with the server's `reply` (status, content type, body parts)."""

    def log_message(self, *args):  # keep the test output clean
        pass

    def do_GET(self):
        self._send(200, "application/json", [b'{"data": [{"id": "tiny"}]}'])

    def do_POST(self):
        length = int(self.headers.get("Content-Length", 0))
        self.server.requests.append((self.path, dict(self.headers), json.loads(self.rfile.read(length))))
        status, content_type, parts = self.server.reply
        self._send(status, content_type, parts)

    def _send(self, status, content_type, parts):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Connection", "close")
        self.end_headers()
        for part in parts:
            if isinstance(part, float):
                time.sleep(part)  # a silent server
                continue
            self.wfile.write(part)
            self.wfile.flush()


@pytest.fixture
def server():
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Scripted)
    httpd.daemon_threads = True
    httpd.requests = []
    httpd.reply = (200, "text/event-stream", [chunk("Hel"), chunk("lo"), chunk(finish="stop"), b"data: [DONE]\n\n"])
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    httpd.url = f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    yield httpd
    httpd.shutdown()
    httpd.server_close()


def test_sse_events_are_split_on_blank_lines_and_comments_are_skipped():
    lines = [b": ping\r\n", b"data: one\r\n", b"\r\n", b"event: message\n", b"data: two\n", b"data:three\n", b"\n", b"data: last"]
    assert list(sse_data(lines)) == ["one", "two\nthree", "last"]


def test_stream_yields_the_pieces_and_sends_model_stop_and_key(server):
    generator = OpenAIHttpGenerator(server.url, "", api_key="s3cret", timeout=5)
    assert list(generator.stream(MESSAGES, 20, stop=["\n\n"])) == ["Hel", "lo"]
    path, headers, body = server.requests[-1]
    assert path == "/v1/chat/completions"
    assert body["stream"] is True and body["stop"] == ["\n\n"] and body["max_tokens"] == 20
    assert body["model"] == "tiny"  # no model set: the first the server lists
    assert headers["Authorization"] == "Bearer s3cret"
    assert "s3cret" not in repr(generator) and "s3cret" not in generator.name


def test_a_server_that_ignores_stream_true_still_gives_the_answer(server):
    server.reply = (200, "application/json", [json.dumps({"choices": [{"message": {"content": "Whole reply"}}]}).encode()])
    assert list(OpenAIHttpGenerator(server.url, "m", timeout=5).stream(MESSAGES, 10)) == ["Whole reply"]


@pytest.mark.parametrize(
    "reply, expected",
    [
        ((200, "text/event-stream", [b"data: {not json\n\n"]), "not an OpenAI-compatible stream"),
        ((200, "text/event-stream", [chunk("Half")]), "closed in the middle of the answer"),
        ((200, "text/event-stream", [b'data: {"error": {"message": "out of memory"}}\n\n']), "stopped with an error: out of memory"),
        ((500, "application/json", [b'{"error": {"message": "model crashed"}}']), "answered HTTP 500: model crashed"),
        ((404, "application/json", [b'{"detail": "Not Found"}']), "no /v1/chat/completions or no model called 'm'"),
        ((403, "application/json", [b'{"detail": "Forbidden"}']), "needs an API key"),
        ((200, "application/json", [b"<html>a login page</html>"]), "not an OpenAI-compatible stream"),
    ],
)
def test_server_failures_become_errors_that_say_what_to_do(server, reply, expected):
    server.reply = reply
    with pytest.raises(ModelError) as caught:
        list(OpenAIHttpGenerator(server.url, "m", timeout=5).stream(MESSAGES, 10))
    assert expected in str(caught.value)
    assert caught.value.hint  # and what to do about it


def test_a_silent_server_times_out_with_a_clear_error(server):
    server.reply = (200, "text/event-stream", [chunk("Hi"), 3.0, chunk(finish="stop")])
    pieces = OpenAIHttpGenerator(server.url, "m", timeout=0.5).stream(MESSAGES, 10)
    assert next(pieces) == "Hi"
    with pytest.raises(ModelError, match="sent nothing for 0.5 s"):
        next(pieces)


def test_nothing_listening_names_the_address_and_what_to_do():
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed again: nothing listens there
    url = f"http://127.0.0.1:{port}/v1"
    with pytest.raises(ModelError) as caught:
        OpenAIHttpGenerator(url, timeout=5).complete(MESSAGES, 5)
    assert url in caught.value.user_message()
    assert "Start the server or check the address in Settings" in caught.value.user_message()


def test_a_bad_address_is_refused_before_any_connection():
    with pytest.raises(ModelError, match="not a server address"):
        OpenAIHttpGenerator("127.0.0.1:8000/v1")


def test_count_tokens_estimates_when_the_server_has_no_tokenizer(server):
    server.reply = (404, "application/json", [b'{"detail": "Not Found"}'])
    generator = OpenAIHttpGenerator(server.url, "m", timeout=5)
    assert generator.count_tokens("x" * 40) == 10
    asked = len(server.requests)
    assert generator.count_tokens("y" * 8) == 2
    assert len(server.requests) == asked  # remembered: no second round of probing


def test_the_library_uses_the_server_only_when_chosen(data_home, monkeypatch):
    library = Library(data_home, embedder=HashingEmbedder())
    assert library.settings.llm_backend == "local"  # the default never touches the network
    library.update_settings(library.settings.replace(llm_backend="http", llm_url="http://127.0.0.1:9/v1", llm_http_model="qwen", llm_api_key="saved"))
    generator = library.generator()  # built without connecting: the first question checks the server
    assert isinstance(generator, OpenAIHttpGenerator)
    assert (generator.base_url, generator.model, generator._api_key) == ("http://127.0.0.1:9/v1", "qwen", "saved")
    assert load_settings(data_home).llm_url == "http://127.0.0.1:9/v1"
    assert "saved" not in repr(library.settings)
    monkeypatch.setenv(API_KEY_ENV, "from-env")
    library.update_settings(library.settings.replace(llm_http_model="other"))
    assert library.generator()._api_key == "from-env"  # the environment wins over the saved key
    assert library.model_label() == "other at http://127.0.0.1:9/v1"
    library.update_settings(library.settings.replace(llm_backend="local"))
    assert library._generator is None  # the local model loads again on the next question
    library.close()


def test_an_http_backend_needs_an_address():
    with pytest.raises(ValueError, match="http://"):
        Settings(llm_backend="http", llm_url="").validated()
    with pytest.raises(ValueError, match="backend"):
        Settings(llm_backend="cloud").validated()


def logprobs_reply(top: list[tuple[str, float]]) -> tuple:
    content = [{"token": top[0][0], "logprob": top[0][1], "top_logprobs": [{"token": t, "logprob": lp} for t, lp in top]}]
    return (200, "application/json", [json.dumps({"choices": [{"message": {"content": top[0][0]}, "logprobs": {"content": content}}]}).encode()])


def test_a_server_that_gives_logprobs_gives_the_question_checks_odds_in_one_request(server):
    import math

    from desktop_app.core.answers.model_check import Doubt, ModelCheck

    server.reply = logprobs_reply([("No", math.log(0.8)), (" no", math.log(0.05)), ("Yes", math.log(0.1)), ("The", math.log(0.05))])
    generator = OpenAIHttpGenerator(server.url, "m", timeout=5)
    odds = generator.reply_odds(MESSAGES, ("yes", "no"))
    assert odds == pytest.approx({"yes": 0.1, "no": 0.85})
    body = server.requests[-1][2]
    assert body["logprobs"] is True and body["top_logprobs"] >= 5 and body["max_tokens"] == 1 and body["stream"] is False
    # A sure no (0.85 / 0.95 > REFUSE_ABOVE) refuses when asked to: the same as the local model, one request.
    before = len(server.requests)
    assert ModelCheck(generator, refuse_when_sure=True).doubt("Who built it?", "Lighthouse: It weighs 3 t.") is Doubt.SURE
    assert len(server.requests) == before + 1


def test_a_server_without_logprobs_is_asked_for_a_reply_and_not_for_odds_again(server):
    from desktop_app.core.answers.model_check import Doubt, ModelCheck

    server.reply = (200, "application/json", [json.dumps({"choices": [{"message": {"content": "No"}}]}).encode()])
    generator = OpenAIHttpGenerator(server.url, "m", timeout=5)
    check = ModelCheck(generator, refuse_when_sure=True)
    assert check.doubt("Who built it?", "Lighthouse: It weighs 3 t.") is Doubt.SOME  # a plain reply's no only flags
    asked = [body.get("logprobs") for _, _, body in server.requests if "messages" in body]
    assert asked == [True, None]  # odds asked once, then the reply
    assert check.doubt("Who built it?", "Lighthouse: It weighs 3 t.") is Doubt.SOME
    assert [body.get("logprobs") for _, _, body in server.requests if "messages" in body] == [True, None, None]
