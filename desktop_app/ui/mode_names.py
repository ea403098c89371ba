"""The answer modes as a person reads them: the mode switch offers them, the transcript names the mode of each answer."""

from __future__ import annotations

# Every mode of core.settings.MODES, with the name a person reads.
MODES = (
    ("fusion", "RAG-Fusion"),
    ("rag", "Plain RAG"),
    ("naive-fusion", "Naive fusion (paper)"),
    ("multi-query", "Multi-query (union)"),
    ("rewrite", "Rewrite-retrieve-read"),
    ("hyde", "HyDE"),
    ("sql", "Tables (SQL)"),
)
MODE_NAMES = dict(MODES)
MODE_TIP = (
    "RAG-Fusion: the model writes several search queries; their results are merged by reciprocal rank fusion.\n"
    "Plain RAG: the question alone is searched.\n"
    "Naive fusion (paper): RAG-Fusion with the paper's original recipe, for comparison.\n"
    "Multi-query (union): the same queries, results merged by union and best similarity (no RRF).\n"
    "Rewrite-retrieve-read: the model rewrites the question into one search query.\n"
    "HyDE: the model writes a hypothetical passage, and passages like it are searched.\n"
    "Tables (SQL): the model writes SQL over your CSV and Excel tables (chosen by itself when you ask only tables)."
)
