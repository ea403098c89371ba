"""Nothing leaves the machine: import and ask with every network connection refused; the data folder is private."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys

import pytest

from desktop_app.core.storage import paths
from tests.reliability.conftest import REPO, subprocess_env

OFFLINE_RUN = r"""
import json, socket, sys

attempts = []

def refuse(*args, **kwargs):
    attempts.append(repr(args[1:2] or args[:1]))
    raise OSError("network access is disabled for this test")

# Patched before anything of the app (or torch, transformers, llama.cpp) is imported.
socket.socket.connect = refuse
socket.socket.connect_ex = refuse
socket.create_connection = refuse
socket.getaddrinfo = refuse

from pathlib import Path
from desktop_app.core.storage import paths
from desktop_app.core.library import Library
from desktop_app.sample_datasheet import write_sample_datasheet
from desktop_app.core.events import AnswerDone

library = Library()  # the configured defaults: MiniLM embeddings and the bundled GGUF model
# A short prompt and answer keep this test quick on a busy machine; the models are the real defaults.
library.settings = library.settings.replace(top_k=3, max_answer_tokens=80).validated()
pdf = write_sample_datasheet(Path(sys.argv[1]) / "px40.pdf")
stages = [e.stage for e in library.import_paths([pdf])]
result = next(e for e in library.ask("What is the maximum operating temperature of the PX-40 pump?", "rag") if isinstance(e, AnswerDone)).result
library.close()
print(json.dumps({
    "stages": stages,
    "answer": result.answer,
    "citations": [[c.page, c.ocr] for c in result.citations],
    "attempts": attempts,
    "home": str(paths.data_home()),
}))
"""


@pytest.mark.integration
def test_import_and_ask_with_the_network_refused(tmp_path):
    home = tmp_path / "home"
    env = subprocess_env(home)
    # The app must be offline by itself, not because the test runner said so.
    env.pop("HF_HUB_OFFLINE", None)
    env.pop("TRANSFORMERS_OFFLINE", None)
    docs = tmp_path / "docs"
    docs.mkdir()
    out = subprocess.run([sys.executable, "-c", OFFLINE_RUN, str(docs)], capture_output=True, text=True, env=env, cwd=REPO, timeout=900)
    assert out.returncode == 0, out.stderr[-3000:]
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["stages"][-1] == "ready"
    assert "85" in result["answer"], result["answer"]
    assert result["citations"] and all(not ocr for _, ocr in result["citations"])
    assert result["attempts"] == [], f"something tried to reach the network: {result['attempts']}"


def test_the_data_folder_is_readable_by_the_user_only(tmp_path, monkeypatch):
    home = tmp_path / "fresh" / "home"
    monkeypatch.setenv("DESKTOP_APP_HOME", str(home))
    old_umask = os.umask(0o022)  # a typical umask would make new folders world-readable
    try:
        folder = paths.data_home()
    finally:
        os.umask(old_umask)
    assert folder == home
    assert stat.S_IMODE(home.stat().st_mode) == 0o700
    # A folder that exists with looser rights (made by an older version, or by hand) is tightened.
    home.chmod(0o755)
    paths.data_home()
    assert stat.S_IMODE(home.stat().st_mode) == 0o700


def test_readme_promises_no_network_and_no_telemetry():
    readme = (REPO / "README.md").read_text().lower()
    assert "nothing leaves your machine" in readme and "no telemetry" in readme
