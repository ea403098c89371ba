"""A small OpenAI-compatible embeddings server for the tests and the benchmark: the bundled MiniLM (int8 ONNX) behind
FastAPI/uvicorn, at POST /v1/embeddings and GET /v1/models.

    python -m bench.embeddings_server [--port 8080] [--host 127.0.0.1] [--api-key KEY]

Why this and not a packaged server: no PyPI package ships an embedding GGUF for llama-cpp-python's server (it serves
the bundled chat GGUFs only with per-token vectors, which the app refuses with a clear error), and infinity-emb would
add a large dependency tree to the dev extra. For a real deployment use Ollama, vLLM, llama.cpp's llama-server
(--embedding --pooling mean), text-embeddings-inference or infinity (docs/large-libraries.md).
"""

import argparse
import base64
import json
import os

import numpy as np

from pydantic import BaseModel

MODEL = "all-minilm-l6-v2-int8"  # the catalog's bundled default (catalog.json): the same model as the app's local one


# At module level, and no `from __future__ import annotations`: FastAPI reads the request's type from the annotation.
class EmbeddingRequest(BaseModel):
    input: str | list[str]
    model: str | None = None
    encoding_format: str | None = None


def create_app(api_key: str | None = None):
    from fastapi import FastAPI, Header, HTTPException, Response

    from desktop_app.core.models.catalog import load_catalog
    from desktop_app.core.models.model_files import catalog_embedder

    embedder = catalog_embedder(load_catalog().embedder(MODEL))
    app = FastAPI()

    def check(authorization: str | None) -> None:
        if api_key and authorization != f"Bearer {api_key}":
            raise HTTPException(status_code=401, detail="wrong or missing API key")

    @app.get("/v1/models")
    def models(authorization: str | None = Header(default=None)) -> dict:
        check(authorization)
        return {"object": "list", "data": [{"id": MODEL, "object": "model"}]}

    @app.post("/v1/embeddings")
    def embeddings(request: EmbeddingRequest, authorization: str | None = Header(default=None)) -> Response:
        check(authorization)
        if request.model not in (None, "", MODEL):
            raise HTTPException(status_code=404, detail=f"no model called {request.model}")
        texts = [request.input] if isinstance(request.input, str) else request.input
        vectors = np.asarray(embedder.embed(texts), dtype="<f4")
        if request.encoding_format == "base64":  # as OpenAI's API: each vector's little-endian float32 bytes
            rows = [base64.b64encode(v.tobytes()).decode("ascii") for v in vectors]
        else:
            rows = vectors.tolist()
        body = {
            "object": "list",
            "model": MODEL,
            "data": [{"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(rows)],
            "usage": {"prompt_tokens": 0, "total_tokens": 0},
        }
        # Serialised here: FastAPI's own encoder walks every float in Python, a real server's cost it does not have.
        return Response(json.dumps(body), media_type="application/json")

    return app


def main() -> None:
    import uvicorn

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--api-key", default=os.environ.get("EMBEDDINGS_SERVER_KEY"))
    args = parser.parse_args()
    uvicorn.run(create_app(args.api_key), host=args.host, port=args.port, log_level="info")


if __name__ == "__main__":
    main()
