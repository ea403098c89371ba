"""One SQLite file: a connection per thread, transactions, and errors that say what to do.

Each thread gets its own connection (sqlite3 objects are not shared across threads); WAL lets a
question read while an import writes. The first open in a process switches the file to WAL and
applies the migrations under a lock file, so two processes opening a new library at once (two
windows, a window and the CLI) take turns instead of racing: switching to WAL can fail with
SQLITE_BUSY at once, without waiting on the busy timeout, while another connection does the same.
"""

from __future__ import annotations

import errno
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from filelock import FileLock

from ..errors import StorageError
from .migrations import migrate

if TYPE_CHECKING:
    import sqlite_utils

BUSY_TIMEOUT_MS = 10_000
# Opening waits this long for another process that is creating or upgrading the same library.
OPEN_LOCK_TIMEOUT_S = 60.0


def rollback(conn: sqlite3.Connection) -> None:
    # A rollback after a full disk can fail too; SQLite then rolls back on the next open.
    try:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
    except sqlite3.Error:
        pass


def storage_error(exc: Exception, path: Path) -> StorageError:
    text = str(exc).lower()
    if isinstance(exc, OSError) and exc.errno == errno.ENOSPC:
        text = "disk full"
    elif isinstance(exc, OSError) and exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        text = "readonly"
    if "locked" in text or "busy" in text:
        return StorageError("The library is busy: another window or command is writing to it", hint="Wait a moment and try again.")
    if "readonly" in text or "read-only" in text or "unable to open" in text:
        return StorageError(f"The data folder {path.parent} is read-only or cannot be written", hint="Make it writable or set DESKTOP_APP_HOME to another folder.")
    if "full" in text or "no space" in text:
        return StorageError("The disk is full", hint="Free some disk space and try again; nothing was changed.")
    return StorageError(f"The library database failed: {exc}", hint="Nothing was changed; try again.")


class Database:
    def __init__(self, path: Path):
        self.path = Path(path)
        self._local = threading.local()
        self._prepared = False
        self._prepare_lock = threading.Lock()
        conn = self.conn  # opens and migrates on this thread
        del conn

    # -- connections ---------------------------------------------------------------------------
    @property
    def conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            try:
                self._prepare()
                conn = self._connect()
            except (sqlite3.Error, OSError) as exc:
                raise storage_error(exc, self.path) from exc
            self._local.conn = conn
        return conn

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("PRAGMA synchronous=NORMAL")
        return conn

    def _prepare(self) -> None:
        """Once per process: WAL (recorded in the file, so later connections need not ask) and the migrations."""
        with self._prepare_lock:
            if self._prepared:
                return
            with self._open_lock():
                conn = self._connect()
                try:
                    if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                        conn.execute("PRAGMA journal_mode=WAL")
                    migrate(conn)
                finally:
                    conn.close()
            self._prepared = True

    @contextmanager
    def _open_lock(self) -> Iterator[None]:
        lock = FileLock(self.path.with_name(self.path.name + ".lock"), timeout=OPEN_LOCK_TIMEOUT_S)
        try:
            lock.acquire()
        except OSError:
            # A read-only folder cannot hold the lock file; nobody can create or upgrade the library
            # there either, and opening goes on to report what SQLite says.
            yield
            return
        try:
            yield
        finally:
            lock.release()

    @property
    def db(self) -> sqlite_utils.Database:
        """This thread's connection as a sqlite-utils Database."""
        db = getattr(self._local, "db", None)
        if db is None:
            import sqlite_utils  # late: it pulls click, dateutil and pluggy (~0.3 s), slowing the window's start

            db = sqlite_utils.Database(self.conn)
            self._local.db = db
        return db

    def close(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None
            self._local.db = None

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        conn = self.conn
        try:
            conn.execute("BEGIN IMMEDIATE")
            yield conn
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            rollback(conn)
            raise storage_error(exc, self.path) from exc
        except BaseException:
            rollback(conn)
            raise

    # -- meta ----------------------------------------------------------------------------------
    def get_meta(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        with self.transaction() as conn:
            conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, value))

    def integrity_problems(self) -> list[str]:
        rows = self.conn.execute("PRAGMA integrity_check").fetchall()
        return [] if rows == [("ok",)] else [r[0] for r in rows]
