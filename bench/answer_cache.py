"""Asked once, judged many times: the model's raw reply and everything the answer checks read, kept on disk.

`ask_recorded` runs the app's Pipeline.ask for one question and keeps, besides the timings, the model's raw reply
(the pieces the pipeline consumed from the model) and the arguments the pipeline passed to its answer check
(review_answer: the answer, the passages read, the closest sources ...). `rejudge` calls the CURRENT check on them
again, so a change to the checks is measured without generating a single answer again. Entries are pickles under
one folder per (set, mode, settings fingerprint): a new model, setting or answer prompt asks again.
"""

from __future__ import annotations

import contextlib
import hashlib
import pickle
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any


class NotReviewed(RuntimeError):
    """The pipeline answered by another route (a question about a whole document, or tables): nothing to re-judge."""


@dataclass
class Recorded:
    question: str
    mode: str
    raw: str  # what the model wrote, before any check
    review_args: tuple  # positional arguments of the pipeline's review_answer call
    review_kwargs: dict
    total_s: float
    first_token_s: float | None
    review_s: float  # the check's own time when it was asked (rejudge measures it again)


@contextlib.contextmanager
def _recording(sink: dict) -> Iterator[None]:
    """Patches the pipeline's model stream (to keep the raw reply) and its review call (to keep its inputs)."""
    from desktop_app.core import pipeline as pipeline_module

    original_answer = pipeline_module.Pipeline.answer
    original_review = pipeline_module.review_answer

    def answer(self, *args, **kwargs):
        pieces = original_answer(self, *args, **kwargs)

        def tee():
            for piece in pieces:
                sink.setdefault("raw", []).append(piece)
                yield piece

        return tee()

    def review(*args, **kwargs):
        started = time.perf_counter()
        result = original_review(*args, **kwargs)
        kept = {k: v for k, v in kwargs.items() if k not in ("embedder", "question_check", "model_check")}  # models: rejudge passes its own
        sink["review"] = (args, kept, time.perf_counter() - started)
        return result

    pipeline_module.Pipeline.answer = answer
    pipeline_module.review_answer = review
    try:
        yield
    finally:
        pipeline_module.Pipeline.answer = original_answer
        pipeline_module.review_answer = original_review


def ask_recorded(pipeline, question: str, mode: str) -> Recorded:
    from desktop_app.core.events import AnswerDone

    sink: dict[str, Any] = {}
    started = time.perf_counter()
    result = None
    with _recording(sink):
        for event in pipeline.ask(question, mode):
            if isinstance(event, AnswerDone):
                result = event.result
    if result is None:
        raise RuntimeError("the pipeline ended without an answer")  # not the question: a report half's are never printed
    if "review" not in sink and result.found:
        raise NotReviewed("the pipeline answered without the passage check (a whole-document or table question)")
    # Refused before the model was asked (nothing it would read is close enough to the question): a refusal like any
    # other, recorded as the check would see it, so it counts as "not found" for every measure instead of leaving the set.
    args, kwargs, review_s = sink.get("review") or ((result.answer, False, question, result.context, result.sources), {}, 0.0)
    timings = result.timings
    return Recorded(question, mode, "".join(sink.get("raw", [])), args, kwargs, time.perf_counter() - started,
                    timings.first_token or None, review_s)


@dataclass(frozen=True)
class Judged:
    answer: str
    found: bool
    citations: tuple
    notices: tuple[str, ...]
    seconds: float


def rejudge(recorded: Recorded, embedder=None, model_check=None) -> Judged:
    """The current answer check on the recorded inputs (looked up now, so an edited check is the one run), with the
    library's embedder and the model's checks (model_check.py) as the pipeline passes them (recordings made before
    the check took them lack them; an older check is not passed what it does not take, so it can judge newer recordings)."""
    import inspect

    from desktop_app.core import pipeline as pipeline_module

    parameters = inspect.signature(pipeline_module.review_answer).parameters
    kwargs = {k: v for k, v in recorded.review_kwargs.items() if k in parameters}
    if embedder is not None and "embedder" in parameters:
        kwargs["embedder"] = embedder
    if model_check is not None and "model_check" in parameters:
        kwargs["model_check"] = model_check
    started = time.perf_counter()
    reviewed = pipeline_module.review_answer(*recorded.review_args, **kwargs)
    return Judged(reviewed.answer, reviewed.found, tuple(reviewed.citations), tuple(reviewed.notices), time.perf_counter() - started)


def unchecked(recorded: Recorded) -> tuple[str, bool]:
    """The answer with every check switched off: the model's raw reply, or nothing when it (or the gate) refused."""
    answer, found = recorded.review_args[0], recorded.review_args[1]
    return (recorded.raw.strip() if found else ""), bool(found)


class AnswerCache:
    def __init__(self, folder: Path):
        self.folder = Path(folder)

    def path(self, set_name: str, mode: str, fingerprint: str, qid: str, question: str) -> Path:
        digest = hashlib.sha256(question.encode()).hexdigest()[:10]
        return self.folder / set_name / f"{mode}-{fingerprint}" / f"{qid}-{digest}.pkl"

    def newest_recording(self, path: Path) -> Path | None:
        """The newest recording of the same set, mode, question id and question under any settings fingerprint (a
        settings default changed since it was asked): for --judge-only, which may re-judge but never ask."""
        mode = path.parent.name.rsplit("-", 1)[0]
        others = [p for p in path.parent.parent.glob(f"{mode}-*/{path.name}") if p.parent.name.rsplit("-", 1)[0] == mode]
        return max(others, key=lambda p: p.stat().st_mtime, default=None)

    def load(self, path: Path) -> Recorded | None:
        try:
            with path.open("rb") as f:
                return pickle.load(f)
        except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ImportError, TypeError):
            return None  # not asked yet, cut short, or written by code whose types have changed: ask again

    def store(self, path: Path, recorded: Recorded) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".tmp")
        with partial.open("wb") as f:
            pickle.dump(recorded, f)
        partial.replace(path)
