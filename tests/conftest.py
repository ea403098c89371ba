"""Every test gets its own data folder; model files are shared and come from local packages only."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("DESKTOP_APP_MODELS_DIR", str(REPO / ".cache" / "models"))


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv("DESKTOP_APP_HOME", str(home))
    return home


# The real default models, loaded once per test session and shared by the integration and UI tests.
@pytest.fixture(scope="session")
def default_model_path():
    from desktop_app.core.models.catalog import load_catalog
    from desktop_app.core.models.model_files import resolve_llm

    # Assembled once per machine into DESKTOP_APP_MODELS_DIR (make test prepares it first).
    return resolve_llm(load_catalog().default_llm)


@pytest.fixture(scope="session")
def real_generator(default_model_path):
    from desktop_app.core.models.llm import LlamaGenerator

    generator = LlamaGenerator(default_model_path, n_ctx=4096)
    generator.load()
    return generator


@pytest.fixture(scope="session")
def real_embedder():
    from desktop_app.core.models.model_files import open_embedder

    embedder = open_embedder()  # the bundled default
    embedder.load()
    return embedder


@pytest.fixture
def embeddings_server(tmp_path):
    if importlib.util.find_spec("uvicorn") is None or importlib.util.find_spec("fastapi") is None:
        pytest.fail("the embeddings server needs the dev extra: pip install -e '.[dev]'")
    from tests.embeddings_server_process import EmbeddingsServer

    server = EmbeddingsServer(tmp_path / "embeddings-server.log")
    server.start()
    try:
        yield server
    finally:
        server.stop()
