"""The database schema, as numbered migrations applied in order by sqlite-utils' `Migrations`.

sqlite-utils records each applied migration by name in `_sqlite_migrations`. Libraries made before it
did recorded their schema as a number, PRAGMA user_version (1..7, one per entry below): on their first
open those first migrations are recorded as applied, so none runs twice. Every migration still sets
user_version to its number, so an older build of the app sees an up-to-date schema and changes nothing.

New migrations go at the end, with the next number; an applied one is never edited.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable
from functools import cache
from typing import TYPE_CHECKING

from ..navigation_text import is_navigation
from ..repeated_text import boilerplate_passages
from ..word_pieces import keyword_text

if TYPE_CHECKING:
    import sqlite_utils
    from sqlite_utils.migrations import Migrations

MIGRATION_SET = "desktop_app"
MIGRATIONS_TABLE = "_sqlite_migrations"  # sqlite-utils' table of applied migrations

# (name, SQL script)
MIGRATIONS: list[tuple[str, str]] = [
    (
        "0001_documents_pages_chunks",
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
        "0002_chunks_full_text_search",
        """
        -- Raw SQL, not sqlite-utils' enable_fts(["text"], tokenize="porter", create_triggers=True), which
        -- makes the same table and triggers with two differences: its update trigger fires on every column
        -- (each stored embedding re-indexed its chunk's text: storing 20,000 vectors took 4.3 s, not 2.9 s),
        -- and its executescript commits the migration's transaction half way. Every library, old or new,
        -- has this one definition; moving old ones to enable_fts's would rebuild their whole index once.
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
        "0003_chats_and_messages",
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
        "0004_collections",
        """
        -- User-named groups of documents.
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
        "0005_chunks_pending_embedding",
        """
        -- Imports are searchable by keyword before they are embedded; these chunks wait for a vector.
        CREATE INDEX chunks_pending ON chunks(id) WHERE embedding IS NULL;
        """,
    ),
    (
        "0006_chunk_kind_and_table_area",
        """
        -- Existing chunks are text; bbox is "x0,y0,x1,y1" in page points, for tables only.
        ALTER TABLE chunks ADD COLUMN kind TEXT NOT NULL DEFAULT 'text';
        ALTER TABLE chunks ADD COLUMN bbox TEXT;
        """,
    ),
    (
        "0007_data_tables",
        """
        -- Tables imported from CSV and Excel files: the catalog; the tables themselves live in tables.sqlite.
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
    (
        "0008_page_sections",
        """
        -- Word and HTML files have no pages: each heading's section is stored as a numbered "page" whose
        -- section is its heading ("" before the first heading), and is cited as "section 3.2 Warranty".
        -- NULL on real pages (PDF, EPUB, text files), which every page of an older library is.
        ALTER TABLE pages ADD COLUMN section TEXT;
        """,
    ),
    (
        "0009_watched_folders",
        """
        -- Folders kept in sync with the library: new files imported, changed ones re-imported, deleted ones removed.
        CREATE TABLE watched_folders (
            path TEXT PRIMARY KEY,
            added_at TEXT NOT NULL DEFAULT (datetime('now'))
        );
        """,
    ),
    (
        "0010_document_language",
        """
        -- The language a document is mostly written in (ISO 639-1, read at import: core/languages.py), so a
        -- question in another language is also searched in the documents' own. NULL: not read yet (an older
        -- library, a table, a document too short to tell).
        ALTER TABLE documents ADD COLUMN language TEXT;
        """,
    ),
    (
        "0011_document_overviews",
        """
        -- A document's overview (core/overview/): built in the background after its meaning index, one row per
        -- document (committed whole, so an interrupted build resumes at the next document), its sections in
        -- outline order. A changed file is re-imported under a new document id: the cascade drops the old one.
        CREATE TABLE overviews (
            document_id INTEGER PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
            content_hash TEXT NOT NULL,
            title TEXT NOT NULL,
            outline_source TEXT NOT NULL,
            vector BLOB,
            title_vector BLOB,
            abstract TEXT,
            abstract_model TEXT,
            built_at TEXT NOT NULL DEFAULT (datetime('now'))
        );
        CREATE TABLE overview_sections (
            document_id INTEGER NOT NULL REFERENCES overviews(document_id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            level INTEGER NOT NULL,
            title TEXT NOT NULL,
            page INTEGER NOT NULL,
            last_page INTEGER NOT NULL,
            sentences TEXT NOT NULL,
            vector BLOB,
            -- Word and HTML: the stored section the heading opens ("" before the first heading), cited by it; NULL on pages.
            cited_section TEXT,
            PRIMARY KEY (document_id, position)
        );
        """,
    ),
    (
        "0012_chunk_navigation",
        """
        -- 1: the passage is index or contents entries by its shape (core/navigation_text.py). It stays in the
        -- keyword index; the vector index and the fused passages leave it out. Existing chunks are judged by
        -- `mark_navigation` below, in the same transaction.
        ALTER TABLE chunks ADD COLUMN navigation INTEGER NOT NULL DEFAULT 0;
        CREATE INDEX chunks_navigation ON chunks(id) WHERE navigation = 1;
        """,
    ),
    (
        "0013_chunk_boilerplate",
        """
        -- chunks.navigation also marks repeated boilerplate (a notice or footer block its document repeats on
        -- many pages; core/repeated_text.py). No column changes: `judge_boilerplate_chunks` below judges the chunks
        -- a library already holds from its pages' stored text, and the vector index drops them when the library
        -- opens (Library.sync_index keeps it to the chunks not marked).
        SELECT 1;
        """,
    ),
    (
        "0014_chunk_keyword_text",
        """
        -- FTS5's unicode61 tokenizer reads a run of Chinese characters or kana as one token, a whole clause, so a
        -- keyword search for a word inside it found nothing. Such a chunk's keyword index holds its text with each
        -- such run written as its character pairs (core/word_pieces.spaced), as queries are; NULL: the text itself.
        -- Existing chunks are rewritten by `space_keyword_text` below; the update trigger re-indexes each.
        ALTER TABLE chunks ADD COLUMN keyword_text TEXT;
        DROP TRIGGER chunks_ai;
        DROP TRIGGER chunks_ad;
        DROP TRIGGER chunks_au;
        CREATE TRIGGER chunks_ai AFTER INSERT ON chunks BEGIN
            INSERT INTO chunks_fts(rowid, text) VALUES (new.id, coalesce(new.keyword_text, new.text));
        END;
        CREATE TRIGGER chunks_ad AFTER DELETE ON chunks BEGIN
            INSERT INTO chunks_fts(chunks_fts, rowid, text) VALUES ('delete', old.id, coalesce(old.keyword_text, old.text));
        END;
        CREATE TRIGGER chunks_au AFTER UPDATE OF text, keyword_text ON chunks BEGIN
            INSERT INTO chunks_fts(chunks_fts, rowid, text) VALUES ('delete', old.id, coalesce(old.keyword_text, old.text));
            INSERT INTO chunks_fts(rowid, text) VALUES (new.id, coalesce(new.keyword_text, new.text));
        END;
        """,
    ),
    (
        "0015_rebuild_short_overviews",
        """
        -- A document of fewer than four sections now keeps more central sentences a section (core/overview/central.py,
        -- DOCUMENT_SENTENCES): a short manual with no outline was one section, its abstract written from two
        -- sentences. Their overviews (and abstracts) are dropped; the background queue builds them again.
        DELETE FROM overviews WHERE document_id IN (SELECT document_id FROM overview_sections GROUP BY document_id HAVING count(*) < 4);
        DELETE FROM overview_sections WHERE document_id NOT IN (SELECT document_id FROM overviews);
        """,
    ),
    (
        "0016_rebuild_contents_overviews",
        """
        -- A PDF's or EPUB's contents keep their order now (core/overview/outline.py): a heading found at its word in a
        -- sentence above its parent went before it, and "section 2.1.5" is counted in the outline. The overviews built
        -- from contents are dropped; the background queue builds them again.
        DELETE FROM overviews WHERE outline_source = 'outline';
        DELETE FROM overview_sections WHERE document_id NOT IN (SELECT document_id FROM overviews);
        """,
    ),
    (
        "0017_plain_letters_keyword_text",
        """
        -- A PDF's text often keeps a ligature as one character ("ﬁlter", "ﬂow": core/word_pieces.plain_letters), and FTS5
        -- read it as a word of its own: a search for "filter" never found the page. The keyword text of existing chunks is
        -- written again by `space_keyword_text` below, with such letters written plainly; the update trigger re-indexes.
        SELECT 1;
        """,
    ),
    (
        "0018_section_heading_keyword_text",
        """
        -- In a reference every function lists the same options, and only its section's heading says whose they are: a
        -- passage of a Word, HTML or EPUB section is now indexed with its heading (word_pieces.keyword_text). Existing
        -- chunks' keyword text is written again by `space_keyword_text` below; the update trigger re-indexes each.
        SELECT 1;
        """,
    ),
    (
        "0019_judge_boilerplate_again",
        """
        -- A number inside a name no longer makes two lines one ("Tile8Grid", "Tile16Grid": core/repeated_text.py): a
        -- reference's items told apart only by such a number were taken for a repeated copy and found by no search.
        -- No column changes: `judge_boilerplate_chunks` below judges the text chunks again, and the vector index
        -- follows when the library opens (Library.sync_index keeps it to the chunks not marked).
        SELECT 1;
        """,
    ),
]


def mark_navigation(conn: sqlite3.Connection) -> None:
    """Judge the text chunks a library already holds (imports judge their own, storage/documents.py)."""
    rows = conn.execute("SELECT id, text FROM chunks WHERE kind = 'text'")
    marked = [(chunk_id,) for chunk_id, text in rows if is_navigation(text)]
    conn.executemany("UPDATE chunks SET navigation = 1 WHERE id = ?", marked)


def navigation_updates(pages: Iterable[tuple[int, str]], chunks: Iterable[tuple[int, int, int, int, str]]) -> list[tuple[bool, int]]:
    """(navigation, chunk id) for each text chunk (id, page, start, end, text) of one document whose stored pages are
    (number, text), judged anew: index and contents entries (navigation_text.py) or repeated boilerplate
    (repeated_text.py), read from the pages' text its offsets point into. Anew, so a chunk the rules no longer mark
    (an item told from the next by a number in its name) is searched by meaning again."""
    chunks = list(chunks)
    flags = boilerplate_passages(dict(pages), [(page, start, end) for _, page, start, end, _ in chunks])
    return [(flag or is_navigation(text), chunk_id) for (chunk_id, _, _, _, text), flag in zip(chunks, flags)]


def judge_boilerplate_chunks(conn: sqlite3.Connection) -> None:
    """Judge the text chunks a library already holds again (`navigation_updates`), one document at a time: repetition
    is within a document. The vector index follows when the library opens (Library.sync_index)."""
    for (document_id,) in conn.execute("SELECT DISTINCT document_id FROM chunks WHERE kind = 'text'").fetchall():
        pages = conn.execute("SELECT number, text FROM pages WHERE document_id = ?", (document_id,))
        chunks = conn.execute('SELECT id, page, start, "end", text FROM chunks WHERE document_id = ? AND kind = \'text\'', (document_id,))
        conn.executemany("UPDATE chunks SET navigation = ? WHERE id = ?", navigation_updates(pages.fetchall(), chunks.fetchall()))


# Each chunk with the section heading of its page (NULL on a PDF's pages), for `keyword_text_updates`.
CHUNKS_UNDER_HEADINGS = "SELECT c.id, c.text, p.section FROM chunks c LEFT JOIN pages p ON p.document_id = c.document_id AND p.number = c.page"


def keyword_text_updates(rows: Iterable[tuple[int, str, str | None]]) -> list[tuple[str, int]]:
    """(keyword text, chunk id) for each (chunk id, text, section heading) whose keyword text is not the text itself: the
    chunks of a library, SQLite or PostgreSQL, indexed before words written without spaces, ligatures, or the headings
    of the sections they are in counted."""
    return [(spaced, chunk_id) for chunk_id, text, heading in rows if (spaced := keyword_text(text, heading)) is not None]


def space_keyword_text(conn: sqlite3.Connection) -> None:
    """Give the chunks a library already holds in Chinese, Japanese or Thai, with ligatures, or in a section of a Word,
    HTML or EPUB file, their keyword text (imports give their own)."""
    conn.executemany("UPDATE chunks SET keyword_text = ? WHERE id = ?", keyword_text_updates(conn.execute(CHUNKS_UNDER_HEADINGS)))


# Python that completes a migration's SQL (what SQL alone cannot judge), by migration name.
COMPLETIONS: dict[str, Callable[[sqlite3.Connection], None]] = {
    "0012_chunk_navigation": mark_navigation,
    "0013_chunk_boilerplate": judge_boilerplate_chunks,
    "0014_chunk_keyword_text": space_keyword_text,
    "0017_plain_letters_keyword_text": space_keyword_text,
    "0018_section_heading_keyword_text": space_keyword_text,
    "0019_judge_boilerplate_again": judge_boilerplate_chunks,
}


def schema_version(conn: sqlite3.Connection) -> int:
    return conn.execute("PRAGMA user_version").fetchone()[0]


def statements(script: str) -> list[str]:
    """A script cut into statements (a trigger's body keeps its inner semicolons)."""
    out, current = [], ""
    for piece in script.split(";"):
        current += piece + ";"
        if sqlite3.complete_statement(current):
            if current.strip(" \n;"):
                out.append(current.strip())
            current = ""
    return out


def _sql_migration(number: int, script: str, completion: Callable[[sqlite3.Connection], None] | None = None):
    def apply(db: sqlite_utils.Database) -> None:
        # One statement at a time: executescript would commit the transaction sqlite-utils opened.
        for statement in statements(script):
            db.execute(statement)
        if completion is not None:
            completion(db.conn)
        db.execute(f"PRAGMA user_version = {number}")

    return apply


@cache
def migration_set() -> Migrations:
    from sqlite_utils.migrations import Migrations  # late: sqlite-utils takes ~0.3 s to import

    migrations = Migrations(MIGRATION_SET)
    for number, (name, script) in enumerate(MIGRATIONS, start=1):
        migrations(name=name)(_sql_migration(number, script, COMPLETIONS.get(name)))
    return migrations


def applied_names(conn: sqlite3.Connection) -> set[str]:
    if conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (MIGRATIONS_TABLE,)).fetchone() is None:
        return set()
    return {r[0] for r in conn.execute(f"SELECT name FROM {MIGRATIONS_TABLE} WHERE migration_set = ?", (MIGRATION_SET,))}


def migrate(conn: sqlite3.Connection) -> int:
    """Apply the migrations this database has not seen yet, each in its own transaction; returns the schema version.

    A library that is up to date costs one query and no import of sqlite-utils (the window opens faster).
    """
    if applied_names(conn) >= {name for name, _ in MIGRATIONS}:
        return schema_version(conn)
    import sqlite_utils

    db = sqlite_utils.Database(conn)
    migrations = migration_set()
    migrations.ensure_migrations_table(db)
    _adopt_numbered_schema(db, migrations)
    migrations.apply(db)
    return schema_version(conn)


def _adopt_numbered_schema(db: sqlite_utils.Database, migrations: Migrations) -> None:
    """Record as applied the migrations a library made before sqlite-utils kept the record counted in user_version."""
    version = schema_version(db.conn)
    if version == 0 or applied_names(db.conn):
        return
    with db.atomic():
        db[MIGRATIONS_TABLE].insert_all(
            {"migration_set": MIGRATION_SET, "name": name, "applied_at": "before migrations were recorded (user_version)"}
            for name, _ in MIGRATIONS[:version]
        )
