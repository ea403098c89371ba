"""Retrieval evaluation on a BEIR-layout folder (corpus.jsonl, queries.jsonl, qrels.tsv).

The corpus goes through the app's own Importer and every question through the app's own
Pipeline, so what is measured is what a user gets. Each corpus record becomes one single-page
document (text = title, blank line, text) imported with `Importer.import_texts`: the same
chunking, store and index as a file, but embedded in batches across records (one file per
record embeds 10,000 articles one by one: hours on two cores). The document is named
`<eval folder>/<record id>.txt`, so a retrieved chunk maps to its document and the
document's name to its record; unchanged records are skipped on the next run.
"""

from __future__ import annotations

import json
import math
import random
import re
import statistics
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..core.events import AnswerDone, QueriesGenerated
from ..core.retrieval.query_writing import fallback_reason
from ..core.settings import Settings
from ..core.types import AskResult
from . import variants

CUTOFFS = (5, 10)
METRICS = ("recall@5", "recall@10", "mrr@10", "ndcg@10")
STAGES = ("query_generation", "embedding", "retrieval", "fusion", "rerank", "total")


@dataclass(frozen=True)
class BeirSet:
    corpus: dict[str, tuple[str, str]]  # record id -> (title, text)
    queries: list[tuple[str, str]]  # (query id, question), in file order
    qrels: dict[str, dict[str, int]]  # query id -> {record id: grade > 0}


def load_beir(folder: Path) -> BeirSet:
    folder = Path(folder)
    for name in ("corpus.jsonl", "queries.jsonl", "qrels.tsv"):
        if not (folder / name).is_file():
            raise FileNotFoundError(f"{folder} has no {name}: an eval folder needs corpus.jsonl, queries.jsonl and qrels.tsv (BEIR layout)")
    corpus = {}
    for line in (folder / "corpus.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            record = json.loads(line)
            corpus[str(record["_id"])] = (record.get("title") or "", record.get("text") or "")
    qrels: dict[str, dict[str, int]] = {}
    for number, line in enumerate((folder / "qrels.tsv").read_text(encoding="utf-8").splitlines()):
        parts = line.split("\t")
        if len(parts) < 3 or (number == 0 and not parts[2].strip().lstrip("-").isdigit()):
            continue  # the header line
        grade = int(parts[2])
        if grade > 0 and parts[1] in corpus:
            qrels.setdefault(parts[0], {})[parts[1]] = grade
    queries = []
    for line in (folder / "queries.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            record = json.loads(line)
            if str(record["_id"]) in qrels:  # a question with nothing relevant in the corpus cannot be scored
                queries.append((str(record["_id"]), record["text"]))
    return BeirSet(corpus, queries, qrels)


def sample_queries(queries: Sequence[tuple[str, str]], n: int | None, seed: int = 0) -> list[tuple[str, str]]:
    """A fixed random sample, kept in file order. Samples are nested: the 40-question sample is
    part of the 60-question one, so cached queries from a small run serve a bigger one."""
    if not n or n >= len(queries):
        return list(queries)
    order = list(range(len(queries)))
    random.Random(seed).shuffle(order)
    chosen = set(order[:n])
    return [q for i, q in enumerate(queries) if i in chosen]


# -- metrics ------------------------------------------------------------------------------------
def recall_at(ranked: Sequence[str], relevant: dict[str, int], k: int) -> float:
    return len(set(ranked[:k]) & relevant.keys()) / len(relevant) if relevant else 0.0


def mrr_at(ranked: Sequence[str], relevant: dict[str, int], k: int) -> float:
    for position, doc in enumerate(ranked[:k], start=1):
        if doc in relevant:
            return 1.0 / position
    return 0.0


def ndcg_at(ranked: Sequence[str], relevant: dict[str, int], k: int) -> float:
    """Graded nDCG with gain = grade and discount log2(rank + 1), as BEIR's pytrec_eval computes it."""
    dcg = sum(relevant.get(doc, 0) / math.log2(position + 1) for position, doc in enumerate(ranked[:k], start=1))
    ideal = sorted(relevant.values(), reverse=True)[:k]
    idcg = sum(grade / math.log2(position + 1) for position, grade in enumerate(ideal, start=1))
    return dcg / idcg if idcg else 0.0


def score(ranked: Sequence[str], relevant: dict[str, int]) -> dict[str, float]:
    return {
        "recall@5": recall_at(ranked, relevant, 5),
        "recall@10": recall_at(ranked, relevant, 10),
        "mrr@10": mrr_at(ranked, relevant, 10),
        "ndcg@10": ndcg_at(ranked, relevant, 10),
    }


# -- corpus -> library ----------------------------------------------------------------------------
def record_file_name(record_id: str) -> str:
    return re.sub(r"[^\w.-]", "_", record_id) + ".txt"


def corpus_records(beir: BeirSet, folder: Path) -> tuple[list[tuple[str, str, str]], dict[str, str]]:
    """(document name, title, text) per record for Importer.import_texts, and file name -> record id."""
    records, names = [], {}
    # A split's halves (split_devset.py) link to one corpus.jsonl: naming documents after the folder that really
    # holds it lets both halves ask the same imported library instead of importing the corpus twice.
    corpus_file = Path(folder) / "corpus.jsonl"
    home = corpus_file.resolve().parent if corpus_file.is_symlink() else Path(folder).resolve()
    for record_id, (title, text) in beir.corpus.items():
        name = record_file_name(record_id)
        if name in names:
            raise ValueError(f"records {names[name]} and {record_id} map to the same document name {name}")
        names[name] = record_id
        records.append((str(home / name), title or record_id, f"{title}\n\n{text}" if title else text))
    return records, names


def ranked_records(result: AskResult, names: dict[str, str]) -> list[str]:
    """Fused passages -> their documents' record ids, best first, each record once.

    The answer's context comes first: a reranker reorders it (and without one it is the fused top_k),
    so what a reranker changes is scored; the rest of the fused list follows.
    """
    out: list[str] = []
    for source in (*result.context, *result.sources):
        for file in (source.passage.file, *(place.file for place in source.also)):  # a merged duplicate names every copy
            record = names.get(Path(file).name)
            if record is not None and record not in out:
                out.append(record)
    return out


class MemoEmbedder:
    """Remembers vectors by text: every mode embeds the same question (and often the same queries),
    and on a shared two-core machine embedding is most of an eval run's time."""

    def __init__(self, embedder):
        self.embedder = embedder
        self.name = embedder.name
        self.dimension = embedder.dimension
        self._vectors: dict[str, object] = {}

    def embed(self, texts: Sequence[str]):
        import numpy as np

        missing = [t for t in dict.fromkeys(texts) if t not in self._vectors]
        if missing:
            for text, vector in zip(missing, self.embedder.embed(missing)):
                self._vectors[text] = vector
        return np.stack([self._vectors[t] for t in texts]) if texts else self.embedder.embed(texts)


# -- modes ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ModeSpec:
    """`fusion`, a named variant (`fusion-interleave`, variants.py) or a mode with Settings fields and research
    knobs turned: `fusion+rrf_k=60+question_weight=2`, `fusion+query_style=names`."""

    label: str
    mode: str  # a name in the core's mode registry
    overrides: dict[str, object] = field(default_factory=dict)


def parse_mode(text: str) -> ModeSpec:
    mode, *pairs = text.strip().split("+")
    overrides: dict[str, object] = {}
    knobs: dict[str, str] = {}
    defaults = Settings()
    for pair in pairs:
        key, _, raw = pair.partition("=")
        if key in variants.KNOBS:
            knobs[key] = raw
            continue
        if not hasattr(defaults, key):
            raise ValueError(f"unknown setting '{key}' in mode '{text}'")
        kind = type(getattr(defaults, key))
        overrides[key] = (raw.lower() in ("1", "true", "yes")) if kind is bool else kind(raw)
    if knobs:  # a research variant, registered under the spec's own label
        mode = variants.variant(text.strip(), mode, knobs).name
    return ModeSpec(text.strip(), mode, overrides)


@dataclass
class ModeReport:
    label: str
    n: int = 0
    sums: dict[str, float] = field(default_factory=lambda: dict.fromkeys(METRICS, 0.0))
    timings: dict[str, list[float]] = field(default_factory=lambda: {s: [] for s in STAGES})
    queries_per_question: list[int] = field(default_factory=list)
    dropped_per_question: list[int] = field(default_factory=list)
    # Questions whose query generation fell back to the question alone: they measure plain RAG, not the mode.
    fallbacks: dict[str, int] = field(default_factory=lambda: {"failed": 0, "empty": 0})

    def add(self, metrics: dict[str, float], timings: dict[str, float], queries: int, dropped: int, fallback: str | None = None) -> None:
        self.n += 1
        if fallback:
            self.fallbacks[fallback] += 1
        for name in METRICS:
            self.sums[name] += metrics[name]
        for stage in STAGES:
            self.timings[stage].append(timings[stage])
        self.queries_per_question.append(queries)
        self.dropped_per_question.append(dropped)

    def summary(self) -> dict[str, object]:
        n = max(self.n, 1)
        return {
            "mode": self.label,
            "n": self.n,
            **{name: round(self.sums[name] / n, 4) for name in METRICS},
            "mean_seconds": {s: round(statistics.fmean(v), 3) if v else 0.0 for s, v in self.timings.items()},
            "median_query_generation_seconds": round(statistics.median(self.timings["query_generation"]), 3) if self.n else 0.0,
            "mean_queries": round(statistics.fmean(self.queries_per_question), 2) if self.n else 0.0,
            "mean_dropped": round(statistics.fmean(self.dropped_per_question), 2) if self.n else 0.0,
            "query_fallbacks": sum(self.fallbacks.values()),
            "query_fallbacks_by_reason": dict(self.fallbacks),
        }


def run_modes(
    beir: BeirSet,
    names: dict[str, str],
    pipeline_for: Callable[[ModeSpec], object],
    modes: Sequence[ModeSpec],
    queries: Sequence[tuple[str, str]],
    replayed_seconds: Callable[[], float] = lambda: 0.0,
) -> Iterator[tuple[int, ModeReport | None, dict]]:
    """Runs every question through every mode; yields (done, None, per-question row) and finally the reports.

    `replayed_seconds` returns the LLM time a query cache replayed for the last question, so the
    reported query-generation time is what the model took when it generated, not the cache lookup.
    """
    reports = {spec.label: ModeReport(spec.label) for spec in modes}
    pipelines = {spec.label: pipeline_for(spec) for spec in modes}
    for done, (query_id, question) in enumerate(queries, start=1):
        row: dict[str, object] = {"id": query_id, "question": question, "modes": {}}
        for spec in modes:
            replayed_seconds()  # reset
            result, fallback = None, None
            for event in pipelines[spec.label].ask(question, spec.mode, generate_answer=False):
                if isinstance(event, QueriesGenerated):
                    fallback = fallback_reason(event.notice)
                elif isinstance(event, AnswerDone):
                    result = event.result
            assert result is not None
            ranked = ranked_records(result, names)
            metrics = score(ranked, beir.qrels[query_id])
            tm = result.timings
            generation = tm.query_generation + replayed_seconds()
            timings = {
                "query_generation": generation,
                "embedding": tm.embedding,
                "retrieval": tm.retrieval,
                "fusion": tm.fusion,
                "rerank": tm.rerank,
                "total": tm.total - tm.query_generation + generation,
            }
            reports[spec.label].add(metrics, timings, len(result.queries), len(result.dropped_queries), fallback)
            best = result.lists[0].hits[0].score if result.lists and result.lists[0].hits else 0.0  # the question's best hit
            row["modes"][spec.label] = {
                "queries": list(result.queries),
                "dropped": list(result.dropped_queries),
                "question_best_similarity": round(best, 4),
                "query_fallback": fallback,
                "top": ranked[:10],
                **metrics,
            }
        yield done, None, row
    for report in reports.values():
        yield len(queries), report, {}


def format_table(summaries: Sequence[dict], title: str = "") -> str:
    header = f"{'mode':60} {'N':>4} {'R@5':>6} {'R@10':>6} {'MRR@10':>6} {'nDCG@10':>7} {'q/Q':>4} {'fallbk':>6} {'qgen s':>6} {'qgen md':>7} {'emb s':>6} {'ret s':>6} {'fuse s':>6} {'rrk s':>6} {'total s':>7}"
    lines = [title] if title else []
    lines += [header, "-" * len(header)]
    # fallbk: questions whose query generation failed or wrote nothing usable, so only the question was searched.
    for s in summaries:
        t = s["mean_seconds"]
        lines.append(
            f"{s['mode'][:60]:60} {s['n']:4} {s['recall@5']:6.3f} {s['recall@10']:6.3f} {s['mrr@10']:6.3f} {s['ndcg@10']:7.3f} "
            f"{s['mean_queries']:4.1f} {s.get('query_fallbacks', 0):6d} {t['query_generation']:6.2f} {s['median_query_generation_seconds']:7.2f} {t['embedding']:6.3f} "
            f"{t['retrieval']:6.3f} {t['fusion']:6.3f} {t['rerank']:6.2f} {t['total']:7.2f}"
        )
    for s in summaries:
        reasons = s.get("query_fallbacks_by_reason", {})
        if s.get("query_fallbacks"):
            lines.append(
                f"{s['mode']}: {s['query_fallbacks']} of {s['n']} questions searched the question alone "
                f"(query generation failed: {reasons.get('failed', 0)}; no usable queries: {reasons.get('empty', 0)})"
            )
    return "\n".join(lines)

