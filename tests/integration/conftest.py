"""Integration tests run the real default models: MiniLM embeddings and the bundled Qwen2.5 1.5B GGUF."""

from __future__ import annotations

import pytest

from desktop_app.core.catalog import load_catalog
from desktop_app.core.model_files import resolve_llm


@pytest.fixture(scope="session")
def default_model_path():
    # Assembled once per machine into DESKTOP_APP_MODELS_DIR (make test prepares it first).
    return resolve_llm(load_catalog().default_llm)


@pytest.fixture(scope="session")
def real_generator(default_model_path):
    from desktop_app.core.llm import LlamaGenerator

    generator = LlamaGenerator(default_model_path, n_ctx=4096)
    generator.load()
    return generator


@pytest.fixture(scope="session")
def real_embedder():
    from desktop_app.core.catalog import load_catalog
    from desktop_app.core.embedder import SentenceTransformerEmbedder
    from desktop_app.core.model_files import embedder_folder

    catalog = load_catalog()
    entry = catalog.embedder(catalog.default_embedder)
    embedder = SentenceTransformerEmbedder(embedder_folder(catalog), entry.name, entry.dimension)
    embedder.load()
    return embedder
