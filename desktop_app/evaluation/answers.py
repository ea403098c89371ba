"""Answer-level evaluation: the full ask (query generation, fusion, answer) for each question of a BEIR
folder, through the same Pipeline as the window, scored on what the user reads.

    python -m desktop_app.evaluation.answers DIR --modes rag,naive-fusion,fusion [--sample N] [--seed 0]
        [--home H] [--query-cache F] [--json FILE] [--fresh] [--report-only]

Per mode it prints the retrieval columns (as `desktop-app-cli eval`) beside cited-evidence recall,
citation precision, loose answer accuracy (where queries.jsonl carries "answers"), the share of cited
sentences the citation check supports, the "not found" rate and the median first-token and total times
(answer_report.py defines each column). `--json` keeps every answer with its citations and per-question
metrics, for bench/paired_difference.py.

Search-stage LLM calls (generated queries, rewrites, reranking) go through the query cache shared with the
retrieval eval, their replayed model time added back to the timings; the answer itself is always generated
live, so its first-token time is real. Every finished (question, mode) is appended to FILE.rows.jsonl,
so an interrupted run resumes where it stopped (`--fresh` starts over; do so after changing the code).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict
from pathlib import Path

from .claims import judged_claims
from ..core.answers.prompts import answer_messages
from ..core.events import AnswerDone, SourcesRanked
from ..core.models.llm import Generator
from ..core.modes import REGISTRY, mode_named
from ..core.settings import Settings
from ..core.types import AskResult
from . import answer_metrics as metrics
from .answer_report import format_table, summarize
from .harness import BeirSet, ModeSpec, corpus_records, load_beir, parse_mode, ranked_records, sample_queries, score
from .options import add_answer_arguments, add_eval_arguments
from .query_cache import CachedGenerator


class SearchCachedGenerator:
    """The pipeline's model for the answer eval: calls before SourcesRanked (the search stage) go through
    the query cache; calls after it (the answer) go to the live model, so answer timings are never replayed."""

    def __init__(self, cache: CachedGenerator, live: Callable[[], Generator]):
        self.cache = cache
        self._live = live
        self.name = cache.name
        self.answering = False

    def _target(self):
        return self._live() if self.answering else self.cache

    def stream(self, messages, max_tokens: int, temperature: float = 0.0, stop: Sequence[str] = ()):
        return self._target().stream(messages, max_tokens, temperature, stop)

    def complete(self, messages, max_tokens: int, temperature: float = 0.0, stop: Sequence[str] = ()) -> str:
        return self._target().complete(messages, max_tokens, temperature, stop)

    def reply_odds(self, messages, words: Sequence[str]) -> dict[str, float] | None:
        # The answer's question check reads the live model's odds, as the app's does (a reply only without them).
        return getattr(self._target(), "reply_odds", lambda *_: None)(messages, words)

    def count_tokens(self, text: str) -> int:
        return self._live().count_tokens(text)

    def warm_up(self, messages) -> None:
        warm_up = getattr(self._live(), "warm_up", None)
        if warm_up is not None:
            warm_up(messages)


def load_gold_answers(folder: Path) -> dict[str, list[str]]:
    """Query id -> gold answer strings, from the optional "answers" field of queries.jsonl."""
    gold: dict[str, list[str]] = {}
    for line in (Path(folder) / "queries.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            record = json.loads(line)
            if record.get("answers"):
                gold[str(record["_id"])] = [str(a) for a in record["answers"]]
    return gold


def ask_fully(pipeline, router: SearchCachedGenerator, question: str, mode: str) -> tuple[AskResult, float]:
    """One full ask; returns the result and the search-stage model seconds the cache replayed."""
    router.cache.take_replayed()
    router.answering = False
    result = None
    try:
        for event in pipeline.ask(question, mode):
            if isinstance(event, SourcesRanked):
                router.answering = True
            elif isinstance(event, AnswerDone):
                result = event.result
    finally:
        router.answering = False
    assert result is not None, "the pipeline ended without AnswerDone"
    return result, router.cache.take_replayed()


def record_of(file: str, names: dict[str, str]) -> str | None:
    return names.get(Path(file).name)


def score_answer(result: AskResult, replayed: float, relevant: dict[str, int], gold: Sequence[str], names: dict[str, str]) -> dict:
    """Everything kept about one answer: the answer, its citations and every per-question metric."""
    cited = list(dict.fromkeys(r for c in result.citations if (r := record_of(c.file, names)) is not None))
    checks = [(claim, g.grounded) for claim, g in judged_claims(result.answer, result.context, result.question)] if result.found else []
    timings = result.timings
    said = result.answer if result.found else ""
    return {
        "answer": result.answer,
        "found": result.found,
        "queries": list(result.queries),
        "context_records": [record_of(s.passage.file, names) for s in result.context],
        "citations": [
            {"n": c.n, "record": record_of(c.file, names), "file": Path(c.file).name, "page": c.page, "chunk_id": c.chunk_id, "supported": c.supported}
            for c in result.citations
        ],
        "cited_records": cited,
        "notices": list(result.notices),
        **score(ranked_records(result, names), relevant),
        "cited_recall": metrics.cited_evidence_recall(cited, relevant),
        "citation_precision": metrics.citation_precision(cited, relevant),
        "cites_any": bool(cited),
        "supported_share": metrics.supported_share(checks),
        # A "not found" answer names the closest files, which may hold a gold string: it answered nothing.
        "accuracy": metrics.loose_accuracy(gold, said),
        "all_correct": metrics.all_correct(gold, said),
        "not_found": not result.found,
        # From the question to the first answer token / the end, with the cached search-stage time added back.
        "first_token_s": round(timings.first_token + replayed, 3) if timings.first_token else None,
        "total_s": round(timings.total + replayed, 3),
    }


def settings_fingerprint(settings: Settings, model: str, rejudged: tuple[str, ...] = ()) -> str:
    """Identifies what answered: a row of an earlier run is reused only under the same model, settings and answer prompt.
    `rejudged`: settings only the answer check reads, left out by a caller that runs the check again on every row."""
    prompt = answer_messages("?", [], settings.general_knowledge)
    fields = {k: v for k, v in asdict(settings).items() if k not in rejudged}
    blob = json.dumps([model, fields, prompt], sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def read_checkpoint(path: Path | None) -> dict[tuple[str, str, str], dict]:
    """(query id, mode, settings fingerprint) -> its row, from an earlier (interrupted) run."""
    if path is None or not path.exists():
        return {}
    rows = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            row = json.loads(line)
        except ValueError:
            continue  # a line cut short when the run was killed
        rows[(row["id"], row["mode"], row["fingerprint"])] = row
    return rows


def import_corpus(library, folder: Path, beir: BeirSet) -> dict[str, str]:
    """Every corpus record into the library (new ones imported, unchanged ones skipped); file name -> record id."""
    from ..core.ingest.importer import Importer

    records, names = corpus_records(beir, folder)
    imported = 0
    for done, event in enumerate(Importer(library.store, library.index, library.embedder).import_texts(records), start=1):
        imported += event.stage == "ready"
        if done % 500 == 0:
            print(f"importing {folder.name}: {done} of {len(records)}", file=sys.stderr, flush=True)
    print(f"{len(records)} records in the library ({imported} newly imported) at {library.home}", file=sys.stderr)
    return names


def evaluate(
    beir: BeirSet,
    gold: dict[str, list[str]],
    names: dict[str, str],
    pipelines: dict[str, tuple[ModeSpec, object, str]],
    router: SearchCachedGenerator,
    questions: Sequence[tuple[str, str]],
    checkpoint: Path | None = None,
    done_rows: dict | None = None,
    run: bool = True,
) -> list[dict]:
    """Every question through every mode, modes interleaved per question (so a cut-short run stays paired).

    `pipelines`: mode label -> (spec, pipeline, settings fingerprint). Returns one entry per question
    with its per-mode rows; rows found in `done_rows` are reused, not asked again.
    """
    done_rows = done_rows or {}
    out = []
    for number, (query_id, question) in enumerate(questions, start=1):
        entry = {"id": query_id, "question": question, "relevant": sorted(beir.qrels[query_id]), "gold": gold.get(query_id, []), "modes": {}}
        for label, (spec, pipeline, fingerprint) in pipelines.items():
            row = done_rows.get((query_id, label, fingerprint))
            if row is None and run:
                result, replayed = ask_fully(pipeline, router, question, spec.mode)
                row = {"id": query_id, "mode": label, "fingerprint": fingerprint, **score_answer(result, replayed, beir.qrels[query_id], entry["gold"], names),
                       "load_average": round(os.getloadavg()[0], 2)}  # timings from a busy machine say so
                if checkpoint is not None:
                    with checkpoint.open("a", encoding="utf-8") as f:
                        f.write(json.dumps(row) + "\n")
                print(f"[{number}/{len(questions)}] {label}: cited {row['cited_recall']:.2f}, {'not found' if row['not_found'] else 'answered'}, {row['total_s']:.0f} s", file=sys.stderr, flush=True)
            if row is not None:
                entry["modes"][label] = {k: v for k, v in row.items() if k not in ("id", "mode", "fingerprint")}
        out.append(entry)
    return out


def mode_pipelines(library, specs: Sequence[ModeSpec], router: SearchCachedGenerator) -> dict[str, tuple[ModeSpec, object, str]]:
    """Mode label -> (spec, the window's Pipeline over the library with the mode's settings, settings fingerprint)."""
    from ..core.pipeline import Pipeline

    pipelines = {}
    for spec in specs:
        settings = library.settings.replace(**spec.overrides).validated()
        pipeline = Pipeline(library.store, library.index, library.embedder, lambda: router, settings, library.tables)
        pipelines[spec.label] = (spec, pipeline, settings_fingerprint(mode_named(spec.mode).settings_for(settings), library.model_label()))
    return pipelines


def run(args: argparse.Namespace) -> int:
    """The answer eval for parsed arguments (the names `desktop-app-cli eval` uses, plus fresh/report_only)."""
    folder = Path(args.dir)
    try:
        beir = load_beir(folder)
        gold = load_gold_answers(folder)
        specs = [parse_mode(m) for m in args.modes.split(",") if m.strip()]
    except (FileNotFoundError, ValueError) as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 2
    unknown = [s.mode for s in specs if s.mode not in REGISTRY or s.mode == "sql"]
    if unknown:
        print(f"Error: unknown mode '{unknown[0]}': use one of {', '.join(m for m in REGISTRY if m != 'sql')}", file=sys.stderr)
        return 2
    home = Path(args.home) if args.home else folder / "eval-library"
    checkpoint = Path(args.json + ".rows.jsonl") if args.json else None
    if checkpoint is not None and getattr(args, "fresh", False) and checkpoint.exists():
        checkpoint.unlink()
    report_only = getattr(args, "report_only", False)
    from ..core.library import Library

    library = Library(home=home)
    for notice in library.notices:
        print(notice, file=sys.stderr)
    names = corpus_records(beir, folder)[1] if report_only else import_corpus(library, folder, beir)
    cache = CachedGenerator(library.generator, Path(args.query_cache) if args.query_cache else home / "query-cache.sqlite", library.settings.model)
    router = SearchCachedGenerator(cache, library.generator)
    pipelines = mode_pipelines(library, specs, router)
    questions = sample_queries(beir.queries, args.sample, args.seed)
    if not report_only:
        next(iter(pipelines.values()))[1].warm_up()  # the app warms the prompts' prefixes when its model loads
    entries = evaluate(beir, gold, names, pipelines, router, questions, checkpoint, read_checkpoint(checkpoint), run=not report_only)
    summaries = summarize(entries, list(pipelines))
    load = metrics.median_of(r.get("load_average") for e in entries for r in e["modes"].values()) or 0.0
    title = (
        f"{folder.name}: {len(questions)} questions, {len(beir.corpus)} records, model {library.model_label()}; "
        f"median load average {load:.1f} while answering" + (" (TIMES MEASURED UNDER LOAD: other work shared the 2 cores)" if load > 2.5 else "")
    )
    print(format_table(summaries, title, has_gold=bool(gold)))
    if args.json:
        Path(args.json).write_text(
            json.dumps({"dir": str(folder), "n": len(questions), "sample": args.sample, "seed": args.seed, "model": library.model_label(),
                        "median_load_average": load, "summaries": summaries, "questions": entries}, indent=1)
        )
    cache.close()
    library.close()
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m desktop_app.evaluation.answers", description=__doc__.splitlines()[0])
    add_eval_arguments(parser)
    add_answer_arguments(parser)
    return parser


if __name__ == "__main__":
    sys.exit(run(build_parser().parse_args()))
