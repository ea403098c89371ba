"""Reading CSV and Excel files into typed tables (ParsedTable), one per CSV file or per sheet.

The typing rules are this module's own, not sqlite-utils' TypeTracker: that one asks Python's int() and
float(), which take "01234" for the number 1234 (a zip code or part number loses its zero), and "nan",
"inf" and "1_000" for numbers. Nor is the file read with sqlite-utils' rows_from_file: its DictReader
fills a short row with NULLs, where a ragged file must fail with the row that is wrong, and it needs a
header row, where a headerless file gets numbered columns here.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence
from datetime import date, datetime, time
from pathlib import Path

from ..errors import ImportFailed
from ..storage.table_store import sanitize, unique
from ..types import ParsedTable
from ..wording import counted

TABLE_SUFFIXES = {".csv", ".tsv", ".xlsx", ".xlsm"}
SAMPLE_BYTES = 64 * 1024
_INT = re.compile(r"^[+-]?\d+$")
_FLOAT = re.compile(r"^[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?$")
_LEADING_ZERO = re.compile(r"^[+-]?0\d")  # "007" is a code, not the number 7


class TableFileError(ImportFailed):
    hint = "Fix the file (one header row, the same number of fields in every row) and import it again."


def is_table_file(path: Path) -> bool:
    return path.suffix.lower() in TABLE_SUFFIXES


# -- typing ------------------------------------------------------------------------------------
def _column_type(values: Iterable[str | None]) -> str:
    kind = "INTEGER"
    seen = False
    for value in values:
        if value is None or value == "":
            continue
        seen = True
        if _LEADING_ZERO.match(value):
            return "TEXT"
        if kind == "INTEGER" and _INT.match(value):
            continue
        if _FLOAT.match(value):
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
