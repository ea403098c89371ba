"""One PostgreSQL database: a connection per thread, transactions, migrations, and errors that say what to do.

As with the SQLite file (../database.py), each thread has its own connection. Every process that opens the
library applies the migrations it has not seen under a transaction-level advisory lock, so two app
processes opening a new database at once take turns instead of racing.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING
from urllib.parse import urlsplit, urlunsplit

from ...errors import StorageError
from .schema import COMPLETIONS, MIGRATIONS

if TYPE_CHECKING:
    import psycopg

# Any constant: the advisory lock every process takes to create or upgrade the schema.
MIGRATION_LOCK = 7_364_001
INSTALL_HINT = "Install the PostgreSQL support with pip install 'desktop-app[postgres]'."


def _drivers():
    try:
        import psycopg
        from pgvector.psycopg import register_vector
    except ImportError as exc:
        raise StorageError("A library in PostgreSQL needs psycopg and pgvector's Python package, which are not installed", hint=INSTALL_HINT) from exc
    return psycopg, register_vector


def safe_url(url: str) -> str:
    """The address without its password, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
    return urlunsplit(parts._replace(netloc=netloc))


def storage_error(exc: Exception, url: str) -> StorageError:
    """A driver error as a sentence: the server is not there, refused us, lacks pgvector, or the statement failed."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    where = safe_url(url)
    name = type(exc).__name__
    if name in ("OperationalError", "ConnectionTimeout") and ("connect" in text.lower() or "server" in text.lower() or "socket" in text.lower()):
        return StorageError(f"The library database at {where} cannot be reached ({text})", hint="Start PostgreSQL or check the address (--library or Settings).")
    if name == "InsufficientPrivilege" or "permission denied" in text.lower():
        return StorageError(f"The library database at {where} refused: {text}", hint="Ask its administrator for the rights, or run CREATE EXTENSION vector as the database owner.")
    if "extension \"vector\"" in text.lower() or "type \"vector\" does not exist" in text.lower():
        return StorageError(
            f"The database at {where} has no pgvector extension ({text})",
            hint="Install pgvector on the server (Debian: apt install postgresql-15-pgvector) and run CREATE EXTENSION vector.",
        )
    return StorageError(f"The library database failed: {text}", hint="Nothing was changed; try again.")


class PgDatabase:
    def __init__(self, url: str):
        self.url = url
        self._local = threading.local()
        self._connections: list[psycopg.Connection] = []
        self._connections_lock = threading.Lock()
        self._psycopg, self._register_vector = _drivers()
        self._prepared = False
        self._prepare_lock = threading.Lock()
        conn = self.conn  # connects and migrates on this thread: a wrong address fails at once
        del conn

    def __repr__(self) -> str:
        return f"{type(self).__name__}({safe_url(self.url)!r})"

    # -- connections ---------------------------------------------------------------------------
    @property
    def conn(self) -> psycopg.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None or conn.closed:
            try:
                self._prepare()
                conn = self._connect()
            except self._psycopg.Error as exc:
                raise storage_error(exc, self.url) from exc
            self._local.conn = conn
            with self._connections_lock:
                self._connections.append(conn)
        return conn

    def _connect(self, vectors: bool = True) -> psycopg.Connection:
        # autocommit: a read is its own statement (no transaction left open between questions); writes use transaction().
        conn = self._psycopg.connect(self.url, autocommit=True, connect_timeout=10)
        if vectors:
            self._register_vector(conn)
        return conn

    def _prepare(self) -> None:
        with self._prepare_lock:
            if self._prepared:
                return
            conn = self._connect(vectors=False)
            try:
                migrate(conn)
            finally:
                conn.close()
            self._prepared = True

    def close(self) -> None:
        with self._connections_lock:
            connections, self._connections = self._connections, []
        for conn in connections:
            try:
                conn.close()
            except self._psycopg.Error:
                pass
        self._local = threading.local()

    @contextmanager
    def transaction(self) -> Iterator[psycopg.Connection]:
        conn = self.conn
        try:
            with conn.transaction():
                yield conn
        except self._psycopg.Error as exc:
            raise storage_error(exc, self.url) from exc

    def rows(self, sql: str, args: tuple | list = ()) -> list[tuple]:
        try:
            return self.conn.execute(sql, args).fetchall()
        except self._psycopg.Error as exc:
            raise storage_error(exc, self.url) from exc

    def value(self, sql: str, args: tuple | list = ()):
        rows = self.rows(sql, args)
        return rows[0][0] if rows else None

    # -- meta ----------------------------------------------------------------------------------
    def get_meta(self, key: str) -> str | None:
        return self.value("SELECT value FROM meta WHERE key = %s", (key,))

    def set_meta(self, key: str, value: str) -> None:
        with self.transaction() as conn:
            conn.execute("INSERT INTO meta(key, value) VALUES (%s, %s) ON CONFLICT (key) DO UPDATE SET value = excluded.value", (key, value))

    def integrity_problems(self) -> list[str]:
        return []  # PostgreSQL keeps its own pages whole; there is no file of ours to check


def migrate(conn: psycopg.Connection) -> int:
    """Apply the migrations this database has not seen, each in its own transaction; returns the schema version."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        conn.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())")
    version = 0
    for number, name, script in MIGRATIONS:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            if conn.execute("SELECT 1 FROM schema_migrations WHERE version = %s", (number,)).fetchone() is None:
                conn.execute(script)
                if number in COMPLETIONS:
                    COMPLETIONS[number](conn)
                conn.execute("INSERT INTO schema_migrations(version, name) VALUES (%s, %s)", (number, name))
        version = number
    return version
