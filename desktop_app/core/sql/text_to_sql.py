"""Text-to-SQL: the LLM writes one SELECT over the user's tables; it runs read-only, capped and timed.

The SQL comes from a model, so it is treated as untrusted, in layers that each suffice alone for writes:
- the tables live in their own database file (storage/table_store.py), so the app's documents and chats are out of reach;
- the connection is opened read-only (`mode=ro` URI) and with `PRAGMA query_only=1`;
- an authorizer allows only SELECT, reads and function calls, and reads only of the chosen documents' tables
  (no INSERT/UPDATE/DELETE/DROP/CREATE/ATTACH/PRAGMA/transaction statements);
- one statement only; a progress handler stops it after a time limit; at most `row_cap` rows are fetched.
"""

from __future__ import annotations

import re
import sqlite3
import time
from collections.abc import Collection
from pathlib import Path

from ..types import ChartSpec, SqlResult

DEFAULT_TIMEOUT_S = 5.0
DEFAULT_ROW_CAP = 200
PROGRESS_STEPS = 10_000  # SQLite VM instructions between time checks (~a millisecond)
MAX_VALUE_BYTES = 10_000_000
ANSWER_ROWS = 20  # result rows shown to the LLM when it writes the answer sentence

_ALLOWED_ACTIONS = {sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION, getattr(sqlite3, "SQLITE_RECURSIVE", 33)}
# The authorizer's action codes (sqlite3.h), by name: other SQLITE_ constants share their numbers.
_ACTION_NAMES = dict(enumerate(
    "create index,create table,create temp index,create temp table,create temp trigger,create temp view,create trigger,"
    "create view,delete from,drop index,drop table,drop temp index,drop temp table,drop temp trigger,drop temp view,"
    "drop trigger,drop view,insert into,pragma,read,select,transaction,update,attach,detach,alter table,reindex,analyze,"
    "create virtual table,drop virtual table,function,savepoint,recursive".split(","),
    start=1,
))
_FENCE = re.compile(r"```(?:sql|sqlite)?\s*(.*?)```", re.IGNORECASE | re.DOTALL)
_START = re.compile(r"\b(SELECT|WITH)\b", re.IGNORECASE)
_CHART_WORDS = re.compile(r"\b(chart|plot|graph|diagram|visuali[sz]e|histogram)s?\b", re.IGNORECASE)
_LINE_WORDS = re.compile(r"\b(line|trend|over time|timeline)\b", re.IGNORECASE)

SQL_SYSTEM = (
    "You write one SQLite SELECT statement that answers the user's question from their tables. "
    "Use only the tables and columns shown; compare text with values as they appear in the sample rows. "
    "When the question asks for a total, an average, a count, or the most or least of something over several rows, "
    "aggregate with SUM, AVG or COUNT and GROUP BY. Return the numbers the answer rests on, with clear names (AS). "
    "Reply with the SQL only, in a ```sql block."
)
# A worked example teaches a small model to aggregate better than the instruction alone (it had answered
# "highest total" with the single largest row). Deliberately outside any test's domain.
SQL_EXAMPLE = (
    'CREATE TABLE "orders" ("customer" TEXT, "month" TEXT, "amount" REAL);\n'
    "/* 3 sample rows of orders:\ncustomer | month | amount\nAcme | March | 120.0\nBolt | March | 80.5\nAcme | April | 60.0\n*/",
    "Which customer spent the most in total in March?",
    "```sql\nSELECT customer, SUM(amount) AS total_amount FROM orders WHERE month = 'March' "
    "GROUP BY customer ORDER BY total_amount DESC LIMIT 1\n```",
)
ANSWER_SYSTEM = (
    "You answer the user's question in one or two sentences, using only the result of an SQL query over their tables. "
    "Copy every number exactly as it appears in the result, without rounding. Do not mention SQL."
)


class QueryRefused(Exception):
    """The SQL tried something other than reading the chosen tables."""


# -- prompts -----------------------------------------------------------------------------------
def sql_messages(question: str, schema: str, failed: SqlResult | None = None) -> list[dict[str, str]]:
    example_schema, example_question, example_sql = SQL_EXAMPLE
    messages = [
        {"role": "system", "content": SQL_SYSTEM},
        {"role": "user", "content": f"Tables:\n\n{example_schema}\n\nQuestion: {example_question}"},
        {"role": "assistant", "content": example_sql},
        {"role": "user", "content": f"Tables:\n\n{schema}\n\nQuestion: {question}"},
    ]
    if failed is not None:
        # The retry sees its own query and SQLite's complaint: most failures are a wrong column or table name.
        messages.append({"role": "assistant", "content": f"```sql\n{failed.sql}\n```"})
        messages.append({"role": "user", "content": f"That query failed: {failed.error}\nWrite a corrected query for the same question, using only the tables and columns shown."})
    return messages


def prompt_value(value: object) -> str:
    """A value as the answer prompt shows it: large numbers with thousands separators.

    The small model likes to write 40,800.75 and, asked to copy 40800.75, wrote "$40,800.80" and "$408,008";
    shown the separators it has nothing to reformat. Below 10,000 (years!) numbers stay as they are.
    """
    if isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value) >= 10_000:
        if isinstance(value, float) and not value.is_integer():
            return f"{value:,.6f}".rstrip("0").rstrip(".")
        return f"{int(value):,}"
    return format_value(value)


def result_text(result: SqlResult, limit: int = ANSWER_ROWS) -> str:
    lines = [" | ".join(result.columns)]
    lines += [" | ".join(prompt_value(v) for v in row) for row in result.rows[:limit]]
    more = len(result.rows) - limit
    if more > 0 or result.truncated:
        lines.append(f"... ({'more than ' if result.truncated else ''}{len(result.rows)} rows in all)")
    return "\n".join(lines)


def answer_messages(question: str, result: SqlResult) -> list[dict[str, str]]:
    return [
        {"role": "system", "content": ANSWER_SYSTEM},
        {"role": "user", "content": f"Question: {question}\n\nQuery result ({len(result.rows)} rows):\n{result_text(result)}\n\nAnswer the question in one or two sentences."},
    ]


def duration_text(seconds: float) -> str:
    """A query's run time as a person reads it: most take well under a millisecond."""
    ms = seconds * 1000
    return "<1 ms" if ms < 1 else f"{ms:.0f} ms" if ms < 1000 else f"{seconds:.1f} s"


def format_value(value: object) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, float):
        return f"{value:.6g}" if abs(value) < 1e15 else str(value)
    return str(value)


_NUMBER = re.compile(r"(?<![\w.])\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?")


def _numbers(text: str) -> set[float]:
    return {float(m.replace(",", "")) for m in _NUMBER.findall(text)}


def unsupported_numbers(answer: str, result: SqlResult, question: str = "") -> list[str]:
    """Numbers in the answer that are in neither the result rows, the SQL nor the question.

    A small model likes to "tidy" numbers (40800.75 became "$40,800.80"); the user should hear that.
    """
    known: set[float] = _numbers(question) | _numbers(result.sql)
    for row in result.rows:
        for value in row:
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                known.add(float(value))
            elif value is not None:
                known |= _numbers(str(value))
    out = []
    for match in _NUMBER.findall(answer):
        value = float(match.replace(",", ""))
        if not any(abs(value - k) <= 1e-9 * max(1.0, abs(k)) for k in known) and match not in out:
            out.append(match)
    return out


def direct_answer(result: SqlResult, limit: int = 5) -> str:
    """The result rows as a plain sentence, for when the model's sentence cannot be trusted."""
    rows = ["; ".join(f"{c} {format_value(v)}" for c, v in zip(result.columns, row)) for row in result.rows[:limit]]
    if len(result.rows) == 1:
        return f"The query result: {rows[0]}."
    more = f" (and {len(result.rows) - limit} more rows)" if len(result.rows) > limit else ""
    return f"The query returned {len(result.rows)} rows: " + " | ".join(rows) + more + "."


# -- the model's reply -------------------------------------------------------------------------
def extract_sql(reply: str) -> str:
    """The SQL in the model's reply: a fenced block if there is one, else the text from the first SELECT/WITH."""
    match = _FENCE.search(reply)
    text = match.group(1) if match else reply
    if not match:
        start = _START.search(text)
        if start:
            text = text[start.start() :]
    return text.strip()


def single_statement(sql: str) -> str:
    """The statement without its final ';'; raises QueryRefused when there is more than one."""
    sql = sql.strip()
    for position, char in enumerate(sql):
        # complete_statement knows about quotes and comments, so a ';' inside a string does not count.
        if char == ";" and sqlite3.complete_statement(sql[: position + 1]):
            rest = sql[position + 1 :].strip()
            if rest and not re.fullmatch(r"(;|\s|--[^\n]*(\n|$))*", rest):
                raise QueryRefused("the model wrote more than one SQL statement; only a single SELECT may run")
            return sql[:position].strip()
    return sql


# -- running it --------------------------------------------------------------------------------
def readonly_connection(path: Path) -> sqlite3.Connection:
    uri = Path(path).resolve().as_uri() + "?mode=ro"
    conn = sqlite3.connect(uri, uri=True, timeout=5, isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA query_only=1")
    return conn


def run_readonly(
    path: Path,
    sql: str,
    allowed_tables: Collection[str],
    timeout_s: float = DEFAULT_TIMEOUT_S,
    row_cap: int = DEFAULT_ROW_CAP,
) -> SqlResult:
    """Run one model-written statement on the tables database; failures come back in `error`, never raised."""
    started = time.perf_counter()
    try:
        statement = single_statement(sql)
    except QueryRefused as exc:
        return SqlResult(sql=sql, error=str(exc))
    if not statement:
        return SqlResult(sql=sql, error="the model wrote no SQL")
    if not Path(path).exists():
        return SqlResult(sql=statement, error="there are no tables yet; import a CSV or Excel file first")
    allowed = {t.lower() for t in allowed_tables}
    denied: list[str] = []

    def authorize(action: int, arg1, arg2, db_name, _source) -> int:
        if action == sqlite3.SQLITE_READ:
            # CTEs and subqueries are read with db_name None; real tables are in "main".
            if db_name is None or (db_name == "main" and (arg1 or "").lower() in allowed):
                return sqlite3.SQLITE_OK
            denied.append(f"reading {arg1}, which is not one of the chosen tables")
            return sqlite3.SQLITE_DENY
        if action in _ALLOWED_ACTIONS:
            return sqlite3.SQLITE_OK
        if (arg1 or "").lower() in ("sqlite_master", "sqlite_schema", "sqlite_temp_master"):
            denied.append("to change the tables themselves (CREATE, DROP or ALTER)")
        else:
            denied.append(f"{_ACTION_NAMES.get(action, f'action {action}')} {arg1 or ''}".strip())
        return sqlite3.SQLITE_DENY

    deadline = time.monotonic() + timeout_s
    timed_out = []

    def progress() -> int:
        if time.monotonic() > deadline:
            timed_out.append(True)
            return 1  # non-zero aborts the statement
        return 0

    try:
        conn = readonly_connection(path)
    except sqlite3.Error as exc:
        return SqlResult(sql=statement, error=f"the tables could not be opened ({exc})")
    try:
        # A single value (randomblob, zeroblob, a long string) may not grow past 10 MB, and nothing can be attached.
        conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_VALUE_BYTES)
        conn.setlimit(sqlite3.SQLITE_LIMIT_ATTACHED, 0)
        conn.set_authorizer(authorize)
        conn.set_progress_handler(progress, PROGRESS_STEPS)
        try:
            cursor = conn.execute(statement)
            rows = cursor.fetchmany(row_cap + 1)
            columns = tuple(d[0] for d in cursor.description or ())
        except (sqlite3.Error, sqlite3.Warning) as exc:
            elapsed = time.perf_counter() - started
            if timed_out:
                message = f"the query ran longer than {timeout_s:g} s and was stopped; ask for something smaller"
            elif denied:
                message = f"only reading is allowed; the query tried {denied[-1]}"
            elif "not authorized" in str(exc):
                message = "only reading is allowed; the query tried something other than reading the tables"
            else:
                message = str(exc)
            return SqlResult(sql=statement, elapsed=elapsed, error=message)
        if not columns:
            return SqlResult(sql=statement, elapsed=time.perf_counter() - started, error="the statement returned no result; only a SELECT may run")
        truncated = len(rows) > row_cap
        return SqlResult(
            sql=statement,
            columns=columns,
            rows=tuple(tuple(r) for r in rows[:row_cap]),
            elapsed=time.perf_counter() - started,
            truncated=truncated,
        )
    finally:
        conn.close()


# -- charts ------------------------------------------------------------------------------------
def wants_chart(question: str) -> bool:
    return bool(_CHART_WORDS.search(question))


def chart_spec(question: str, result: SqlResult) -> ChartSpec | None:
    """A bar (or line, when the question says so) chart of the first numeric column over the first other column."""
    if not wants_chart(question) or not result.ok or not result.rows or len(result.columns) < 1:
        return None

    def numeric(i: int) -> bool:
        values = [r[i] for r in result.rows if r[i] is not None]
        return bool(values) and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)

    numeric_columns = [i for i in range(len(result.columns)) if numeric(i)]
    if not numeric_columns:
        return None
    label_candidates = [i for i in range(len(result.columns)) if i not in numeric_columns]
    # Years and months come out numeric; with two numeric columns the first is the label (x axis).
    if label_candidates:
        label = label_candidates[0]
    elif len(numeric_columns) >= 2:
        label = numeric_columns[0]
    else:
        label = None
    values_index = next(i for i in numeric_columns if i != label)
    labels = tuple(format_value(r[label]) if label is not None else str(n) for n, r in enumerate(result.rows, start=1))
    values = tuple(float(r[values_index] or 0.0) for r in result.rows)
    kind = "line" if _LINE_WORDS.search(question) else "bar"
    return ChartSpec(kind, result.columns[label] if label is not None else "row", result.columns[values_index], labels, values)
