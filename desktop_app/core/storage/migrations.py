"""The database schema, as numbered migrations applied in order (PRAGMA user_version records the last)."""

from __future__ import annotations

import sqlite3

MIGRATIONS: list[tuple[str, str]] = [
    (
        "documents, pages, chunks",
        """
        CREATE TABLE documents (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            path TEXT NOT NULL UNIQUE,
            title TEXT NOT NULL,
            content_hash TEXT NOT NULL,
            pages INTEGER NOT NULL DEFAULT 0,
            chunks INTEGER NOT NULL DEFAULT 0,
            status TEXT NOT NULL,
            error TEXT,
            notices TEXT,
            added_at TEXT NOT NULL DEFAULT (datetime('now'))
        );
        CREATE TABLE pages (
            document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
            number INTEGER NOT NULL,
            text TEXT NOT NULL,
            ocr INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (document_id, number)
        );
        -- AUTOINCREMENT: chunk ids are vector-index labels and must never be reused.
        CREATE TABLE chunks (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
            page INTEGER NOT NULL,
            start INTEGER NOT NULL,
            "end" INTEGER NOT NULL,
            text TEXT NOT NULL,
            embedding BLOB
        );
        CREATE INDEX chunks_document ON chunks(document_id);
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
        """,
    ),
    (
        "full-text search over chunks",
        """
        CREATE VIRTUAL TABLE chunks_fts USING fts5(text, content='chunks', content_rowid='id', tokenize='porter unicode61');
        CREATE TRIGGER chunks_ai AFTER INSERT ON chunks BEGIN
            INSERT INTO chunks_fts(rowid, text) VALUES (new.id, new.text);
        END;
        CREATE TRIGGER chunks_ad AFTER DELETE ON chunks BEGIN
            INSERT INTO chunks_fts(chunks_fts, rowid, text) VALUES ('delete', old.id, old.text);
        END;
        CREATE TRIGGER chunks_au AFTER UPDATE OF text ON chunks BEGIN
            INSERT INTO chunks_fts(chunks_fts, rowid, text) VALUES ('delete', old.id, old.text);
            INSERT INTO chunks_fts(rowid, text) VALUES (new.id, new.text);
        END;
        """,
    ),
    (
        "chats and messages",
        """
        CREATE TABLE chats (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            title TEXT NOT NULL,
            created_at TEXT NOT NULL DEFAULT (datetime('now')),
            updated_at TEXT NOT NULL DEFAULT (datetime('now'))
        );
        CREATE TABLE messages (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            chat_id INTEGER NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
            role TEXT NOT NULL,
            content TEXT NOT NULL,
            result_json TEXT,
            created_at TEXT NOT NULL DEFAULT (datetime('now'))
        );
        CREATE INDEX messages_chat ON messages(chat_id);
        """,
    ),
    (
        "collections: user-named groups of documents",
        """
        CREATE TABLE collections (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            name TEXT NOT NULL UNIQUE COLLATE NOCASE
        );
        -- Membership is by path: a changed file is re-imported under a new document id and stays in its collections.
        CREATE TABLE collection_documents (
            collection_id INTEGER NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
            path TEXT NOT NULL,
            PRIMARY KEY (collection_id, path)
        );
        """,
    ),
    (
        "chunks waiting for their embedding (imports are searchable by keyword before they are embedded)",
        """
        CREATE INDEX chunks_pending ON chunks(id) WHERE embedding IS NULL;
        """,
    ),
    (
        "chunk kind: text or a Markdown table, with the table's area on its page",
        """
        -- Existing chunks are text; bbox is "x0,y0,x1,y1" in page points, for tables only.
        ALTER TABLE chunks ADD COLUMN kind TEXT NOT NULL DEFAULT 'text';
        ALTER TABLE chunks ADD COLUMN bbox TEXT;
        """,
    ),
    (
        "tables imported from CSV and Excel files (the tables themselves live in tables.sqlite)",
        """
        ALTER TABLE documents ADD COLUMN kind TEXT NOT NULL DEFAULT 'text';
        CREATE TABLE data_tables (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
            name TEXT NOT NULL UNIQUE COLLATE NOCASE,
            source_name TEXT NOT NULL,
            rows INTEGER NOT NULL,
            columns TEXT NOT NULL
        );
        CREATE INDEX data_tables_document ON data_tables(document_id);
        """,
    ),
]


def schema_version(conn: sqlite3.Connection) -> int:
    return conn.execute("PRAGMA user_version").fetchone()[0]


def migrate(conn: sqlite3.Connection) -> int:
    """Apply the migrations this database has not seen yet, each in its own transaction."""
    current = schema_version(conn)
    for number, (_, sql) in enumerate(MIGRATIONS, start=1):
        if number <= current:
            continue
        # executescript commits first; wrap in an explicit transaction so a crash leaves no half schema.
        try:
            conn.executescript(f"BEGIN IMMEDIATE;\n{sql}\nPRAGMA user_version = {number};\nCOMMIT;")
        except sqlite3.Error:
            if conn.in_transaction:
                conn.rollback()
            raise
    return schema_version(conn)
