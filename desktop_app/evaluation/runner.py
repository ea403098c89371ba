"""One eval run from start to end, as the CLI's `eval` command runs it: check the folder and the modes, import
the corpus into a library, ask every sampled question in every mode, summarize.

It yields events (progress, the import's count, the finished report) so the caller only shows them; the
assembly of the app's parts for measuring (its Importer and Pipeline over the library's store, a query
cache in front of the model, one embedder memo shared by the modes) stays here, with the measuring tools.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ..core.ingest.importer import Importer
from ..core.library import Library
from ..core.pipeline import Pipeline
from ..core.modes import REGISTRY
from . import harness
from .query_cache import CachedGenerator


@dataclass(frozen=True)
class EvalPlan:
    """What to measure, checked before anything is imported."""

    folder: Path
    beir: harness.BeirSet
    modes: tuple[harness.ModeSpec, ...]
    questions: tuple[tuple[str, str], ...]  # (query id, question), the sample in file order
    sample: int | None
    seed: int


@dataclass(frozen=True)
class Progress:
    """`done` of `total` steps of the stage named by `label` ("Importing <folder>", "Questions")."""

    label: str
    done: int
    total: int


@dataclass(frozen=True)
class CorpusImported:
    records: int
    added: int  # newly imported this run; the others were unchanged from an earlier run
    home: Path


@dataclass(frozen=True)
class EvalFinished:
    title: str  # the table's heading: the set, its size and the query cache's hits
    summaries: tuple[dict, ...]  # one per mode (ModeReport.summary())
    questions: tuple[dict, ...]  # one row per question with every mode's queries, top records and scores


EvalEvent = Progress | CorpusImported | EvalFinished


def plan_eval(folder: Path, modes: str, sample: int | None = None, seed: int = 0) -> EvalPlan:
    """Raises FileNotFoundError (not a BEIR folder) or ValueError (a mode or a setting that does not exist)."""
    beir = harness.load_beir(folder)
    specs = tuple(harness.parse_mode(m) for m in modes.split(",") if m.strip())
    for spec in specs:
        if spec.mode not in REGISTRY:  # the app's modes and the eval's variants (variants.py)
            raise ValueError(f"unknown mode '{spec.mode}': use one of {', '.join(REGISTRY)}")
    questions = tuple(harness.sample_queries(beir.queries, sample, seed))
    return EvalPlan(Path(folder), beir, specs, questions, sample, seed)


def run_eval(plan: EvalPlan, library: Library, query_cache: Path) -> Iterator[EvalEvent]:
    """Imports the corpus into `library` (unchanged records are skipped) and scores every mode on the sample."""
    folder = plan.folder
    records, names = harness.corpus_records(plan.beir, folder)
    added = 0
    importer = Importer(library.store, library.index, library.embedder)
    for done, event in enumerate(importer.import_texts(records), start=1):
        added += event.stage == "ready"
        yield Progress(f"Importing {folder.name}", done, len(records))
    yield CorpusImported(len(records), added, library.home)

    cache = CachedGenerator(library.generator, query_cache, library.settings.model)
    try:
        embedder = harness.MemoEmbedder(library.embedder)  # the first mode embeds a text, the others reuse it

        def pipeline_for(spec: harness.ModeSpec) -> Pipeline:
            settings = library.settings.replace(**spec.overrides).validated()
            return Pipeline(library.store, library.index, embedder, lambda: cache, settings)

        rows, summaries = [], []
        questions = plan.questions
        for done, report, row in harness.run_modes(plan.beir, names, pipeline_for, plan.modes, questions, cache.take_replayed):
            if report is None:
                rows.append(row)
                yield Progress("Questions", done, len(questions))
            else:
                summaries.append(report.summary())
        title = f"{folder.name}: {len(questions)} questions, {len(plan.beir.corpus)} records (LLM cache: {cache.hits} hits, {cache.misses} misses)"
        yield EvalFinished(title, tuple(summaries), tuple(rows))
    finally:
        cache.close()
