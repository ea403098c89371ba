"""bench/embeddings_server.py run as a real server process on 127.0.0.1 for the tests (tests/conftest.py's
`embeddings_server` fixture): the bundled MiniLM behind an OpenAI-compatible /v1/embeddings."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench.http_backend import answers_models, free_port  # noqa: F401 (tests import free_port from here)


class EmbeddingsServer:
    """bench/embeddings_server.py (the bundled MiniLM behind FastAPI/uvicorn) as a process on 127.0.0.1, stopped and
    started again on the same port by the tests (a server that goes away in the middle of an import)."""

    model = "all-minilm-l6-v2-int8"

    def __init__(self, log: Path):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/v1"
        self.log = log
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        root = Path(__file__).resolve().parents[1]
        env = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONPATH=os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]))
        command = [sys.executable, "-m", "bench.embeddings_server", "--host", "127.0.0.1", "--port", str(self.port)]
        with open(self.log, "ab") as out:
            self.process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=root)
        deadline = time.monotonic() + 120
        while not answers_models(self.port):
            if self.process.poll() is not None:
                pytest.fail(f"the embeddings server exited ({self.process.returncode}):\n{self.log.read_text(errors='replace')[-3000:]}")
            if time.monotonic() > deadline:
                pytest.fail(f"the embeddings server did not answer in 120 s:\n{self.log.read_text(errors='replace')[-3000:]}")
            time.sleep(0.25)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
