import sqlite3

from desktop_app.core.storage.migrations import MIGRATIONS, migrate, schema_version
from desktop_app.core.storage.store import Store


def test_an_empty_database_gets_every_table(tmp_path):
    conn = sqlite3.connect(tmp_path / "x.sqlite", isolation_level=None)
    assert migrate(conn) == len(MIGRATIONS)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type IN ('table')")}
    assert {"documents", "pages", "chunks", "chunks_fts", "chats", "messages", "meta"} <= tables


def test_migrating_twice_changes_nothing(tmp_path):
    conn = sqlite3.connect(tmp_path / "x.sqlite", isolation_level=None)
    migrate(conn)
    migrate(conn)
    assert schema_version(conn) == len(MIGRATIONS)


def test_a_database_at_an_older_version_is_brought_up_to_date(tmp_path):
    conn = sqlite3.connect(tmp_path / "x.sqlite", isolation_level=None)
    conn.executescript(MIGRATIONS[0][1] + "\nPRAGMA user_version = 1;")
    assert migrate(conn) == len(MIGRATIONS)
    assert conn.execute("SELECT count(*) FROM chats").fetchone()[0] == 0


def test_store_uses_wal_and_keeps_chats(tmp_path):
    store = Store(tmp_path / "lib.sqlite")
    assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    chat = store.create_chat("Pumps")
    store.add_message(chat, "user", "hello")
    store.close()
    again = Store(tmp_path / "lib.sqlite")
    assert [m[2] for m in again.messages(chat)] == ["hello"]
