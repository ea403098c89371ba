"""User settings and every tunable default, in one place, saved as JSON in the data folder."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

# fusion: RAG-Fusion (the default); rag: the question alone; naive-fusion: the paper's recipe, for comparison;
# multi-query: fusion's queries merged by union (no RRF); rewrite: rewrite-retrieve-read; hyde: a hypothetical passage;
# sql: the LLM writes SQL over the CSV/Excel tables (also chosen automatically when the chosen documents are all tables).
MODES = ("fusion", "rag", "naive-fusion", "multi-query", "rewrite", "hyde", "sql")
# "local": the GGUF model in this process (nothing leaves the machine); "http": an OpenAI-compatible server.
LLM_BACKENDS = ("local", "http")
HTTP_FIELDS = ("llm_backend", "llm_url", "llm_http_model", "llm_api_key", "llm_timeout")  # a change means a new generator
# A change of these means another embedder: the library's passages are embedded again (library.py).
EMBEDDER_FIELDS = ("embedder", "embedder_backend", "embed_url", "embed_http_model", "embed_api_key")


@dataclass(frozen=True)
class Settings:
    """What a user can change; SETTING_HELP below gives each field a sentence and says whether it is advanced.

    Research knobs that lost their measurements (other query prompts, a second entity round, interleaving,
    keyword sources, adaptive skipping) are not settings: they are named variants of the eval harness
    (desktop_app/evaluation/variants.py). Old settings files that still hold them load; unknown keys are ignored.
    """

    model: str = "qwen2.5-coder-1.5b"  # a catalog name, or the path of any GGUF file
    # A catalog embedder's name, or the folder of a sentence-transformers model; "": the bundled default (catalog.json),
    # so a library follows the bundled embedder when it changes (its passages are then embedded again).
    embedder: str = ""
    mode: str = "fusion"
    # At most: the model stops once this many usable queries are written (0: no query generation). A question
    # naming more things may get one line per thing, up to max_queries; the naive prompt asks for exactly this many.
    n_queries: int = 4
    # With a few short lists a large k flattens the ranking toward what every paraphrase finds;
    # a small k keeps each list's top hits on top (issue 4). k = 2 (was 5): dev set, 60 questions,
    # Recall@10 0.519 vs 0.494 (k = 10, 20: 0.489), nDCG@10 0.427 vs 0.422; FAQ set, 100 questions,
    # nDCG@10 0.739 vs 0.741 (RAG 0.735). Small gains within noise; see docs/evaluation.md.
    rrf_k: float = 2.0
    # RRF weight of the user's own question; generated queries weigh 1. 3 (was 2) with the name-fact prompt:
    # FAQ set (503) nDCG@10 0.699 vs 0.691 (plain RAG 0.701); dev set (404) Recall@10 0.646 vs 0.652.
    question_weight: float = 3.0
    top_k: int = 5
    # The answer prompt holds the best SENTENCES of the top 2 x top_k fused passages, up to this many tokens
    # (retrieval/evidence.py); 0 gives the model the top_k whole passages as before (the "passages" eval variant).
    # 280 (was 360, about half of 5 whole passages): for a first token within 5 s on 2 cores (issue 14). Chosen
    # between the two on the dev sets (2026-11-24, docs/answer-evaluation.md): fusion's cited recall 280 vs 360
    # -0.006 (multi-hop, 40 q) and +0.000 (FAQ, 60 q), precision +0.036 and +0.026, intervals around zero.
    # A list question naming more things than it holds (evidence.NAMES_PER_BUDGET, 3.5) gets it scaled to their number.
    evidence_tokens: int = 280
    # At most this many candidate sentences are embedded to score them (the evidence stage's cost); 0 scores them
    # by shared words only. 16: 4.0 s at load average 14 on 2 cores (48: 8.8 s); not tuned on the dev sets.
    evidence_embedded: int = 16
    list_depth: int = 20
    # A question naming more things than n_queries may get one line each, up to this many (with the default
    # "name-fact" prompt, this many lines, each searched twice). 5: "the top five X" is the common case.
    max_queries: int = 5
    drift_guard: float = 0.0
    keyword_weight: float = 0.5
    # A library holding documents in another language than the question (languages.NOTABLE of its passages): the
    # model also writes the question in their language, searched like a query (docs/filters-and-languages.md).
    document_language_queries: bool = True
    # Index and contents passages (entries and page numbers, core/navigation_text.py) and repeated boilerplate
    # (a notice or footer block on many pages, core/repeated_text.py) are never in the vector lists; True lets
    # keyword search put them among a question's passages, for a person looking for them.
    navigation_pages: bool = False
    # Rerank the fused top passages before answering: "" (off), "llm" (the local model judges each passage),
    # or the folder of a sentence-transformers CrossEncoder model.
    reranker: str = ""
    rerank_candidates: int = 10
    temperature: float = 0.0
    n_ctx: int = 4096
    n_threads: int = 0
    max_answer_tokens: int = 400
    min_similarity: float = 0.25
    general_knowledge: bool = False
    # After the answer, the model is asked once whether the sentence it rests on answers the question, a no
    # flagging its citation (answers/model_check.py); off saves that call (0.5-0.6 s on two cores).
    question_check: bool = True
    # A sure no refuses the answer instead, its reply kept in the notice. On by default since a fresh report half: near
    # misses refused 0.56 -> 0.92, no near hit refused, no right answer lost (docs/answer-trust.md, twenty-fifth session).
    # Renamed from question_check_refuses, so a settings file saved with the old default (off) does not keep it.
    refuse_when_sure: bool = True
    # A claim whose words the passage it cites lacks is read by the model, which may find it said in other words
    # (answers/model_check.py); off, such a claim is flagged (or refused when nothing else is grounded).
    claim_check: bool = True
    # Speed levers (issue 5); bench/ measures each. 0 means "pick for this machine".
    n_threads_batch: int = 0
    n_batch: int = 512
    use_mmap: bool = True
    # Off: measured slower on this 2-core CPU (bench.llama_levers, 2026-11-24: first token 6.6 vs 4.7 s, generation
    # 18 vs 24 tokens/s with 2 guessed tokens): llama-cpp-python then computes logits for every prompt token.
    prompt_lookup_tokens: int = 0
    query_tokens_each: int = 16
    # Measured (bench.query_generation): sharing the answer's system prompt made the model number its queries
    # like citations ([1] ...), writing more tokens than the reused KV prefix saved, so that lever was removed.
    query_early_stop: bool = True
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
    llm_http_model: str = ""
    # Saved in the private data folder; DESKTOP_APP_LLM_API_KEY overrides it. Never in repr or logs.
    llm_api_key: str = field(default="", repr=False)
    llm_timeout: float = 120.0
    # The embedder: "local" (the `embedder` above, on this computer) or "http": an OpenAI-compatible /v1/embeddings
    # server at embed_url (Ollama, vLLM, llama.cpp's server, text-embeddings-inference, infinity), for big imports.
    embedder_backend: str = "local"
    embed_url: str = ""
    embed_http_model: str = ""
    # Saved in the private data folder; DESKTOP_APP_EMBED_API_KEY overrides it. Never in repr or logs.
    embed_api_key: str = field(default="", repr=False)
    # Batches sent to the embeddings server at once (a GPU server works on several together).
    embed_concurrency: int = 4
    # "": the library in the data folder (SQLite + hnswlib). A postgresql:// address: a library in PostgreSQL with
    # pgvector that several people (several data folders) share; opened when the app starts.
    library_url: str = ""

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
        if self.llm_backend not in LLM_BACKENDS:
            raise ValueError(f"the model backend must be one of {', '.join(LLM_BACKENDS)}")
        if self.llm_backend == "http" and not self.llm_url.strip().lower().startswith(("http://", "https://")):
            raise ValueError("the server address must start with http:// or https:// (for example http://127.0.0.1:8000/v1)")
        if self.embedder_backend not in LLM_BACKENDS:
            raise ValueError(f"the embeddings backend must be one of {', '.join(LLM_BACKENDS)}")
        if self.embedder_backend == "http" and not self.embed_url.strip().lower().startswith(("http://", "https://")):
            raise ValueError("the embeddings server address must start with http:// or https:// (for example http://127.0.0.1:8080/v1)")
        if self.library_url.strip() and not self.library_url.strip().lower().startswith(("postgresql://", "postgres://")):
            raise ValueError("the library address must start with postgresql:// (or be empty for the library in the data folder)")
        if not 1 <= self.embed_concurrency <= 64:
            raise ValueError("batches sent to the embeddings server at once must be between 1 and 64")
        return self


@dataclass(frozen=True)
class SettingHelp:
    text: str  # one plain sentence, for the settings dialog
    advanced: bool  # shown under "Advanced" rather than with the plain settings


def plain(text: str) -> SettingHelp:
    return SettingHelp(text, advanced=False)


def advanced(text: str) -> SettingHelp:
    return SettingHelp(text, advanced=True)


# Every Settings field, in order (tests/unit/test_settings.py checks that none is missing).
SETTING_HELP: dict[str, SettingHelp] = {
    "model": plain("The language model that writes the search queries and the answers: a bundled one or a model file of your own."),
    "embedder": advanced("The model that finds passages by their meaning rather than by their exact words."),
    "mode": plain("How a question is searched: several searches blended together (the default), your question alone, or a comparison method."),
    "n_queries": plain("At most how many extra search queries the model writes for a question (0 searches your question alone)."),
    "rrf_k": advanced("How evenly the results of the different searches are blended: small values favour each search's best hits."),
    "question_weight": advanced("How much the results for your own question count against those of each generated query."),
    "top_k": plain("How many of the best passages the answer draws on: the model reads their sentences closest to your question (twice as many are looked at)."),
    "evidence_tokens": advanced("How much of the passages the model reads, in tokens: their sentences closest to your question (more for a question about several things; 0 reads whole passages, slower)."),
    "evidence_embedded": advanced("How many sentences are compared with your question by meaning before the answer (0 compares words only: faster)."),
    "list_depth": advanced("How many results each search contributes before the lists are blended."),
    "max_queries": advanced("The most lines the model may write when a question names many things, one per thing."),
    "drift_guard": advanced("Generated queries less similar than this to your question are dropped (0 keeps them all)."),
    "keyword_weight": advanced("How much exact-word search counts beside search by meaning (0 turns it off)."),
    "document_language_queries": advanced("When some of your documents are in another language than your question, also search your question written in theirs."),
    "navigation_pages": advanced(
        "Let index and contents pages (entries followed by page numbers) and notices repeated on many pages of a document "
        "be among the passages found by their words."
    ),
    "reranker": advanced("Let a judge put the best passages in order before answering: off, the local model, or a judging model in a folder."),
    "rerank_candidates": advanced("How many of the best passages the judge looks at before keeping the top ones."),
    "temperature": plain("How freely the model words its answer: 0 gives the same answer every time."),
    "n_ctx": advanced("How much text the model can read at once, in tokens (a token is about three quarters of a word)."),
    "n_threads": advanced("How many processor cores the model uses (0 uses all of them)."),
    "max_answer_tokens": advanced("The longest answer the model may write, in tokens (a token is about three quarters of a word)."),
    "min_similarity": advanced("Below this closeness to your question no passage is trusted to answer it."),
    "general_knowledge": plain("Let the model answer from its own knowledge when your documents do not say, and say so."),
    "question_check": advanced("After the answer, ask the model whether the sentence it rests on answers your question; when it says no, that citation is marked as doubtful."),
    "refuse_when_sure": advanced("When the model is sure the sentence does not answer your question, say not found instead of showing the answer, with the model's reply beneath (off: the answer is shown with a warning)."),
    "claim_check": advanced("When a sentence of the answer uses other words than the passage it cites, ask the model whether the passage says it anyway before marking it."),
    "n_threads_batch": advanced("Processor cores used to read the passages and your question before the answer (0 uses the same as for writing)."),
    "n_batch": advanced("How many tokens of the prompt the model reads in one step."),
    "use_mmap": advanced("Read the model file as it is needed instead of loading it whole: starts faster and saves memory."),
    "prompt_lookup_tokens": advanced("Answers that quote your documents are written faster when the model copies this many tokens ahead from the passages (0 is off)."),
    "query_tokens_each": advanced("The longest each search query may be, in tokens."),
    "query_early_stop": advanced("Stop the model as soon as it has written enough search queries."),
    "embed_batch_size": advanced("How many passages go into the meaning index together while importing: more is faster, if the computer has the memory."),
    "sql_timeout_s": advanced("The longest a query over your tables may run, in seconds."),
    "sql_row_cap": advanced("The most rows of a table query that are kept and shown."),
    "sql_retries": advanced("How many times a failed table query is written again, with the error shown to the model."),
    "llm_backend": plain("Answer with the model on this computer, or with a server you run (your questions then go to it)."),
    "llm_url": plain("The server's address, such as http://127.0.0.1:8000/v1."),
    "llm_http_model": plain("The model's name on the server (empty uses the first one it offers)."),
    "llm_api_key": plain("The key the server asks for, if any; it is kept in your private data folder."),
    "llm_timeout": advanced("How many seconds to wait for the server before giving up."),
    "embedder_backend": plain("Prepare passages for search by meaning on this computer, or on a server you run for that (your documents' text then goes to it)."),
    "embed_url": plain("That server's address, such as http://127.0.0.1:8080/v1."),
    "embed_http_model": plain("The search model's name on that server; a new name means every passage is prepared again."),
    "embed_api_key": plain("The key that server asks for, if any; it is kept in your private data folder."),
    "embed_concurrency": advanced("How many batches of passages are sent to that server at once (one for a server on this computer, which shares its cores)."),
    "library_url": advanced("A library shared in PostgreSQL (postgresql://user@host/name); empty keeps it in this computer's data folder (used from the next start)."),
}


def setting_names(in_advanced: bool | None = None) -> list[str]:
    """The Settings fields in order; `in_advanced` picks the plain ones (False) or the Advanced ones (True)."""
    return [f.name for f in dataclasses.fields(Settings) if in_advanced is None or SETTING_HELP[f.name].advanced == in_advanced]


def settings_path(home: Path) -> Path:
    return home / "settings.json"


@dataclass(frozen=True)
class LoadedSettings:
    """The settings read from the file, and what in it could not be used (each a sentence the user is shown)."""

    settings: Settings
    problems: tuple[str, ...] = ()

    def notice(self) -> str | None:
        if not self.problems:
            return None
        return (
            f"Some settings in settings.json could not be used and their defaults apply: {'; '.join(self.problems)}. "
            "Your file is kept as it is; saving settings keeps a copy of it as settings.json.bak."
        )


def load_settings(home: Path) -> Settings:
    return read_settings(home).settings


def read_settings(home: Path) -> LoadedSettings:
    """The user's settings, value by value: a bad value falls back to its default alone and is reported."""
    path = settings_path(home)
    if not path.exists():
        return LoadedSettings(Settings())
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(raw, dict):
            raise TypeError("not a JSON object")
    except (OSError, ValueError, TypeError) as exc:
        return LoadedSettings(Settings(), (f"the file cannot be read ({exc})",))
    defaults = {f.name: f.default for f in dataclasses.fields(Settings)}
    settings = Settings()
    # One value at a time, in the file's order; keys of older versions are ignored. A value that fails against
    # the values before it (an http backend, whose address comes after it in the file) is tried again once all
    # the others are in; one that still fails, on its own or with the rest, is left out.
    waiting: list[tuple[str, object]] = []
    found: dict[str, str] = {}  # name -> problem, reported in the file's order
    for name, value in raw.items():
        if name not in defaults:
            continue
        value, problem = _typed(value, defaults[name])
        if problem is None:
            try:
                settings = settings.replace(**{name: value}).validated()
            except ValueError:
                waiting.append((name, value))
            continue
        found[name] = problem
    for name, value in waiting:
        try:
            settings = settings.replace(**{name: value}).validated()
        except ValueError as exc:
            found[name] = str(exc)
    problems = [f"{name} = {json.dumps(raw[name])} ({found[name]})" for name in raw if name in found]
    return LoadedSettings(settings, tuple(problems))


def _typed(value: object, default: object) -> tuple[object, str | None]:
    """The value as the setting's type, or why it is not one (a bool is no number, a number no text)."""
    if isinstance(default, bool):
        return (value, None) if isinstance(value, bool) else (value, "expected true or false")
    if isinstance(default, int):
        ok = isinstance(value, int) and not isinstance(value, bool)
        return (value, None) if ok else (value, "expected a whole number")
    if isinstance(default, float):
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        return (float(value), None) if ok else (value, "expected a number")
    return (value, None) if isinstance(value, str) else (value, "expected text")


def save_settings(home: Path, settings: Settings) -> None:
    """Writes the settings; a file that held values it could not use is first kept as settings.json.bak."""
    path = settings_path(home)
    if path.exists() and read_settings(home).problems:
        shutil.copy2(path, path.with_name(path.name + ".bak"))
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(dataclasses.asdict(settings.validated()), indent=2))
    os.replace(tmp, path)


@dataclass(frozen=True)
class SearchDepth:
    """A plain choice of how thorough the search is, and the settings it stands for."""

    name: str
    n_queries: int
    list_depth: int
    says: str  # what it does, in a sentence


# Balanced is the defaults; Quick and Thorough halve and double the work around them (not tuned on any set).
def _depth(name: str, n_queries: int, list_depth: int, then: str) -> SearchDepth:
    return SearchDepth(name, n_queries, list_depth, f"At most {n_queries} extra search queries, {list_depth} results from each search: {then}.")


SEARCH_DEPTHS = (
    _depth("Quick", 2, 10, "the fastest answers"),
    _depth("Balanced", Settings.n_queries, Settings.list_depth, "the default"),
    _depth("Thorough", 6, 40, "slower; finds passages worded far from your question"),
)


def search_depth_of(settings: Settings) -> SearchDepth | None:
    """The plain choice these settings match, or None (set by hand under Advanced)."""
    return next((d for d in SEARCH_DEPTHS if (d.n_queries, d.list_depth) == (settings.n_queries, settings.list_depth)), None)
