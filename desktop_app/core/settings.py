"""User settings and every tunable default, in one place, saved as JSON in the data folder."""

from __future__ import annotations

import dataclasses
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

# fusion: RAG-Fusion (the default); rag: the question alone; naive-fusion: the paper's recipe, for comparison;
# multi-query: fusion's queries merged by union (no RRF); rewrite: rewrite-retrieve-read; hyde: a hypothetical passage;
# sql: the LLM writes SQL over the CSV/Excel tables (also chosen automatically when the chosen documents are all tables).
MODES = ("fusion", "rag", "naive-fusion", "multi-query", "rewrite", "hyde", "sql")
FUSION_MODES = ("fusion", "naive-fusion", "multi-query")
QUERY_STYLES = ("decompose", "enumerate", "names", "named-facts", "name-fact", "naive")
KEYWORD_SOURCES = ("question", "queries", "both")
# "local": the GGUF model in this process (nothing leaves the machine); "http": an OpenAI-compatible server.
LLM_BACKENDS = ("local", "http")
HTTP_FIELDS = ("llm_backend", "llm_url", "llm_http_model", "llm_api_key", "llm_timeout")  # a change means a new generator
FUSION_METHODS = ("rrf", "interleave")


@dataclass(frozen=True)
class Settings:
    model: str = "qwen2.5-coder-1.5b"  # a catalog name, or the path of any GGUF file
    # A catalog embedder's name, or the folder of a sentence-transformers model; "": the bundled default (catalog.json),
    # so a library follows the bundled embedder when it changes (its passages are then embedded again).
    embedder: str = ""
    mode: str = "fusion"
    n_queries: int = 4  # generated queries, besides the question itself
    # With a few short lists a large k flattens the ranking toward what every paraphrase finds;
    # a small k keeps each list's top hits on top (issue 4). k = 2 (was 5): dev set, 60 questions,
    # Recall@10 0.519 vs 0.494 (k = 10, 20: 0.489), nDCG@10 0.427 vs 0.422; FAQ set, 100 questions,
    # nDCG@10 0.739 vs 0.741 (RAG 0.735). Small gains within noise; see docs/evaluation.md.
    rrf_k: float = 2.0
    # RRF weight of the user's own question; generated queries weigh 1. 3 (was 2) with the name-fact prompt:
    # FAQ set (503) nDCG@10 0.699 vs 0.691 (plain RAG 0.701); dev set (404) Recall@10 0.646 vs 0.652.
    question_weight: float = 3.0
    # "rrf" (reciprocal rank fusion) or "interleave" (lists take turns, weighted; issue 4's alternative).
    fusion_method: str = "rrf"
    top_k: int = 5  # passages in the answer prompt, the same for every mode
    list_depth: int = 20  # hits each query contributes to the fusion
    # "decompose": one short query per fact or entity to look up; "enumerate": decompose, and also name
    # each member of a group the question asks about ("the five largest X"); "names": the model lists by name
    # what the answer is about; "named-facts": each name with the fact asked; "name-fact": "name: fact" lines,
    # searched as the name alone and the name with its fact (the default: dev set, 80 questions, Recall@10
    # 0.680 vs enumerate 0.571, names 0.613, plain RAG 0.520; docs/evaluation.md); "naive": the paper's prompt.
    query_style: str = "name-fact"
    extra_query_style: str = ""  # a second prompt whose queries are added ("": none); costs a second LLM call
    # A question naming more entities than n_queries may get one query each, up to this many
    # (for "name-fact", this many lines, each searched twice). 5: "the top five X" is the common case.
    max_queries: int = 5
    # Second round (entity_round.py): up to this many names the LLM finds in the first round's top
    # entity_passages passages are searched too (0: off). Costs a second LLM call.
    entity_round: int = 0
    entity_passages: int = 3
    # Generated queries whose cosine similarity to the question is below this are dropped (0: keep all).
    drift_guard: float = 0.0
    # RRF weight of extra FTS5 keyword lists (0: vector lists only), searched for the question,
    # the generated queries, or both (keyword_source).
    keyword_weight: float = 0.5
    keyword_source: str = "both"
    # Adaptive fusion: when the question's best passage is at least this similar, skip query generation (0: never).
    confident_similarity: float = 0.0
    # Rerank the fused top passages before answering: "" (off), "llm" (the local model judges each passage),
    # or the folder of a sentence-transformers CrossEncoder model.
    reranker: str = ""
    rerank_candidates: int = 10  # fused passages the reranker sees; it keeps top_k
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
    embed_batch_size: int = 64
    # Questions about CSV/Excel tables: the model's SQL is stopped after this long, keeps at most this many rows,
    # and a failed query is retried this many times with SQLite's error shown to the model.
    sql_timeout_s: float = 5.0
    sql_row_cap: int = 200
    sql_retries: int = 1
    # The generator: the local model, or an OpenAI-compatible server (llama.cpp's server, vLLM, Ollama) at llm_url,
    # e.g. http://127.0.0.1:8000/v1. The network is used only when llm_backend is "http".
    llm_backend: str = "local"
    llm_url: str = ""
    llm_http_model: str = ""  # "": the first model the server lists
    # Saved in the private data folder; DESKTOP_APP_LLM_API_KEY overrides it. Never in repr or logs.
    llm_api_key: str = field(default="", repr=False)
    llm_timeout: float = 120.0  # seconds to connect, and the longest pause allowed between streamed pieces
    # Processes extracting PDF pages; 0: one per core, at most 4. 1 by default: on 2 cores the 2,415-page manual
    # extracted no faster with 2 (bench.import_throughput), and embedding takes ~50x longer than extraction.

    def replace(self, **changes) -> Settings:
        return dataclasses.replace(self, **changes)

    def for_mode(self, mode: str) -> Settings:
        """The settings a mode runs with: `naive-fusion` is the paper's recipe, kept for comparison."""
        return self.replace(**NAIVE_FUSION) if mode == "naive-fusion" else self

    def validated(self) -> Settings:
        if self.mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}")
        if not 0 <= self.n_queries <= 10:
            raise ValueError("the number of queries must be between 0 and 10")
        if self.rrf_k < 0:
            raise ValueError("RRF k must be 0 or more")
        if self.extra_query_style and self.extra_query_style not in QUERY_STYLES:
            raise ValueError(f"extra query style must be empty or one of {', '.join(QUERY_STYLES)}")
        if self.query_style not in QUERY_STYLES:
            raise ValueError(f"query style must be one of {', '.join(QUERY_STYLES)}")
        if self.fusion_method not in FUSION_METHODS:
            raise ValueError(f"fusion method must be one of {', '.join(FUSION_METHODS)}")
        if self.keyword_source not in KEYWORD_SOURCES:
            raise ValueError(f"keyword source must be one of {', '.join(KEYWORD_SOURCES)}")
        if not 1 <= self.top_k <= 20:
            raise ValueError("passages in the answer must be between 1 and 20")
        if self.llm_backend not in LLM_BACKENDS:
            raise ValueError(f"the model backend must be one of {', '.join(LLM_BACKENDS)}")
        if self.llm_backend == "http" and not self.llm_url.strip().lower().startswith(("http://", "https://")):
            raise ValueError("the server address must start with http:// or https:// (for example http://127.0.0.1:8000/v1)")
        return self


# RAG-Fusion as the paper describes it: 4 related queries, the question plus them, RRF k = 60, nothing else.
NAIVE_FUSION = dict(
    query_style="naive", n_queries=4, max_queries=4, rrf_k=60.0, question_weight=1.0, fusion_method="rrf", entity_round=0, drift_guard=0.0, keyword_weight=0.0, confident_similarity=0.0
)


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
