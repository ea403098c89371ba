"""Embeddings from a real server process: bench/embeddings_server.py serving the bundled MiniLM over HTTP on 127.0.0.1
(FastAPI/uvicorn; no PyPI package ships an embedding GGUF for llama-cpp-python's server). The app talks to it as to
any OpenAI-compatible /v1/embeddings: Ollama, vLLM, llama.cpp's server, text-embeddings-inference, infinity.
"""

from __future__ import annotations

import numpy as np
import pytest

from desktop_app.core.errors import ModelError
from desktop_app.core.library import Library
from desktop_app.core.settings import Settings, load_settings
from tests.document_files import write_town_report
from tests.integration.conftest import free_port

pytestmark = pytest.mark.integration

def server_settings(server, **changes) -> Settings:
    return Settings(embedder_backend="http", embed_url=server.url, embed_http_model=server.model, embed_batch_size=8, **changes)


def test_an_import_through_the_server_finds_passages_by_meaning_as_the_local_model_does(embeddings_server, real_embedder, data_home, tmp_path):
    library = Library(data_home, settings=server_settings(embeddings_server))
    assert library.embedder.name == "server:all-minilm-l6-v2-int8" and library.embedder.dimension == 384
    pdf = write_town_report(tmp_path / "towns.pdf", pages=6)
    assert [e.stage for e in library.import_paths([pdf])][-1] == "ready"
    assert library.index_backlog().pending == 0

    question = "How often are the filters in Ostrelle washed?"
    hits = library.index.search(library.embedder.embed([question])[0], 3)
    best = library.passage(hits[0].chunk_id)
    assert "Ostrelle" in best.text
    # The same model behind HTTP: the vectors are the local ones (batches pad differently: not bit for bit).
    ids, stored = next(library.store.embeddings())
    local = real_embedder.embed([library.passage(i).text for i in ids])
    assert float(np.min(np.sum(stored * local, axis=1))) > 0.999
    library.close()


def test_an_import_stops_clearly_when_the_server_goes_away_and_goes_on_from_there_when_it_is_back(embeddings_server, data_home, tmp_path):
    library = Library(data_home, settings=server_settings(embeddings_server))
    pdf = write_town_report(tmp_path / "towns.pdf", pages=30)
    events = []
    for event in library.import_paths([pdf]):
        events.append(event)
        if event.stage == "indexing" and embeddings_server.process is not None:
            embeddings_server.stop()  # after the first batch is committed
    warnings = [e for e in events if e.stage == "warning"]
    assert len(warnings) == 1, [e.stage for e in events]
    assert "Nothing answered at " + embeddings_server.url in warnings[0].message
    assert "Indexing stopped" in warnings[0].message
    assert "ready" not in [e.stage for e in events]
    backlog = library.index_backlog()
    embedded_before = backlog.total - backlog.pending
    assert 0 < embedded_before < backlog.total  # the batches before the stop are kept
    # Meanwhile the passages are found by their words.
    assert library.store.keyword_search("Dunmarrow reservoir", 5)

    embeddings_server.start()
    resumed = list(library.embedding_queue().run())
    assert resumed[-1].stage == "ready"
    first_indexing = next(e for e in resumed if e.stage == "indexing")
    assert first_indexing.total == backlog.pending  # it goes on from where it stopped, not from the start
    assert library.index_backlog().pending == 0
    assert len(library.documents()) == 1 and library.documents()[0].status == "ready"
    assert library.store.embedded_chunk_ids() == library.store.chunk_ids()
    assert len(library.index) == backlog.total
    library.close()


def test_switching_to_the_server_embeds_every_passage_again_with_progress(embeddings_server, data_home, tmp_path):
    library = Library(data_home, settings=Settings(embed_batch_size=16))
    assert library.embedder.name == "all-minilm-l6-v2-int8"
    assert [e.stage for e in library.import_paths([write_town_report(tmp_path / "towns.pdf", pages=4)])][-1] == "ready"
    total = library.index_backlog().total

    notice = library.update_settings(server_settings(embeddings_server))
    assert notice and "server:all-minilm-l6-v2-int8" in notice and f"{total} passages" in notice
    assert library.index_backlog().pending == total
    progress = [e for e in library.embedding_queue().run() if e.stage == "indexing"]
    assert progress[-1].done == total and progress[-1].total == total
    assert library.index_backlog().pending == 0
    library.close()

    reopened = Library(data_home)  # the choice was saved; the server's vector length comes from the library, not the network
    assert reopened.embedder.name == "server:all-minilm-l6-v2-int8" and reopened.notices == []
    reopened.close()


def test_a_server_that_does_not_answer_leaves_the_settings_as_they_were(data_home):
    library = Library(data_home)
    dead = Settings(embedder_backend="http", embed_url=f"http://127.0.0.1:{free_port()}/v1", embed_http_model="nothing-here")
    with pytest.raises(ModelError, match="Nothing answered at http://127.0.0.1"):
        library.update_settings(dead)
    assert library.settings.embedder_backend == "local" and library.embedder.name == "all-minilm-l6-v2-int8"
    library.close()


def test_the_cli_imports_through_a_server_named_by_its_flags(embeddings_server, data_home, tmp_path, capsys):
    from desktop_app.cli import main
    from desktop_app.cli.session import _OPEN

    pdf = write_town_report(tmp_path / "towns.pdf", pages=2)
    try:
        assert main(["ingest", str(pdf), "--embed-url", embeddings_server.url, "--embed-model", embeddings_server.model]) == 0
        library = _OPEN["library"]
        assert library.store.embedding_model() == f"server:{embeddings_server.model}/384"
        assert library.index_backlog().pending == 0
        assert load_settings(data_home).embed_url == embeddings_server.url  # saved: a later command keeps the library's model
    finally:
        _OPEN.pop("library", None)
    dead = f"http://127.0.0.1:{free_port()}/v1"
    try:
        assert main(["ingest", str(pdf), "--embed-url", dead, "--embed-model", "elsewhere"]) == 2
    finally:
        _OPEN.pop("library", None)
    assert f"Error: Nothing answered at {dead}" in capsys.readouterr().err
