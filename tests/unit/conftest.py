"""Fast fixtures: a real library (SQLite, hnswlib, PDFs) with scripted fake models."""

from __future__ import annotations

import pytest

from desktop_app.core.library import Library
from tests.fakes import HashingEmbedder, ScriptedGenerator


@pytest.fixture
def generator() -> ScriptedGenerator:
    return ScriptedGenerator()


@pytest.fixture
def empty_library(data_home, generator):
    lib = Library(data_home, embedder=HashingEmbedder(), generator=generator)
    yield lib
    lib.close()
