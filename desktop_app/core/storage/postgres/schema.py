"""The PostgreSQL schema as numbered migrations, applied in order and recorded in `schema_migrations`.

As for SQLite (../migrations.py): new migrations go at the end with the next number; an applied one is never
edited. The vector column gets its dimension when the library records its embedding model (chunks.py), and
its HNSW index with it: the length is the model's, not the schema's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..migrations import CHUNKS_UNDER_HEADINGS, keyword_text_updates, navigation_updates

if TYPE_CHECKING:
    import psycopg

# (version, name, SQL); each runs in its own transaction.
MIGRATIONS: list[tuple[int, str, str]] = [
    (
        1,
        "documents_pages_chunks_chats_collections_folders",
        """
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE documents (
            id BIGSERIAL PRIMARY KEY,
            path TEXT NOT NULL UNIQUE,
            title TEXT NOT NULL,
            content_hash TEXT NOT NULL,
            pages INTEGER NOT NULL DEFAULT 0,
            chunks INTEGER NOT NULL DEFAULT 0,
            status TEXT NOT NULL,
            error TEXT,
            notices TEXT,
            kind TEXT NOT NULL DEFAULT 'text',
            added_at TIMESTAMPTZ NOT NULL DEFAULT now()
        );
        CREATE TABLE pages (
            document_id BIGINT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
            number INTEGER NOT NULL,
            text TEXT NOT NULL,
            ocr BOOLEAN NOT NULL DEFAULT false,
            section TEXT,
            PRIMARY KEY (document_id, number)
        );
        -- BIGSERIAL ids are never reused: a chunk id names one passage for good (citations, chats).
        -- Keyword search: PostgreSQL's full-text search with the 'simple' configuration, which lower-cases
        -- and splits words in any language and stems none (a language's stemmer would fit one language only).
        CREATE TABLE chunks (
            id BIGSERIAL PRIMARY KEY,
            document_id BIGINT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
            page INTEGER NOT NULL,
            start INTEGER NOT NULL,
            "end" INTEGER NOT NULL,
            text TEXT NOT NULL,
            embedding vector,
            kind TEXT NOT NULL DEFAULT 'text',
            bbox TEXT,
            words tsvector GENERATED ALWAYS AS (to_tsvector('simple', text)) STORED
        );
        CREATE INDEX chunks_document ON chunks(document_id);
        CREATE INDEX chunks_pending ON chunks(id) WHERE embedding IS NULL;
        CREATE INDEX chunks_words ON chunks USING gin(words);
        CREATE TABLE data_tables (
            id BIGSERIAL PRIMARY KEY,
            document_id BIGINT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
            name TEXT NOT NULL,
            source_name TEXT NOT NULL,
            rows INTEGER NOT NULL,
            columns TEXT NOT NULL
        );
        CREATE UNIQUE INDEX data_tables_name ON data_tables(lower(name));
        CREATE INDEX data_tables_document ON data_tables(document_id);
        CREATE TABLE chats (
            id BIGSERIAL PRIMARY KEY,
            title TEXT NOT NULL,
            created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
            updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
        );
        CREATE TABLE messages (
            id BIGSERIAL PRIMARY KEY,
            chat_id BIGINT NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
            role TEXT NOT NULL,
            content TEXT NOT NULL,
            result_json TEXT,
            created_at TIMESTAMPTZ NOT NULL DEFAULT now()
        );
        CREATE INDEX messages_chat ON messages(chat_id);
        CREATE TABLE collections (id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL);
        CREATE UNIQUE INDEX collections_name ON collections(lower(name));
        -- Membership is by path: a changed file is re-imported under a new document id and stays in its collections.
        CREATE TABLE collection_documents (
            collection_id BIGINT NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
            path TEXT NOT NULL,
            PRIMARY KEY (collection_id, path)
        );
        CREATE TABLE watched_folders (path TEXT PRIMARY KEY);
        """,
    ),
    (
        2,
        "document_language",
        # The language a document is mostly written in (as in SQLite's 0010): a question in another language is
        # also searched in the documents' own. NULL: not read yet.
        "ALTER TABLE documents ADD COLUMN language TEXT;",
    ),
    (
        3,
        "document_overviews",
        # As SQLite's 0011 (../migrations.py): a document's overview and its sections in outline order.
        """
        CREATE TABLE overviews (
            document_id BIGINT PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
            content_hash TEXT NOT NULL,
            title TEXT NOT NULL,
            outline_source TEXT NOT NULL,
            vector BYTEA,
            title_vector BYTEA,
            abstract TEXT,
            abstract_model TEXT,
            built_at TIMESTAMPTZ NOT NULL DEFAULT now()
        );
        CREATE TABLE overview_sections (
            document_id BIGINT NOT NULL REFERENCES overviews(document_id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            level INTEGER NOT NULL,
            title TEXT NOT NULL,
            page INTEGER NOT NULL,
            last_page INTEGER NOT NULL,
            sentences TEXT NOT NULL,
            vector BYTEA,
            cited_section TEXT,
            PRIMARY KEY (document_id, position)
        );
        """,
    ),
    (
        4,
        "chunk_navigation",
        # As SQLite's 0012: index and contents passages (core/navigation_text.py), found by keyword only. A library
        # made before this has none marked; its next import of a file marks that file's.
        """
        ALTER TABLE chunks ADD COLUMN navigation BOOLEAN NOT NULL DEFAULT false;
        CREATE INDEX chunks_navigation ON chunks(id) WHERE navigation;
        """,
    ),
    (
        5,
        "chunk_keyword_text",
        # As SQLite's 0014: the parser reads a run of Chinese characters or kana as one word, so a chunk in those
        # scripts is indexed by its text with each run written as its character pairs (core/word_pieces.keyword_text),
        # as queries are; NULL: the text itself. Existing chunks are rewritten by `space_keyword_text` below.
        """
        ALTER TABLE chunks ADD COLUMN keyword_text TEXT;
        ALTER TABLE chunks DROP COLUMN words;
        ALTER TABLE chunks ADD COLUMN words tsvector GENERATED ALWAYS AS (to_tsvector('simple', coalesce(keyword_text, text))) STORED;
        CREATE INDEX chunks_words ON chunks USING gin(words);
        """,
    ),
    (
        6,
        "rebuild_short_overviews",
        # As SQLite's 0015: a document of fewer than four sections keeps more central sentences a section now; its
        # overview is built again.
        """
        DELETE FROM overviews WHERE document_id IN (SELECT document_id FROM overview_sections GROUP BY document_id HAVING count(*) < 4);
        """,
    ),
    (
        7,
        "rebuild_contents_overviews",
        # As SQLite's 0016: a PDF's contents keep their order now; the overviews built from contents are built again.
        """
        DELETE FROM overviews WHERE outline_source = 'outline';
        """,
    ),
    (
        8,
        "plain_letters_keyword_text",
        # As SQLite's 0017: a ligature a PDF's text keeps as one character ("ﬁlter") is indexed by its letters; existing
        # chunks' keyword text is written again by `space_keyword_text` below.
        """
        SELECT 1;
        """,
    ),
    (
        9,
        "section_heading_keyword_text",
        # As SQLite's 0018: a passage of a Word, HTML or EPUB section is indexed with its section's heading; existing
        # chunks' keyword text is written again by `space_keyword_text` below.
        """
        SELECT 1;
        """,
    ),
    (
        10,
        "judge_boilerplate",
        # As SQLite's 0013 and 0019: repeated boilerplate (a notice or footer block on many pages) is found by keyword
        # only. A library made before this had none marked, and a number inside a name now tells two lines apart.
        # Existing text chunks are judged by `judge_boilerplate_chunks` below.
        """
        SELECT 1;
        """,
    ),
]


def space_keyword_text(conn: psycopg.Connection) -> None:
    """As SQLite's: the chunks a library already holds in Chinese, Japanese or Thai, with ligatures, or in a section, get their keyword text."""
    updates = keyword_text_updates(conn.execute(CHUNKS_UNDER_HEADINGS).fetchall())
    if updates:
        conn.cursor().executemany("UPDATE chunks SET keyword_text = %s WHERE id = %s", updates)


def judge_boilerplate_chunks(conn: psycopg.Connection) -> None:
    """As SQLite's: the text chunks a library already holds are judged again, one document at a time."""
    for (document_id,) in conn.execute("SELECT DISTINCT document_id FROM chunks WHERE kind = 'text'").fetchall():
        pages = conn.execute("SELECT number, text FROM pages WHERE document_id = %s", (document_id,)).fetchall()
        chunks = conn.execute('SELECT id, page, start, "end", text FROM chunks WHERE document_id = %s AND kind = \'text\'', (document_id,)).fetchall()
        conn.cursor().executemany("UPDATE chunks SET navigation = %s WHERE id = %s", navigation_updates(pages, chunks))


# Python that completes a migration's SQL (what SQL alone cannot do), by migration number.
COMPLETIONS: dict[int, Callable[[psycopg.Connection], None]] = {5: space_keyword_text, 8: space_keyword_text, 9: space_keyword_text, 10: judge_boilerplate_chunks}
