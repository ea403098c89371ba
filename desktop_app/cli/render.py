"""What a user sees of a stream of events: the one place the CLI turns events into output.

`ask` and `search` stream AskEvents (core/events.py), `ingest` ImportProgress, `eval` the evaluation runner's
events. A renderer has one method per event type, named after it (QueriesGenerated -> queries_generated,
dispatched by name as `ast.NodeVisitor` does, so this module needs no import of the heavy modules that
define the eval's events). `TextRenderer` writes what a person reads; `JsonRenderer` writes the finished
answer through core/codec.py, the same JSON the chats store.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, TextIO, TypeVar

from ..core.codec import result_to_json
from ..core.events import (
    FIRST_LOOK_HEADING,
    AnswerDone,
    EvidenceSelected,
    FiltersRead,
    QueriesGenerated,
    QuestionRewritten,
    SourcesRanked,
    SqlRan,
    StageStarted,
    Token,
    stage_text,
)
from ..core.ingest.embedding_queue import duration_words
from ..core.places import also_label, citation_label
from ..core.places import short_place as section_place
from ..core.sql.text_to_sql import duration_text, format_value
from ..core.types import AskResult, ImportProgress, Passage, SqlResult
from ..core.wording import counted, counted_units
from .progress import ProgressBar

if TYPE_CHECKING:
    from ..evaluation.runner import CorpusImported, EvalFinished, Progress

E = TypeVar("E")


def method_name(event_type: type) -> str:
    """The renderer method that shows an event of this type: QueriesGenerated -> queries_generated."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", event_type.__name__).lower()


# Import events told in one line each (the others have bars, counts or hints).
ONE_LINERS = {"removed": "removed  {name}: {message}", "skipped": "skipped  {name}: {message}", "cancelled": "cancelled {name}", "warning": "warning  {message}"}

class Renderer:
    """Shows a stream of events; every method here shows nothing, so a renderer overrides only what it shows."""

    def show(self, events: Iterable[E]) -> Iterator[E]:
        """Shows each event as it passes and hands it on, for a caller that also keeps some (a count, a report)."""
        try:
            for event in events:
                getattr(self, method_name(type(event)), self.other_event)(event)
                yield event
        finally:
            self.close()
        self.finish()

    def render(self, events: Iterable[object]) -> None:
        for _ in self.show(events):
            pass

    def finish(self) -> None:
        """The stream ended without an error."""

    def close(self) -> None:
        """The stream ended, with or without an error."""

    def chat_opened(self, chat_id: int) -> None:
        """A question goes to this chat (not an event of the stream: the command opens the chat first)."""

    def other_event(self, event: object) -> None:
        """An event type this renderer has no method for (one the core added later): nothing to show."""

    # AskEvent
    def question_rewritten(self, event: QuestionRewritten) -> None: ...
    def filters_read(self, event: FiltersRead) -> None: ...
    def queries_generated(self, event: QueriesGenerated) -> None: ...
    def sources_ranked(self, event: SourcesRanked) -> None: ...
    def evidence_selected(self, event: EvidenceSelected) -> None: ...
    def sql_ran(self, event: SqlRan) -> None: ...
    def token(self, event: Token) -> None: ...
    def stage_started(self, event: StageStarted) -> None: ...
    def answer_done(self, event: AnswerDone) -> None: ...

    # importing files, and the eval runner's events
    def import_progress(self, event: ImportProgress) -> None: ...
    def progress(self, event: Progress) -> None: ...
    def corpus_imported(self, event: CorpusImported) -> None: ...
    def eval_finished(self, event: EvalFinished) -> None: ...


class JsonRenderer(Renderer):
    """`--json`: the finished answer as core/codec.py writes it, printed once the stream has ended without error
    (a failed question leaves stdout empty, never half a result)."""

    def __init__(self, out: TextIO | None = None):
        self.out = out or sys.stdout
        self.result: AskResult | None = None

    def answer_done(self, event: AnswerDone) -> None:
        self.result = event.result

    def finish(self) -> None:
        if self.result is not None:
            print(json.dumps(result_to_json(self.result), indent=2), file=self.out)


class TextRenderer(Renderer):
    """Plain text on stdout as events arrive (the answer streams token by token); progress bars on stderr."""

    def __init__(self, out: TextIO | None = None, suggest_password_flag: bool = False):
        self.out = out or sys.stdout  # looked up now, not at import: tests swap sys.stdout
        self.suggest_password_flag = suggest_password_flag  # a protected file's failure names --password
        self._bar: ProgressBar | None = None
        self._queue_seen = False  # the import's one embedding queue has its bar: no bar per file then
        self._heading_due = False  # "Answer:" is printed before the first token (after the SQL or the quotes)
        self._streamed = ""

    def line(self, text: str = "") -> None:
        print(text, file=self.out)

    def close(self) -> None:
        self._end_bar()

    def chat_opened(self, chat_id: int) -> None:
        self.line(f"Chat {chat_id}")

    # -- a question -------------------------------------------------------------------------------
    def question_rewritten(self, event: QuestionRewritten) -> None:
        self.line(f"Searched as: {event.standalone}")

    def filters_read(self, event: FiltersRead) -> None:
        """The filters the question stated, each with how to ask without it (the window's chips)."""
        self.line("Filters: " + "; ".join(p.label for p in event.filters.parts))
        self.line(f"  searched: {event.filters.searched}   (--ignore-filter '<words>' searches them as words: " + ", ".join(f"'{p.phrase}'" for p in event.filters.parts) + ")")
        self._heading_due = True

    def queries_generated(self, event: QueriesGenerated) -> None:
        if event.queries:
            self.line("Search queries:")
            for query in event.queries:
                self.line(f"  - {query}")
        if event.notice:
            self.line(f"Note: {event.notice}")

    def sources_ranked(self, event: SourcesRanked) -> None:
        if not event.searched:  # a whole document's answer: its passages were read from it
            self.line("Passages read (not searched):")
            for s in event.context:
                self.line(f"   {s.n:3}. {Path(s.passage.file).name} {short_place(s.passage)}")
            self._heading_due = True
            return
        self.line("Fused passages (RRF):")
        for s in event.sources[: max(10, len(event.context))]:
            mark = "*" if s in event.context else " "
            ranks = ", ".join(f"{r}" for r in s.ranks.values())
            also = f"  ({also_label(s.also)})" if s.also else ""
            self.line(f" {mark}{s.n:3}. {s.rrf_score:.4f}  {Path(s.passage.file).name} {short_place(s.passage)}  ranks: {ranks}{also}")
        self._heading_due = True

    def evidence_selected(self, event: EvidenceSelected) -> None:
        """The quotes the model will read, before its answer: something to read while it thinks."""
        if event.quotes:
            self.line("\n" + (FIRST_LOOK_HEADING if event.preliminary else "From your documents:"))
        for quote in event.quotes:
            about = f"{quote.name}: " if quote.name else ""
            number = f"[{quote.citation.n}] " if quote.citation.n else ""
            also = f" ({also_label(quote.citation.also)})" if quote.citation.also else ""
            self.line(f"  > {about}\u201c{quote.citation.text}\u201d {number}{citation_label(quote.citation)}{also}")
        for name in event.missing:
            self.line(f"  > {name}: nothing found in your documents")

    def stage_started(self, event: StageStarted) -> None:
        """The step under way, on stderr beside the progress bars: stdout keeps only the answer and its evidence."""
        print(f"{stage_text(event.stage, event.passages, event.seconds)}...", file=sys.stderr, flush=True)

    def sql_ran(self, event: SqlRan) -> None:
        self.line("SQL (retry):" if event.attempt > 1 else "SQL:")
        for text in sql_table_lines(event.result):
            self.line(text)
        self._heading_due = True

    def token(self, event: Token) -> None:
        if self._heading_due:
            self.line("\nAnswer:")
            self._heading_due = False
        self._streamed += event.text
        self.out.write(event.text)
        self.out.flush()

    def answer_done(self, event: AnswerDone) -> None:
        result = event.result
        self.line("\n")
        # The checks after the answer may change what streamed (an SQL result's numbers, a citation moved to the
        # passage that says it, a list line that names something no passage mentions): show the answer they kept.
        if self._streamed and result.answer.strip() != self._streamed.strip():
            self.line(f"Corrected answer: {result.answer}\n")
        for c in result.citations:
            snippet = " ".join(c.text.split())[:100]
            flag = "" if c.supported else f"  (unsupported? {c.reason})" if c.reason else "  (unsupported?)"
            self.line(f"[{c.n}] {citation_label(c)}{flag}: {snippet}...")
        for notice in result.notices:
            self.line(f"Note: {notice}")
        tm = result.timings
        if result.sql_runs:
            self.line(f"\n({tm.total:.1f} s; SQL written in {tm.query_generation:.1f} s, ran in {duration_text(tm.retrieval)}; answer {tm.generation:.1f} s)")
        else:
            waited = f"; waited {tm.model_wait:.1f} s for the model" if tm.model_wait >= 0.05 else ""
            queries = "" if result.answered_from else f"; queries {tm.query_generation:.1f} s"  # a whole document's: none written
            self.line(f"\n({tm.total:.1f} s; first token after {tm.first_token:.1f} s{queries}{waited})")

    # -- importing files ----------------------------------------------------------------------------
    def import_progress(self, event: ImportProgress) -> None:
        name = Path(event.file).name
        if event.stage == "indexing" and event.total:
            self._queue_seen = True
            left = f"{duration_words(event.seconds_left)} left" if event.seconds_left and event.done < event.total else ""
            self._show_bar("meaning index (passages)", event.done, event.total, left)
        elif event.stage == "extracting" and event.total or event.stage == "embedding" and event.total and not self._queue_seen:
            self._show_bar(f"{name}: {event.stage}", event.done, event.total)
        elif event.stage in ("searchable", "ready"):
            self._end_bar()
            note = f" ({event.message})" if event.message else ""
            searchable = ", searchable by keyword" if event.stage == "searchable" else ""
            self.line(f"{'stored' if searchable else 'ready':8} {name}: {counted_units(event.total, event.unit)}{searchable}{note}")
        elif event.stage == "failed":
            hint = " (give it with --password)" if "password" in event.message and self.suggest_password_flag else ""
            self.line(f"failed   {name}: {event.message}{hint}")
        elif event.stage in ONE_LINERS:
            self.line(ONE_LINERS[event.stage].format(name=name, message=event.message))

    # -- an eval run --------------------------------------------------------------------------------
    def progress(self, event: Progress) -> None:
        self._show_bar(event.label, event.done, event.total)

    def corpus_imported(self, event: CorpusImported) -> None:
        print(f"{event.records} records in the library ({event.added} newly imported) at {event.home}", file=sys.stderr)

    def eval_finished(self, event: EvalFinished) -> None:
        from ..evaluation.harness import format_table

        self.line(format_table(event.summaries, event.title))

    # -- the bar ------------------------------------------------------------------------------------
    def _show_bar(self, label: str, done: int, total: int, note: str = "") -> None:
        """One bar at a time: a new label ends the last one; a bar ends when its work is done."""
        if self._bar is not None and self._bar.label != label:
            self._end_bar()
        if self._bar is None:
            self._bar = ProgressBar(label, total, done)
        self._bar.update(done, total, note)
        if done >= total:
            self._end_bar()

    def _end_bar(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None


def short_place(passage: Passage) -> str:
    """The fused list's place column: "p.3", or "table p.3" for a table chunk; "§ 3.2 Warranty" in a Word or HTML file."""
    if passage.section is not None:
        return section_place(passage)
    return f"table p.{passage.page}" if passage.kind == "table" else f"p.{passage.page}"


def sql_table_lines(result: SqlResult, max_rows: int = 20) -> list[str]:
    """The SQL the model wrote, indented, and its result rows as a plain text table (numbers to the right)."""
    lines = [f"  {line}" for line in result.sql.splitlines()]
    if not result.ok:
        return [*lines, f"Query failed: {result.error}"]
    cells = [list(result.columns)] + [[format_value(v) for v in row] for row in result.rows[:max_rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(result.columns))]
    for n, row in enumerate(cells):
        numeric = [n > 0 and isinstance(result.rows[n - 1][i], (int, float)) for i in range(len(row))]
        lines.append("  " + "  ".join(c.rjust(w) if right else c.ljust(w) for c, w, right in zip(row, widths, numeric)).rstrip())
        if n == 0:
            lines.append("  " + "  ".join("-" * w for w in widths))
    more = "more than " if result.truncated else ""
    extra = f", first {max_rows} shown" if len(result.rows) > max_rows else ""
    lines.append(f"({more}{counted(len(result.rows), 'row')}{extra}; {duration_text(result.elapsed)})")
    return lines
