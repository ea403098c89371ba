"""Embedding backends for import speed: torch (what the app uses) vs ONNX Runtime fp32 and int8.

    python -m bench.embedding_backends [--chunks 256]

The ONNX model is exported from the LOCAL MiniLM folder (no hub; works offline) with mean pooling
and normalisation inside the graph, then quantized to int8 with onnxruntime's dynamic quantizer.
Needs the `bench` extra (onnx). Reports chunks/s on real R-manual chunks and the worst cosine
agreement with the torch vectors (a backend that moves vectors changes which passages are found).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from .common import RESULTS_DIR, table, write_results


def export(folder, out_dir):
    import torch
    from transformers import AutoModel, AutoTokenizer

    fp32, int8 = out_dir / "minilm.onnx", out_dir / "minilm-int8.onnx"
    if not fp32.exists():
        tokenizer = AutoTokenizer.from_pretrained(str(folder), local_files_only=True)
        model = AutoModel.from_pretrained(str(folder), local_files_only=True).eval()

        class Pooled(torch.nn.Module):
            def __init__(self, inner):
                super().__init__()
                self.inner = inner

            def forward(self, input_ids, attention_mask, token_type_ids):
                hidden = self.inner(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids).last_hidden_state
                mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
                return torch.nn.functional.normalize((hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9), dim=-1)

        enc = tokenizer(["hello world", "a longer sentence here"], padding=True, return_tensors="pt")
        axes = {n: {0: "batch", 1: "tokens"} for n in ("input_ids", "attention_mask", "token_type_ids")}
        torch.onnx.export(Pooled(model), (enc["input_ids"], enc["attention_mask"], enc["token_type_ids"]), str(fp32),
                          input_names=list(axes), output_names=["embedding"], dynamic_axes={**axes, "embedding": {0: "batch"}},
                          opset_version=17, dynamo=False)
    if not int8.exists():
        from onnxruntime.quantization import QuantType, quantize_dynamic

        quantize_dynamic(str(fp32), str(int8), weight_type=QuantType.QInt8)
    return fp32, int8


def onnx_embed(path, folder, texts, batch=32):
    import onnxruntime as ort
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
    tokenizer.enable_truncation(256)
    tokenizer.enable_padding()
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    order = np.argsort([len(t) for t in texts])  # similar lengths together: less padding
    started = time.perf_counter()
    parts = []
    for i in range(0, len(texts), batch):
        enc = tokenizer.encode_batch([texts[j] for j in order[i : i + batch]])
        ids = np.array([e.ids for e in enc], dtype=np.int64)
        mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
        parts.append(session.run(None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)})[0])
    seconds = time.perf_counter() - started
    out = np.empty((len(texts), parts[0].shape[1]), dtype=np.float32)
    out[order] = np.vstack(parts)
    return out, seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=256)
    args = parser.parse_args(argv)
    from desktop_app.core.models.catalog import load_catalog
    from desktop_app.core.models.embedder import SentenceTransformerEmbedder
    from desktop_app.core.models.model_files import embedder_folder

    from .retrieval_scale import texts_from_manuals

    catalog = load_catalog()
    entry = catalog.embedder(catalog.default_embedder)
    folder = embedder_folder(catalog, entry.name)
    texts = [" ".join(t.split()) for t in texts_from_manuals(args.chunks)]
    out_dir = RESULTS_DIR / "onnx"
    out_dir.mkdir(parents=True, exist_ok=True)
    fp32, int8 = export(folder, out_dir)
    embedder = SentenceTransformerEmbedder(folder, entry.name, entry.dimension)
    embedder.embed(["warm up"])
    rows, raw = [], {}
    for round_ in range(2):  # interleaved twice: the machine is shared
        started = time.perf_counter()
        reference = embedder.embed(texts)
        raw.setdefault("torch (app)", []).append((time.perf_counter() - started, 1.0))
        for name, path in (("onnx fp32", fp32), ("onnx int8", int8)):
            vectors, seconds = onnx_embed(path, folder, texts)
            raw.setdefault(name, []).append((seconds, float((vectors * reference).sum(1).min())))
    for name, runs in raw.items():
        best = min(s for s, _ in runs)
        rows.append((name, len(texts) / best, min(c for _, c in runs)))
    print()
    print(f"Embedding {len(texts)} R-manual chunks, best of 2 interleaved rounds")
    print(table(("backend", "chunks/s", "min cosine vs torch"), rows))
    path = write_results("embedding_backends", {"chunks": len(texts), "runs": raw, "table": rows})
    print(f"results: {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
