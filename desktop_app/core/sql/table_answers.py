"""Questions about CSV/Excel tables: choose SQL over passages, write and run the SQL, answer from its rows.

When SQL is used: mode "sql", or any mode when every document in the question's scope (the chosen
documents, or the whole library) is a table: a table has no passages to search. With PDFs in the scope
and a passage mode, the question goes to RAG as before.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Sequence

from ..retrieval.followup import Turn, rewrite_followup
from ..events import AnswerDone, QuestionRewritten, SqlRan, Token
from ..models.llm import Generator
from ..models.token_stream import TokenStream
from ..settings import Settings
from ..storage.store import Store
from ..storage.table_store import TableStore
from ..types import AskResult, SqlResult, TableInfo, Timings
from .catalog import catalog
from .text_to_sql import answer_messages, chart_spec, direct_answer, extract_sql, run_readonly, sql_messages, unsupported_numbers

SQL_TOKENS = 300
ANSWER_TOKENS = 120
NO_TABLES = "There are no tables to ask: import a CSV or Excel file, or choose documents that include one."


def tables_for_question(store: Store, mode: str, allowed_documents: Sequence[int] | None) -> list[TableInfo] | None:
    """The tables to query, or None when the question goes to passages (RAG)."""
    docs = [d for d in store.documents() if d.status == "ready"]
    if allowed_documents is not None:
        chosen = set(allowed_documents)
        docs = [d for d in docs if d.id in chosen]
    table_ids = [d.id for d in docs if d.kind == "table"]
    if mode == "sql" or (docs and len(table_ids) == len(docs)):
        return catalog(store, table_ids)
    return None


def warm_up_messages(store: Store, tables: TableStore) -> list[dict[str, str]] | None:
    """The SQL prompt over every table, read at start-up so the first table question re-reads only itself."""
    infos = catalog(store)
    if not infos:
        return None
    return sql_messages("Warm-up question", tables.schema([t.name for t in infos]))


def skipped_tables_notice(store: Store, allowed_documents: Sequence[int] | None) -> str | None:
    """When a passage answer leaves tables in scope unasked, say how to ask them.

    The pipeline asks only for chosen documents: on whole-library questions it would be noise on every answer.
    """
    docs = [d for d in store.documents() if d.status == "ready" and d.kind == "table"]
    if allowed_documents is not None:
        chosen = set(allowed_documents)
        docs = [d for d in docs if d.id in chosen]
    if not docs:
        return None
    names = ", ".join(d.title for d in docs[:3]) + (" and others" if len(docs) > 3 else "")
    return f"Tables ({names}) were not searched: they are asked with SQL in the Tables (SQL) mode (--mode sql)."


def ask_tables(
    generator: Callable[[], Generator],
    tables: TableStore,
    infos: Sequence[TableInfo],
    question: str,
    settings: Settings,
    mode: str,
    history: Sequence[Turn] = (),
    cancel: threading.Event | None = None,
    generate_answer: bool = True,
) -> Iterator[object]:
    """Yields [QuestionRewritten], SqlRan (one per attempt), Token..., AnswerDone."""
    started = time.perf_counter()
    asked = question
    notices: list[str] = []
    if mode != "sql":
        notices.append("Every document searched is a table, so the question was answered with SQL over the tables.")
    if history:
        question = rewrite_followup(generator(), history, question)
        yield QuestionRewritten(asked, question)
    attempts: list[SqlResult] = []
    writing = running = 0.0
    if infos:
        schema = tables.schema([t.name for t in infos])
        names = [t.name for t in infos]
        failed = None
        for attempt in range(1, 2 + settings.sql_retries):
            if cancel is not None and cancel.is_set():
                break
            mark = time.perf_counter()
            reply = generator().complete(sql_messages(question, schema, failed), max_tokens=SQL_TOKENS, temperature=0.0)
            writing += time.perf_counter() - mark
            sql = extract_sql(reply)
            mark = time.perf_counter()
            result = run_readonly(tables.path, sql, names, settings.sql_timeout_s, settings.sql_row_cap) if sql else SqlResult(reply.strip(), error="the model wrote no SQL")
            running += time.perf_counter() - mark
            attempts.append(result)
            yield SqlRan(result, attempt)
            if result.ok:
                break
            failed = result
    final = attempts[-1] if attempts else None

    answer, found, streamed = "", False, False
    first_token_at = None
    answer_started = time.perf_counter()
    if not infos:
        answer = NO_TABLES
    elif final is None:
        answer = "Stopped."
    elif not final.ok:
        tries = "twice" if len(attempts) > 1 else "once"
        answer = f"Your tables could not answer this: the query the model wrote failed {tries} ({final.error})."
    elif not final.rows:
        answer = "The query found no matching rows in your tables."
    elif generate_answer:
        found = streamed = True
        if final.truncated:
            notices.append(f"The result had more than {settings.sql_row_cap} rows; only the first {settings.sql_row_cap} are shown.")
        with TokenStream(generator().stream(answer_messages(question, final), max_tokens=ANSWER_TOKENS, temperature=0.0), cancel) as stream:
            for piece in stream:
                answer += piece
                yield Token(piece)
        first_token_at = stream.first_at
        answer = answer.strip()
        wrong = unsupported_numbers(answer, final, question)
        if wrong:
            # The rows are right and the sentence is not: say so and give the rows themselves.
            notices.append(f"The model's sentence gave {', '.join(wrong)}, which the query result does not contain; the answer shows the result as it is.")
            answer = direct_answer(final)
    else:
        found = True
    if answer and not streamed:  # the app's own sentence (no tables, failed query, no rows)
        first_token_at = time.perf_counter()
        yield Token(answer)
    end = time.perf_counter()
    # query_generation: the model writing SQL; retrieval: the SQL running.
    timings = Timings.with_answer(started, answer_started, first_token_at, end, query_generation=writing, retrieval=running)
    result = AskResult(
        question=asked,
        mode="sql",
        queries=(),
        dropped_queries=(),
        lists=(),
        rrf_k=settings.rrf_k,
        sources=(),
        context=(),
        answer=answer,
        citations=(),
        found=found,
        timings=timings,
        notices=tuple(notices),
        standalone_question=question if question != asked else "",
        sql_runs=tuple(attempts),
        chart=chart_spec(question, final) if final is not None else None,
    )
    yield AnswerDone(result)
