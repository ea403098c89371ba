"""Shared set-up for the reliability tests: real bad files from ocrmypdf's test suite, libraries with fast fakes."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

import pytest

from desktop_app.core.library import Library
from desktop_app.sample_datasheet import write_sample_datasheet
from tests.fakes import HashingEmbedder, ScriptedGenerator

REPO = Path(__file__).resolve().parents[2]
OCRMYPDF_VERSION = "17.13.0"
# Downloaded on first use, never committed (.cache is gitignored).
OCRMYPDF_CACHE = REPO / ".cache" / f"ocrmypdf-{OCRMYPDF_VERSION}-resources"


def fetch_ocrmypdf_resources() -> Path:
    """ocrmypdf's tests/resources/*.pdf, from its source distribution on PyPI, cached."""
    done = OCRMYPDF_CACHE / ".complete"
    if done.exists():
        return OCRMYPDF_CACHE
    with tempfile.TemporaryDirectory() as tmp:
        # --no-binary for ocrmypdf only: its build backend may come as a wheel, which is much faster.
        cmd = [sys.executable, "-m", "pip", "download", "--no-binary", "ocrmypdf", "--no-deps", f"ocrmypdf=={OCRMYPDF_VERSION}", "-d", tmp, "-q"]
        result = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        archives = list(Path(tmp).glob("ocrmypdf-*.tar.gz"))
        if result.returncode != 0 or not archives:
            pytest.fail(f"could not download ocrmypdf's test PDFs from PyPI: {result.stderr[-2000:]}")
        staging = OCRMYPDF_CACHE.with_name(OCRMYPDF_CACHE.name + ".partial")
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir(parents=True)
        with tarfile.open(archives[0]) as tar:
            for member in tar.getmembers():
                parts = Path(member.name).parts
                if member.isfile() and parts[1:3] == ("tests", "resources") and member.name.endswith(".pdf"):
                    with tar.extractfile(member) as src:
                        (staging / Path(member.name).name).write_bytes(src.read())
        shutil.rmtree(OCRMYPDF_CACHE, ignore_errors=True)
        staging.rename(OCRMYPDF_CACHE)
        done.touch()
    return OCRMYPDF_CACHE


@pytest.fixture(scope="session")
def ocrmypdf_pdfs() -> dict[str, Path]:
    folder = fetch_ocrmypdf_resources()
    return {p.name: p for p in sorted(folder.glob("*.pdf"))}


@pytest.fixture
def fake_library(data_home):
    lib = Library(data_home, embedder=HashingEmbedder(), generator=ScriptedGenerator())
    yield lib
    lib.close()


@pytest.fixture
def datasheet(tmp_path) -> Path:
    return write_sample_datasheet(tmp_path / "kept" / "px40.pdf")


def snapshot(library: Library) -> tuple:
    """What a user has in the library: documents and their chunk texts, and the index contents."""
    docs = tuple((d.id, d.path, d.title, d.pages, d.chunks, d.status) for d in library.documents())
    chunks = tuple(library.store.conn.execute("SELECT id, document_id, page, text FROM chunks ORDER BY id").fetchall())
    return docs, chunks


def assert_index_matches_sqlite(library: Library) -> None:
    labels = [int(x) for x in library.index._index.get_ids_list()]
    live = [x for x in labels if x not in library.index._deleted]
    assert len(live) == len(set(live)), "a chunk is in the index twice"
    # Every embedded chunk, once; chunks of a document still being embedded are found by keyword meanwhile.
    assert set(live) == set(library.store.embedded_chunk_ids())
    ready = [d.id for d in library.documents() if d.status == "ready"]
    assert not library.store.pending_among(library.store.chunk_ids_of_documents(ready)), "a 'ready' document lacks vectors"


def terminal_events(events) -> dict[str, object]:
    """The last word on each file: ready, skipped, failed or cancelled."""
    out = {}
    for e in events:
        if e.stage in ("ready", "skipped", "failed", "cancelled"):
            assert e.file not in out, f"{e.file} got two final events"
            out[e.file] = e
    return out


def subprocess_env(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["DESKTOP_APP_HOME"] = str(home)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    return env
