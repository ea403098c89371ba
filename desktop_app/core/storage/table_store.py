"""The user's CSV/Excel tables: a database file of their own (`tables.sqlite`), not the app's `library.sqlite`.

Questions about tables run SQL that the LLM writes; however carefully that SQL is checked (read-only
connection, query_only, an authorizer), a connection that cannot even see the app's documents, chunks
and chats is the guard that needs no checking. The app's database keeps only a catalog (`data_tables`:
which document owns which table), so removing a document drops its tables.

The two files are not one transaction: tables are created first, then the catalog row is committed; a
crash in between leaves an unreferenced table that no question can reach (questions read only catalogued
tables of the chosen documents) and that a later import never collides with (names are unique).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from ..types import ParsedTable

if TYPE_CHECKING:
    import sqlite_utils

INSERT_BATCH = 1000
MAX_NAME = 40


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


class TableStore:
    """The database of the user's tables. Opened per operation: imports and questions run on different threads."""

    def __init__(self, path: Path):
        self.path = Path(path)

    @contextmanager
    def _database(self) -> Iterator[sqlite_utils.Database]:
        import sqlite_utils  # late: only table imports and table questions need it

        # Rollback journal, not WAL: a read-only (mode=ro) connection to a WAL database needs its -shm file.
        conn = sqlite3.connect(self.path, timeout=10, isolation_level=None)
        try:
            yield sqlite_utils.Database(conn)
        finally:
            conn.close()

    def names(self) -> set[str]:
        if not self.path.exists():
            return set()
        with self._database() as db:
            return {name.lower() for name in db.table_names()}

    def create(self, tables: Sequence[ParsedTable], taken: set[str]) -> list[str]:
        """Create and fill one table per ParsedTable under fresh names; all or none."""
        taken = set(taken) | self.names()
        names = [unique(sanitize(t.base_name, "table"), taken) for t in tables]
        with self._database() as db:
            # BEGIN IMMEDIATE: take the write lock first, so a second importer waits instead of failing half way.
            db.execute("BEGIN IMMEDIATE")
            try:
                for name, table in zip(names, tables):
                    # Our own one-line CREATE TABLE, not sqlite-utils' create(): the stored statement is what the
                    # LLM reads of the table (schema below), and one line per table costs it fewer tokens.
                    columns = ", ".join(f"{quote(c)} {t}" for c, t in zip(table.columns, table.types))
                    db.execute(f"CREATE TABLE {quote(name)} ({columns})")
                    db[name].insert_all((dict(zip(table.columns, row)) for row in table.rows), batch_size=INSERT_BATCH)
                db.execute("COMMIT")
            except BaseException:
                if db.conn.in_transaction:
                    db.execute("ROLLBACK")
                raise
        return names

    def drop(self, names: Iterable[str]) -> None:
        names = list(names)
        if not names or not self.path.exists():
            return
        with self._database() as db, db.atomic():
            for name in names:
                db[name].drop(ignore=True)

    def schema(self, names: Sequence[str], sample_rows: int = 3) -> str:
        """CREATE TABLE statements with a few sample rows each: what the LLM sees of the data."""
        blocks = []
        with self._database() as db:
            for name in names:
                table = db[name]
                if not table.exists():
                    continue
                cursor = db.execute(f"SELECT * FROM {quote(name)} LIMIT {int(sample_rows)}")
                columns = [d[0] for d in cursor.description]
                samples = cursor.fetchall()
                lines = [table.schema + ";"]
                if samples:
                    lines.append(f"/* {len(samples)} sample rows of {name}:")
                    lines.append(" | ".join(columns))
                    lines += [" | ".join("NULL" if v is None else str(v) for v in r) for r in samples]
                    lines.append("*/")
                blocks.append("\n".join(lines))
        return "\n\n".join(blocks)
