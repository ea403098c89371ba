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


@pytest.fixture(scope="session")
def postgres_cluster():
    """A throwaway PostgreSQL cluster with pgvector for the session (tests/postgres_cluster.py), or a skip saying why."""
    from tests.postgres_cluster import ThrowawayCluster, missing_reason

    reason = missing_reason()
    if reason:
        pytest.skip(f"PostgreSQL library tests skipped: {reason}")
    with ThrowawayCluster() as running:
        yield running


@pytest.fixture
def database(postgres_cluster) -> str:
    """A new, empty database in the session's cluster: its postgresql:// address."""
    import uuid

    return postgres_cluster.create_database(f"library_{uuid.uuid4().hex[:8]}")
