"""CSV and Excel files as SQLite tables: read, type, name, store, list, drop.

Where the tables live: a database file of their own (`tables.sqlite` in the data folder), not the app's
`library.sqlite`. Questions about tables run SQL that the LLM writes; however carefully that SQL is
checked (read-only connection, query_only, an authorizer), a connection that cannot even see the app's
documents, chunks and chats is the guard that needs no checking. The app's database keeps only a
catalog (`data_tables`: which document owns which table), so removing a document drops its tables.

The two files are not one transaction: tables are created first, then the catalog row is committed; a
crash in between leaves an unreferenced table that no question can reach (questions read only catalogued
tables of the chosen documents) and that a later import never collides with (names are unique).
"""

from __future__ import annotations

import csv
import io
import json
import re
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time
from pathlib import Path

from ..errors import ImportFailed
from ..storage.store import Store

TABLE_SUFFIXES = {".csv", ".tsv", ".xlsx", ".xlsm"}
SAMPLE_BYTES = 64 * 1024
INSERT_BATCH = 1000
MAX_NAME = 40
_INT = re.compile(r"^[+-]?\d+$")
_FLOAT = re.compile(r"^[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?$")


class TableFileError(ImportFailed):
    hint = "Fix the file (one header row, the same number of fields in every row) and import it again."


@dataclass(frozen=True)
class ParsedTable:
    """One sheet or CSV file, typed, before it is stored."""

    source_name: str  # "sales.csv" or "report.xlsx: Q1"
    base_name: str  # what the SQL table name is derived from
    columns: tuple[str, ...]  # sanitized, unique
    headers: tuple[str, ...]  # as written in the file
    types: tuple[str, ...]  # "INTEGER", "REAL" or "TEXT"
    rows: tuple[tuple[object, ...], ...]


@dataclass(frozen=True)
class TableInfo:
    """A stored table and the document it came from (the catalog's row)."""

    document_id: int
    name: str
    source_name: str
    rows: int
    columns: tuple[str, ...]


def is_table_file(path: Path) -> bool:
    return path.suffix.lower() in TABLE_SUFFIXES


def quote(identifier: str) -> str:
    return '"' + identifier.replace('"', '""') + '"'


def sanitize(name: str, fallback: str) -> str:
    """A lower-case [a-z0-9_] identifier a small model can write without quoting."""
    text = re.sub(r"[^0-9a-zA-Z]+", "_", name.strip()).strip("_").lower()
    if not text:
        text = fallback
    if text[0].isdigit():
        text = f"{fallback[0]}_{text}"
    if text.startswith("sqlite_"):  # SQLite reserves these names
        text = "t_" + text
    return text[:MAX_NAME]


def unique(name: str, taken: set[str]) -> str:
    candidate, n = name, 2
    while candidate.lower() in taken:
        candidate = f"{name[: MAX_NAME - 4]}_{n}"
        n += 1
    taken.add(candidate.lower())
    return candidate


# -- typing ------------------------------------------------------------------------------------
def _column_type(values: Iterable[str | None]) -> str:
    kind = "INTEGER"
    seen = False
    for value in values:
        if value is None or value == "":
            continue
        seen = True
        # "007" is a code, not the number 7; keep its zeros.
        if kind == "INTEGER" and _INT.match(value) and not re.match(r"^[+-]?0\d", value):
            continue
        if _FLOAT.match(value) and not re.match(r"^[+-]?0\d", value):
            kind = "REAL"
            continue
        return "TEXT"
    return kind if seen else "TEXT"


def _convert(value: str | None, kind: str) -> object:
    if value is None or value == "":
        return None
    if kind == "INTEGER":
        return int(value)
    if kind == "REAL":
        return float(value)
    return value


def _cell_text(value: object) -> str | None:
    """An Excel cell as the text a CSV would hold: dates as ISO text (SQLite has no date type; ISO sorts right)."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime):
        return value.date().isoformat() if value.time() == time(0) else value.isoformat(sep=" ")
    if isinstance(value, (date, time)):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return str(int(value))
    return str(value).strip()


def _looks_like_header(first: Sequence[str | None]) -> bool:
    cells = [c for c in first if c not in (None, "")]
    if not cells or len(set(cells)) != len(cells):
        return False
    # A number is data; headers are names. A first row of distinct words is taken as a header even over
    # all-text data: nearly every exported table has one, and without it columns would be col_1, col_2...
    return not any(_FLOAT.match(c) for c in cells)


def build_table(source_name: str, base_name: str, grid: list[list[str | None]]) -> ParsedTable:
    """Header, sanitized unique column names and column types from a grid of cell texts."""
    grid = [row for row in grid if any(c not in (None, "") for c in row)]
    if not grid:
        raise TableFileError(f"{source_name} is empty")
    header = _looks_like_header(grid[0])
    raw_headers = [c or "" for c in grid[0]] if header else [f"col_{i}" for i in range(1, len(grid[0]) + 1)]
    data = grid[1:] if header else grid
    if not data:
        raise TableFileError(f"{source_name} has a header but no rows of data")
    width = len(raw_headers)
    for number, row in enumerate(data, start=2 if header else 1):
        if len(row) != width:
            raise TableFileError(
                f"{source_name}: row {number} has {len(row)} field{'s' if len(row) != 1 else ''} but the {'header has' if header else 'first row has'} {width}"
            )
    taken: set[str] = set()
    columns = [unique(sanitize(h, f"col_{i}"), taken) for i, h in enumerate(raw_headers, start=1)]
    types = [_column_type(row[i] for row in data) for i in range(width)]
    rows = tuple(tuple(_convert(row[i], types[i]) for i in range(width)) for row in data)
    return ParsedTable(source_name, base_name, tuple(columns), tuple(raw_headers), tuple(types), rows)


# -- reading files -----------------------------------------------------------------------------
def read_table_file(path: Path) -> list[ParsedTable]:
    """One ParsedTable per CSV file or per non-empty sheet; raises TableFileError saying what is wrong."""
    try:
        if path.suffix.lower() in (".csv", ".tsv"):
            return [read_csv(path)]
        return read_xlsx(path)
    except OSError as exc:
        raise ImportFailed(f"{path.name} could not be read ({exc.strerror or exc})", hint="Check that the file exists and you may read it.") from exc


def read_csv(path: Path) -> ParsedTable:
    data = path.read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("cp1252", errors="replace")  # Excel's "CSV" on Windows
    if not text.strip():
        raise TableFileError(f"{path.name} is empty")
    sample = text[:SAMPLE_BYTES]
    try:
        dialect = csv.Sniffer().sniff(sample, delimiters=",;\t|")
    except csv.Error:
        dialect = csv.excel_tab if path.suffix.lower() == ".tsv" else csv.excel  # one column, or too few rows to tell
    try:
        grid = [[cell.strip() for cell in row] for row in csv.reader(io.StringIO(text), dialect)]
    except csv.Error as exc:
        raise TableFileError(f"{path.name} is not a readable CSV file ({exc})") from exc
    return build_table(path.name, path.stem, grid)


def read_xlsx(path: Path) -> list[ParsedTable]:
    import zipfile

    import openpyxl  # late: only Excel imports need it
    from openpyxl.utils.exceptions import InvalidFileException

    try:
        workbook = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except (zipfile.BadZipFile, InvalidFileException, KeyError, ValueError, OSError) as exc:
        raise TableFileError(
            f"{path.name} could not be read as an Excel workbook ({type(exc).__name__})",
            hint="Open it in a spreadsheet program and save it again as .xlsx, or export the sheet as CSV.",
        ) from exc
    tables = []
    problems = []
    try:
        for sheet in workbook.worksheets:
            grid = [[_cell_text(v) for v in row] for row in sheet.iter_rows(values_only=True)]
            # Sheets often carry empty trailing columns from formatting.
            width = max((max((i + 1 for i, c in enumerate(r) if c not in (None, "")), default=0) for r in grid), default=0)
            grid = [r[:width] + [None] * (width - len(r)) for r in grid]
            if width == 0:
                continue
            try:
                tables.append(build_table(f"{path.name}: {sheet.title}", f"{path.stem}_{sheet.title}" if len(workbook.worksheets) > 1 else path.stem, grid))
            except TableFileError as exc:
                problems.append(str(exc))
    finally:
        workbook.close()
    if not tables:
        raise TableFileError(problems[0] if problems else f"{path.name} has no sheet with data")
    return tables


# -- the tables' own database ------------------------------------------------------------------
class TableStore:
    """The database of the user's tables. Opened per operation: imports and questions run on different threads."""

    def __init__(self, path: Path):
        self.path = Path(path)

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=10, isolation_level=None)
        # Rollback journal, not WAL: a read-only (mode=ro) connection to a WAL database needs its -shm file.
        return conn

    def names(self) -> set[str]:
        if not self.path.exists():
            return set()
        conn = self._connect()
        try:
            return {r[0].lower() for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        finally:
            conn.close()

    def create(self, tables: Sequence[ParsedTable], taken: set[str]) -> list[str]:
        """Create and fill one table per ParsedTable under fresh names; all or none."""
        taken = set(taken) | self.names()
        names = [unique(sanitize(t.base_name, "table"), taken) for t in tables]
        conn = self._connect()
        try:
            conn.execute("BEGIN IMMEDIATE")
            for name, table in zip(names, tables):
                columns = ", ".join(f"{quote(c)} {t}" for c, t in zip(table.columns, table.types))
                conn.execute(f"CREATE TABLE {quote(name)} ({columns})")
                marks = ", ".join("?" * len(table.columns))
                for start in range(0, len(table.rows), INSERT_BATCH):
                    conn.executemany(f"INSERT INTO {quote(name)} VALUES ({marks})", table.rows[start : start + INSERT_BATCH])
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        finally:
            conn.close()
        return names

    def drop(self, names: Iterable[str]) -> None:
        names = list(names)
        if not names or not self.path.exists():
            return
        conn = self._connect()
        try:
            conn.execute("BEGIN IMMEDIATE")
            for name in names:
                conn.execute(f"DROP TABLE IF EXISTS {quote(name)}")
            conn.execute("COMMIT")
        finally:
            conn.close()

    def schema(self, names: Sequence[str], sample_rows: int = 3) -> str:
        """CREATE TABLE statements with a few sample rows each: what the LLM sees of the data."""
        conn = self._connect()
        try:
            blocks = []
            for name in names:
                row = conn.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)).fetchone()
                if row is None:
                    continue
                cursor = conn.execute(f"SELECT * FROM {quote(name)} LIMIT {int(sample_rows)}")
                columns = [d[0] for d in cursor.description]
                samples = cursor.fetchall()
                lines = [row[0] + ";"]
                if samples:
                    lines.append(f"/* {len(samples)} sample rows of {name}:")
                    lines.append(" | ".join(columns))
                    lines += [" | ".join("NULL" if v is None else str(v) for v in r) for r in samples]
                    lines.append("*/")
                blocks.append("\n".join(lines))
            return "\n\n".join(blocks)
        finally:
            conn.close()


# -- the catalog in the app's database ---------------------------------------------------------
def save_table_document(store: Store, path: str, title: str, content_hash: str, tables: Sequence[ParsedTable], names: Sequence[str]) -> tuple[int, list[str], list[int]]:
    """Record the document and its tables in one transaction, replacing an older version of the same path.

    Returns (document id, table names of the replaced version, chunk ids of the replaced version).
    """
    with store.transaction() as conn:
        old = conn.execute("SELECT id FROM documents WHERE path = ?", (path,)).fetchone()
        old_tables: list[str] = []
        old_chunks: list[int] = []
        if old:
            old_tables = [r[0] for r in conn.execute("SELECT name FROM data_tables WHERE document_id = ?", (old[0],))]
            old_chunks = [r[0] for r in conn.execute("SELECT id FROM chunks WHERE document_id = ?", (old[0],))]
            conn.execute("DELETE FROM data_tables WHERE document_id = ?", (old[0],))
            conn.execute("DELETE FROM chunks WHERE document_id = ?", (old[0],))
            conn.execute("DELETE FROM pages WHERE document_id = ?", (old[0],))
            conn.execute("DELETE FROM documents WHERE id = ?", (old[0],))
        cur = conn.execute(
            "INSERT INTO documents(path, title, content_hash, pages, chunks, status, notices, kind) VALUES (?, ?, ?, ?, 0, 'ready', '[]', 'table')",
            (path, title, content_hash, len(tables)),
        )
        document_id = cur.lastrowid
        conn.executemany(
            "INSERT INTO data_tables(document_id, name, source_name, rows, columns) VALUES (?, ?, ?, ?, ?)",
            [(document_id, n, t.source_name, len(t.rows), json.dumps(list(t.columns))) for n, t in zip(names, tables)],
        )
    return document_id, old_tables, old_chunks


def catalog(store: Store, document_ids: Sequence[int] | None = None) -> list[TableInfo]:
    """The stored tables, of the given documents or all of them."""
    sql = "SELECT document_id, name, source_name, rows, columns FROM data_tables"
    params: list[int] = []
    if document_ids is not None:
        ids = list(document_ids)
        if not ids:
            return []
        sql += f" WHERE document_id IN ({','.join('?' * len(ids))})"
        params = ids
    rows = store.conn.execute(sql + " ORDER BY document_id, id", params).fetchall()
    return [TableInfo(r[0], r[1], r[2], r[3], tuple(json.loads(r[4]))) for r in rows]


def catalog_names(store: Store) -> set[str]:
    return {r[0].lower() for r in store.conn.execute("SELECT name FROM data_tables")}
