"""The embeddings-server client's own rules, over httpx's MockTransport: batches, how many at once, retries, errors.

The real server is tests/integration/test_embeddings_server.py.
"""

from __future__ import annotations

import json
import threading
import time

import httpx
import numpy as np
import pytest

from desktop_app.core.errors import ModelError
from desktop_app.core.models.http_embedder import HttpEmbedder

DIM = 4


def vector_for(text: str) -> list[float]:
    """Not unit length (servers differ), and the same for the same text."""
    seed = sum(map(ord, text))
    return [float(seed % 7 + 1), float(seed % 5), 2.0, float(len(text))]


class FakeServer:
    def __init__(self, failures: list[int] = (), delay: float = 0.0):
        self.failures = list(failures)  # statuses to answer before answering properly
        self.delay = delay
        self.batches: list[list[str]] = []
        self.in_flight = 0
        self.most_in_flight = 0
        self.lock = threading.Lock()

    def __call__(self, request: httpx.Request) -> httpx.Response:
        with self.lock:
            if self.failures:
                return httpx.Response(self.failures.pop(0), json={"error": {"message": "busy"}})
            self.in_flight += 1
            self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            time.sleep(self.delay)
            texts = json.loads(request.content)["input"]
            with self.lock:
                self.batches.append(texts)
            # Rows in reverse order, each with its index: the client must put them back.
            rows = [{"index": i, "embedding": vector_for(t)} for i, t in enumerate(texts)][::-1]
            return httpx.Response(200, json={"data": rows})
        finally:
            with self.lock:
                self.in_flight -= 1


def embedder(server: FakeServer, **options) -> tuple[HttpEmbedder, list[float]]:
    sleeps: list[float] = []
    defaults = dict(model="fake-model", dimension=DIM, batch_size=3, concurrency=2, sleep=sleeps.append, transport=httpx.MockTransport(server))
    defaults.update(options)
    return HttpEmbedder("http://embeddings.invalid/v1", **defaults), sleeps


def test_texts_go_in_batches_at_most_concurrency_at_once_and_come_back_in_order_unit_length():
    server = FakeServer(delay=0.05)
    client, _ = embedder(server)
    texts = [f"passage number {i}" for i in range(10)]
    vectors = client.embed(texts)
    assert vectors.shape == (10, DIM)
    assert sorted(len(b) for b in server.batches) == [1, 3, 3, 3]
    assert server.most_in_flight == 2
    expected = np.array([vector_for(t) for t in texts], dtype=np.float32)
    expected /= np.linalg.norm(expected, axis=1, keepdims=True)
    np.testing.assert_allclose(vectors, expected, rtol=1e-6)


def test_a_busy_server_is_asked_again_after_growing_pauses():
    server = FakeServer(failures=[503, 429])
    client, sleeps = embedder(server)
    assert client.embed(["one"]).shape == (1, DIM)
    assert sleeps == [0.5, 1.0]


def test_a_server_that_stays_busy_fails_with_its_words_after_the_last_attempt():
    server = FakeServer(failures=[503] * 10)
    client, sleeps = embedder(server, attempts=3)
    with pytest.raises(ModelError, match="HTTP 503: busy"):
        client.embed(["one"])
    assert sleeps == [0.5, 1.0]


def test_a_refused_key_is_not_retried():
    server = FakeServer(failures=[401])
    client, sleeps = embedder(server)
    with pytest.raises(ModelError, match="needs an API key") as caught:
        client.embed(["one"])
    assert "DESKTOP_APP_EMBED_API_KEY" in caught.value.hint
    assert sleeps == []


def test_vectors_of_another_length_than_the_library_s_are_refused():
    client, _ = embedder(FakeServer(), dimension=384)
    with pytest.raises(ModelError, match="vectors of 4 numbers; this library's have 384"):
        client.embed(["one"])


def test_the_length_is_learned_from_the_server_when_the_library_has_none():
    client, _ = embedder(FakeServer(), dimension=None)
    assert client.dimension == DIM
    assert client.name == "server:fake-model"


def test_one_vector_per_word_piece_is_refused_with_what_to_do():
    def per_token(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"data": [{"index": 0, "embedding": [[0.1, 0.2], [0.3, 0.4]]}]})

    client = HttpEmbedder("http://embeddings.invalid/v1", dimension=2, transport=httpx.MockTransport(per_token))
    with pytest.raises(ModelError, match="one vector per word piece") as caught:
        client.embed(["one"])
    assert "--pooling mean" in caught.value.hint


def test_vectors_are_asked_as_base64_and_read_in_either_form():
    """OpenAI's base64 encoding (little-endian float32) is a quarter of the bytes of decimal floats; a server that
    ignores the option and sends floats gives the same vectors."""
    import base64

    asked: list[str] = []

    def base64_server(request: httpx.Request) -> httpx.Response:
        payload = json.loads(request.content)
        asked.append(payload["encoding_format"])
        rows = [{"index": i, "embedding": base64.b64encode(np.asarray(vector_for(t), dtype="<f4").tobytes()).decode()} for i, t in enumerate(payload["input"])]
        return httpx.Response(200, json={"data": rows})

    texts = ["pump", "valve", "reservoir", "intake"]
    from_base64 = HttpEmbedder("http://embeddings.invalid/v1", model="fake-model", dimension=DIM, transport=httpx.MockTransport(base64_server)).embed(texts)
    from_floats, _ = embedder(FakeServer())
    assert set(asked) == {"base64"}
    np.testing.assert_allclose(from_base64, from_floats.embed(texts), rtol=1e-6)
    expected = np.asarray(vector_for("pump")) / np.linalg.norm(vector_for("pump"))
    np.testing.assert_allclose(from_base64[0], expected, rtol=1e-6)


@pytest.mark.parametrize("url, here", [("http://localhost:8080/v1", True), ("http://127.0.0.1:11434/v1", True), ("http://[::1]:8080/v1", True), ("https://gpu-box.example:8080/v1", False), ("http://10.0.0.7/v1", False)])
def test_a_server_on_this_computer_gets_one_batch_at_a_time(url, here):
    """Batches sent at once to a server sharing the laptop's cores only compete for them."""
    from desktop_app.core.models.model_files import configured_embedder
    from desktop_app.core.settings import Settings

    opened = configured_embedder(Settings(embedder_backend="http", embed_url=url, embed_http_model="m", embed_concurrency=4), None, "m/4")
    assert opened.concurrency == (1 if here else 4)


def test_a_server_reads_a_ligature_as_its_letters_as_the_local_embedder_does():
    server = FakeServer()
    client, _ = embedder(server)
    client.embed(["Clean the ﬁlter of the air ﬂow sensor."])
    assert server.batches == [["Clean the filter of the air flow sensor."]]
