"""What `ask` yields, in order, as one typed union: the window, the CLI and the eval harness consume the same stream.

    [QuestionRewritten] -> [FiltersRead] -> QueriesGenerated -> SourcesRanked -> [EvidenceSelected] -> Token ... -> AnswerDone   (passages)
    [QuestionRewritten] -> SqlRan (1 or 2) -> Token ... -> AnswerDone                       (tables)

Every event is a frozen dataclass; `codec.py` turns each into JSON and back.
"""

from __future__ import annotations

from dataclasses import dataclass

from .types import AskResult, QuestionFilters, Quote, RankedList, Source, SqlResult
from .wording import counted


@dataclass(frozen=True)
class QuestionRewritten:
    """A follow-up was rewritten into a standalone question before searching (only with chat history)."""

    original: str
    standalone: str


@dataclass(frozen=True)
class FiltersRead:
    """The question names files, pages, file types or import dates: the search is limited to them (only when it does)."""

    filters: QuestionFilters


@dataclass(frozen=True)
class QueriesGenerated:
    queries: tuple[str, ...]
    dropped: tuple[str, ...]
    notice: str | None


@dataclass(frozen=True)
class SourcesRanked:
    lists: tuple[RankedList, ...]
    sources: tuple[Source, ...]
    context: tuple[Source, ...]
    answered_from: str = ""  # a whole document's passages: what they were read from ("Answered from the overview of X"), not searched

    @property
    def searched(self) -> bool:  # False: read from a document's overview, with no search and no score
        return not self.answered_from


@dataclass(frozen=True)
class EvidenceSelected:
    """The sentences the model will read, best first, shown before its answer streams (issue 14).

    Each quote cites its passage as numbered in the answer prompt. `missing`: the named things of a list
    question no passage mentions; the answer gets a "not found in your documents" line for each."""

    quotes: tuple[Quote, ...]
    missing: tuple[str, ...] = ()
    # True: a first look while the model writes its search queries, the best sentences of the question's own
    # search (numbered 0: the model will not read them as such); the fused evidence follows and replaces them.
    preliminary: bool = False


# Above the quotes of a first look (EvidenceSelected.preliminary), in the window and on the command line.
FIRST_LOOK_HEADING = "From your documents (a first look while the search queries are written):"


@dataclass(frozen=True)
class SqlRan:
    """A query the LLM wrote for a question about tables has run (or failed); a failure is retried once."""

    result: SqlResult
    attempt: int  # 1, or 2 for the retry with the error given to the LLM


# The steps a person is told about while an answer is prepared (StageStarted.stage).
WRITING_QUERIES, SEARCHING, READING = "writing_queries", "searching", "reading"


def stage_text(stage: str, passages: int = 0, seconds: float | None = None) -> str:
    """The step as the window and the CLI say it; reading, with its estimated time when the speed is known."""
    if stage == READING:
        about = "" if seconds is None else f", about {round(seconds / 60)} min" if seconds >= 90 else f", about {max(1, round(seconds))} s"
        return f"Reading {counted(passages, 'passage')}{about}"
    return {WRITING_QUERIES: "Writing search queries", SEARCHING: "Searching your documents"}.get(stage, stage)


@dataclass(frozen=True)
class StageStarted:
    """A step of preparing the answer begins: the window and the CLI say which while the person waits.

    "writing_queries" (the model writes search queries), "searching", "reading" (the model reads `passages`
    passages before its first word); the first Token means it is writing."""

    stage: str
    passages: int = 0
    seconds: float | None = None  # "reading": the estimated time to read the prompt, from the measured speed


@dataclass(frozen=True)
class Token:
    text: str


@dataclass(frozen=True)
class AnswerDone:
    result: AskResult


AskEvent = QuestionRewritten | FiltersRead | QueriesGenerated | SourcesRanked | EvidenceSelected | SqlRan | Token | AnswerDone | StageStarted
