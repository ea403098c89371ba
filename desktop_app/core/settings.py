"""User settings and every tunable default, in one place, saved as JSON in the data folder."""

from __future__ import annotations

import dataclasses
import json
import os
from dataclasses import dataclass
from pathlib import Path

MODES = ("fusion", "rag")


@dataclass(frozen=True)
class Settings:
    model: str = "qwen2.5-coder-1.5b"  # a catalog name, or the path of any GGUF file
    embedder: str = "all-minilm-l6-v2"
    mode: str = "fusion"
    n_queries: int = 4  # generated queries, besides the question itself
    rrf_k: float = 60.0
    question_weight: float = 1.0  # RRF weight of the user's own question; generated queries weigh 1
    top_k: int = 5  # passages in the answer prompt, the same for every mode
    list_depth: int = 20  # hits each query contributes to the fusion
    temperature: float = 0.0
    n_ctx: int = 4096
    n_threads: int = 0  # 0: all cores
    max_answer_tokens: int = 400
    # Below this cosine similarity no passage is close enough to answer from.
    min_similarity: float = 0.25
    general_knowledge: bool = False
    # Speed levers (issue 5); bench/ measures each. 0 means "pick for this machine".
    n_threads_batch: int = 0  # threads for prompt processing; 0: same as n_threads
    n_batch: int = 512  # prompt tokens evaluated per llama.cpp batch
    use_mmap: bool = True  # map the GGUF instead of reading it: faster start, shared page cache
    prompt_lookup_tokens: int = 0  # >0: prompt-lookup decoding drafts this many tokens copied from the passages
    query_tokens_each: int = 16  # max new tokens per generated query; keyword queries need fewer
    query_early_stop: bool = True  # stop generating once n_queries usable queries are complete
    # Off: measured (bench.query_generation) the shared citation instructions made the model number its
    # queries like citations ([1] ...), writing more tokens than the reused KV prefix saved.
    share_system_prompt: bool = False  # query generation reuses the answer's system prompt (shared KV cache)
    embed_batch_size: int = 64
    # Processes extracting PDF pages; 0: one per core, at most 4. 1 by default: on 2 cores the 2,415-page manual
    # extracted no faster with 2 (bench.import_throughput), and embedding takes ~50x longer than extraction.
    extraction_workers: int = 1

    def replace(self, **changes) -> Settings:
        return dataclasses.replace(self, **changes)

    def validated(self) -> Settings:
        if self.mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}")
        if not 0 <= self.n_queries <= 10:
            raise ValueError("the number of queries must be between 0 and 10")
        if self.rrf_k < 0:
            raise ValueError("RRF k must be 0 or more")
        if not 1 <= self.top_k <= 20:
            raise ValueError("passages in the answer must be between 1 and 20")
        return self


def settings_path(home: Path) -> Path:
    return home / "settings.json"


def load_settings(home: Path) -> Settings:
    path = settings_path(home)
    if not path.exists():
        return Settings()
    try:
        raw = json.loads(path.read_text())
    except (OSError, ValueError):
        return Settings()  # a damaged settings file must not stop the app; defaults are safe
    known = {f.name for f in dataclasses.fields(Settings)}
    try:
        return Settings(**{k: v for k, v in raw.items() if k in known}).validated()
    except (TypeError, ValueError):
        return Settings()


def save_settings(home: Path, settings: Settings) -> None:
    path = settings_path(home)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(dataclasses.asdict(settings.validated()), indent=2))
    os.replace(tmp, path)
