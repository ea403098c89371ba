"""One editor per setting, made from the setting's type: its label, its range, and how its value is read back.

The help sentence and the plain/Advanced split come from the settings metadata (core.settings.SETTING_HELP);
what is here is only how each field looks in a form.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtWidgets import QCheckBox, QDoubleSpinBox, QLineEdit, QSpinBox, QWidget

from ..core.settings import Settings

LABELS = {
    "model": "Model",
    "embedder": "Search model",
    "mode": "Answer mode",
    "n_queries": "Generated queries (at most)",
    "rrf_k": "Blend evenness (RRF k)",
    "question_weight": "Weight of your question",
    "top_k": "Passages in the answer",
    "evidence_tokens": "Evidence the model reads (tokens)",
    "evidence_embedded": "Sentences compared by meaning",
    "list_depth": "Results from each search",
    "max_queries": "Lines for a many-things question (at most)",
    "drift_guard": "Drop queries less similar than",
    "keyword_weight": "Weight of exact-word search",
    "document_language_queries": "Also search in the documents' language",
    "navigation_pages": "Find index, contents and repeated notices",
    "reranker": "Reorder passages",
    "rerank_candidates": "Passages the reorderer looks at",
    "temperature": "Wording freedom (temperature)",
    "n_ctx": "Text the model reads at once (tokens)",
    "n_threads": "Processor cores",
    "max_answer_tokens": "Longest answer (tokens)",
    "min_similarity": "Closeness needed to answer",
    "general_knowledge": "Answer from general knowledge",
    "question_check": "Check that the answer answers the question",
    "refuse_when_sure": "Refuse answers the check is sure about",
    "claim_check": "Let the model read sentences worded differently",
    "n_threads_batch": "Cores for reading the passages",
    "n_batch": "Text read in one step (tokens)",
    "use_mmap": "Read the model file as needed",
    "prompt_lookup_tokens": "Words copied ahead when quoting (tokens)",
    "query_tokens_each": "Longest search query (tokens)",
    "query_early_stop": "Stop once the queries are written",
    "embed_batch_size": "Passages indexed together when importing",
    "sql_timeout_s": "Longest table query (s)",
    "sql_row_cap": "Most rows kept from a table query",
    "sql_retries": "Retries of a failed table query",
    "llm_backend": "Answers from",
    "llm_url": "Server address",
    "llm_http_model": "Server model",
    "llm_api_key": "API key",
    "llm_timeout": "Wait for the server (s)",
    "embedder_backend": "Search index made",
    "embed_url": "Embeddings server address",
    "embed_http_model": "Embeddings server model",
    "embed_api_key": "Embeddings server API key",
    "embed_concurrency": "Batches sent to the server at once",
    "library_url": "Shared library (PostgreSQL address)",
}

# Ranges the spin boxes allow (Settings.validated checks the ones that matter for correctness).
INT_RANGES = {
    "n_queries": (0, 10), "top_k": (1, 20), "list_depth": (1, 200), "max_queries": (0, 10), "rerank_candidates": (1, 100),
    "n_ctx": (1024, 131072), "n_threads": (0, 256), "max_answer_tokens": (16, 8192), "n_threads_batch": (0, 256),
    "n_batch": (8, 8192), "prompt_lookup_tokens": (0, 64), "query_tokens_each": (4, 256), "embed_batch_size": (1, 1024),
    "sql_row_cap": (1, 100000), "sql_retries": (0, 10),
    "evidence_tokens": (0, 8192), "evidence_embedded": (0, 256), "embed_concurrency": (1, 64),
}
FLOAT_RANGES = {
    "rrf_k": (0.0, 1000.0, 1.0), "question_weight": (0.0, 10.0, 0.5), "drift_guard": (0.0, 1.0, 0.05),
    "keyword_weight": (0.0, 10.0, 0.25), "temperature": (0.0, 2.0, 0.1), "min_similarity": (0.0, 1.0, 0.05),
    "sql_timeout_s": (0.5, 600.0, 1.0), "llm_timeout": (1.0, 3600.0, 10.0),
}
ZERO_MEANS = {"n_threads": "all cores", "n_threads_batch": "as for writing", "drift_guard": "off", "keyword_weight": "off", "prompt_lookup_tokens": "off",
             "evidence_tokens": "whole passages", "evidence_embedded": "words only"}


@dataclass
class Editor:
    widget: QWidget
    value: Callable[[], Any]


def simple_editor(name: str, value: Any) -> Editor:
    """A spin box, a check box or a line, after the field's type."""
    kind = {f.name: f.type for f in dataclasses.fields(Settings)}[name]
    if kind == "bool":
        box = QCheckBox()
        box.setChecked(bool(value))
        return Editor(box, box.isChecked)
    if kind == "int":
        spin = QSpinBox()
        spin.setRange(*INT_RANGES.get(name, (0, 1_000_000)))
        spin.setValue(int(value))
        if name in ZERO_MEANS:
            spin.setSpecialValueText(ZERO_MEANS[name])
        return Editor(spin, spin.value)
    if kind == "float":
        low, high, step = FLOAT_RANGES.get(name, (0.0, 1e6, 1.0))
        spin = QDoubleSpinBox()
        spin.setRange(low, high)
        spin.setSingleStep(step)
        spin.setDecimals(0 if step >= 1 else 2)
        spin.setValue(float(value))
        if name in ZERO_MEANS:
            spin.setSpecialValueText(ZERO_MEANS[name])
        return Editor(spin, lambda: float(spin.value()))
    line = QLineEdit(str(value))
    return Editor(line, lambda: line.text().strip())
