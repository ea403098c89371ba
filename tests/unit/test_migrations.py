import sqlite3

from desktop_app.core.storage.migrations import MIGRATIONS, MIGRATIONS_TABLE, migrate, migration_set, schema_version
from desktop_app.core.storage.store import Store
from desktop_app.core.types import ChunkDraft
from tests.pump_manual import NOTICE, PAGES


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


def old_library(path, version: int = len(MIGRATIONS)):
    """A library as the app made it before sqlite-utils recorded migrations: PRAGMA user_version only."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    for number, (_, sql) in enumerate(MIGRATIONS[:version], start=1):
        conn.executescript(f"BEGIN IMMEDIATE;\n{sql}\nPRAGMA user_version = {number};\nCOMMIT;")
    conn.execute("INSERT INTO documents(path, title, content_hash, pages, chunks, status) VALUES ('/d/pump.pdf', 'Pump', 'h', 1, 2, 'ready')")
    conn.execute("INSERT INTO pages(document_id, number, text) VALUES (1, 1, 'The impeller turns at 2900 rpm. The seal is carbon.')")
    conn.execute('INSERT INTO chunks(document_id, page, start, "end", text) VALUES (1, 1, 0, 31, \'The impeller turns at 2900 rpm.\')')
    conn.execute('INSERT INTO chunks(document_id, page, start, "end", text) VALUES (1, 1, 32, 51, \'The seal is carbon.\')')
    conn.execute("INSERT INTO chats(title) VALUES ('Pump questions')")
    conn.execute("INSERT INTO messages(chat_id, role, content) VALUES (1, 'user', 'How fast does it turn?')")
    conn.close()


def test_a_library_from_before_recorded_migrations_opens_with_everything_in_it(tmp_path):
    old_library(tmp_path / "library.sqlite")
    store = Store(tmp_path / "library.sqlite")
    # Nothing ran again (a CREATE TABLE that ran twice would have failed), and every step is now on record.
    assert [m.name for m in migration_set().applied(store.db)] == [name for name, _ in MIGRATIONS]
    assert migration_set().pending(store.db) == []
    assert schema_version(store.conn) == len(MIGRATIONS)
    [doc] = store.documents()
    assert (doc.title, doc.chunks, doc.kind) == ("Pump", 2, "text")
    assert [h.chunk_id for h in store.keyword_search("impeller speed", 5)] == [1]
    assert [m[2] for m in store.messages(1)] == ["How fast does it turn?"]
    # The keyword index's triggers still follow new chunks.
    store.save_document("/d/seal.txt", "Seal", "h2", [], 1, [ChunkDraft(1, 0, 20, "Carbon seal wear limits")], None)
    assert len(store.keyword_search("seal", 5)) == 2
    store.close()
    again = Store(tmp_path / "library.sqlite")
    assert len(again.documents()) == 2 and again.integrity_problems() == []
    again.close()


def test_an_old_library_at_an_older_version_gets_only_the_migrations_it_lacks(tmp_path):
    old_library(tmp_path / "library.sqlite", version=5)
    store = Store(tmp_path / "library.sqlite")
    applied = migration_set().applied(store.db)
    assert [m.name for m in applied] == [name for name, _ in MIGRATIONS]
    adopted = [m for m in applied if "user_version" in m.applied_at]
    assert [m.name for m in adopted] == [name for name, _ in MIGRATIONS[:5]]
    [passage] = [p for p in store.passages([1, 2]).values() if p.chunk_id == 1]
    assert passage.kind == "text" and passage.bbox is None  # columns from migration 6 added to kept rows
    assert store.documents()[0].kind == "text" and schema_version(store.conn) == len(MIGRATIONS)
    store.close()


def test_a_new_library_records_every_migration_and_the_same_schema_as_an_old_one(tmp_path):
    Store(tmp_path / "new.sqlite").close()
    old_library(tmp_path / "old.sqlite")
    Store(tmp_path / "old.sqlite").close()

    def schema(path):
        conn = sqlite3.connect(path)
        try:
            names = [r[0] for r in conn.execute(f"SELECT name FROM {MIGRATIONS_TABLE} ORDER BY id")]
            return names, sorted(conn.execute("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'").fetchall())
        finally:
            conn.close()

    assert schema(tmp_path / "new.sqlite") == schema(tmp_path / "old.sqlite")
    assert schema(tmp_path / "new.sqlite")[0] == [name for name, _ in MIGRATIONS]


def test_an_upgraded_library_marks_its_index_and_contents_passages(tmp_path):
    old_library(tmp_path / "library.sqlite", version=9)
    conn = sqlite3.connect(tmp_path / "library.sqlite", isolation_level=None)
    contents = "Contents\n1 Pump . . . . . . . . . . 1\n2 Seal . . . . . . . . . . 4\n3 Impeller . . . . . . . . 9"
    conn.execute('INSERT INTO chunks(document_id, page, start, "end", text) VALUES (1, 1, 0, ?, ?)', (len(contents), contents))
    conn.close()
    store = Store(tmp_path / "library.sqlite")
    marked = {r[0] for r in store.conn.execute("SELECT id FROM chunks WHERE navigation = 1")}
    assert marked == {3}
    assert 3 in {h.chunk_id for h in store.keyword_search("seal contents", 5)}  # still found by its words
    assert 3 not in {h.chunk_id for h in store.keyword_search("seal contents", 5, navigation=False)}
    store.close()


def test_an_upgraded_library_marks_its_repeated_notice_passages_from_the_stored_pages(tmp_path):
    old_library(tmp_path / "library.sqlite", version=12)
    conn = sqlite3.connect(tmp_path / "library.sqlite", isolation_level=None)
    conn.execute("INSERT INTO documents(path, title, content_hash, pages, chunks, status) VALUES ('/d/manual.pdf', 'Manual', 'h2', 9, 9, 'ready')")
    for number, text in enumerate(PAGES, start=1):  # the notice after each chapter
        conn.execute("INSERT INTO pages(document_id, number, text) VALUES (2, ?, ?)", (number, text))
        conn.execute('INSERT INTO chunks(document_id, page, start, "end", text) VALUES (2, ?, 0, ?, ?)', (number, len(text), text))
    conn.close()
    store = Store(tmp_path / "library.sqlite")
    marked = dict(store.conn.execute("SELECT id, text FROM chunks WHERE navigation = 1").fetchall())
    assert list(marked.values()) == [NOTICE] * 3
    assert set(marked) <= {h.chunk_id for h in store.keyword_search("liability", 10)}  # still found by their words
    assert not set(marked) & {h.chunk_id for h in store.keyword_search("liability", 10, navigation=False)}
    store.close()


def upgraded_with_passage(path, version: int, text: str) -> Store:
    """An old library at `version` holding one more passage, `text` (chunk 3), opened by today's app."""
    old_library(path, version=version)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute('INSERT INTO chunks(document_id, page, start, "end", text) VALUES (1, 1, 0, ?, ?)', (len(text), text))
    conn.close()
    return Store(path)


def test_an_upgraded_library_finds_a_word_inside_its_chinese_passages(tmp_path):
    store = upgraded_with_passage(tmp_path / "library.sqlite", 13, "水泵的最大流量是每小时十二立方米。")
    assert [h.chunk_id for h in store.keyword_search("最大流量", 5)] == [3]
    assert [h.chunk_id for h in store.keyword_search("impeller speed", 5)] == [1]  # other chunks indexed as before
    store.conn.execute("DELETE FROM chunks WHERE id = 3")  # the delete trigger removes what the index holds
    assert store.keyword_search("最大流量", 5) == [] and store.integrity_problems() == []
    store.close()


def test_an_upgraded_library_builds_again_the_overviews_of_documents_with_few_sections(tmp_path):
    # Built when a one-section leaflet kept two central sentences: dropped, so the queue builds it again with more.
    old_library(tmp_path / "library.sqlite", version=14)
    conn = sqlite3.connect(tmp_path / "library.sqlite", isolation_level=None)
    conn.execute("INSERT INTO documents(path, title, content_hash, pages, chunks, status) VALUES ('/d/book.pdf', 'Book', 'h2', 9, 9, 'ready')")
    for document_id, sections in ((1, 1), (2, 5)):
        conn.execute("INSERT INTO overviews(document_id, content_hash, title, outline_source) VALUES (?, 'h', 't', 'pdf_outline')", (document_id,))
        for position in range(sections):
            conn.execute("INSERT INTO overview_sections(document_id, position, level, title, page, last_page, sentences) VALUES (?, ?, 1, 's', 1, 1, '[]')", (document_id, position))
    conn.close()
    store = Store(tmp_path / "library.sqlite")
    assert {r[0] for r in store.conn.execute("SELECT document_id FROM overviews")} == {2}  # five sections: kept
    assert {r[0] for r in store.conn.execute("SELECT DISTINCT document_id FROM overview_sections")} == {2}
    store.close()


def test_an_upgraded_library_builds_again_the_overviews_read_from_a_files_contents(tmp_path):
    # Their sections could be out of the contents' order (core/overview/outline.py); detected headings' are not touched.
    from desktop_app.core.document_overview import DETECTED, PDF_OUTLINE

    old_library(tmp_path / "library.sqlite", version=15)
    conn = sqlite3.connect(tmp_path / "library.sqlite", isolation_level=None)
    conn.execute("INSERT INTO documents(path, title, content_hash, pages, chunks, status) VALUES ('/d/book.pdf', 'Book', 'h2', 9, 9, 'ready')")
    for document_id, source in ((1, PDF_OUTLINE), (2, DETECTED)):
        conn.execute("INSERT INTO overviews(document_id, content_hash, title, outline_source, abstract) VALUES (?, 'h', 't', ?, 'An abstract.')", (document_id, source))
        for position in range(5):
            conn.execute("INSERT INTO overview_sections(document_id, position, level, title, page, last_page, sentences) VALUES (?, ?, 1, 's', 1, 1, '[]')", (document_id, position))
    conn.close()
    store = Store(tmp_path / "library.sqlite")
    assert {r[0] for r in store.conn.execute("SELECT document_id FROM overviews")} == {2}
    assert {r[0] for r in store.conn.execute("SELECT DISTINCT document_id FROM overview_sections")} == {2}
    store.close()


def test_an_upgraded_library_finds_a_word_its_pdf_typeset_with_a_ligature(tmp_path):
    text = "Clean the ﬁlter every six months."
    store = upgraded_with_passage(tmp_path / "library.sqlite", 16, text)
    assert [h.chunk_id for h in store.keyword_search("filter", 5)] == [3]
    assert [h.chunk_id for h in store.keyword_search("impeller speed", 5)] == [1]  # other chunks indexed as before
    assert store.passages([3])[3].text == text  # the passage keeps its text: its offsets on the page stay right
    store.close()


def test_an_upgraded_library_finds_a_sections_passage_by_its_heading(tmp_path):
    # Made before a section's passages were indexed with its heading: an HTML reference whose two functions list the
    # same option, stored as sections 2 and 3; each item names no function.
    old_library(tmp_path / "library.sqlite", version=17)
    conn = sqlite3.connect(tmp_path / "library.sqlite", isolation_level=None)
    conn.execute("INSERT INTO documents(path, title, content_hash, pages, chunks, status) VALUES ('/d/ref.html', 'Reference', 'h2', 2, 2, 'ready')")
    item = "- retries <number> How often a failed step is tried again. Default: {}."
    for number, (heading, default) in enumerate((("fetch_all(options)", 3), ("fetch_one(options)", 0)), start=2):
        text = item.format(default)
        conn.execute("INSERT INTO pages(document_id, number, text, section) VALUES (2, ?, ?, ?)", (number, f"{heading}\n\n{text}", heading))
        conn.execute('INSERT INTO chunks(document_id, page, start, "end", text) VALUES (2, ?, 0, ?, ?)', (number, len(text), text))
    conn.close()
    store = Store(tmp_path / "library.sqlite")
    assert [h.chunk_id for h in store.keyword_search("fetch_one", 5)] == [4]
    assert [h.chunk_id for h in store.keyword_search("fetch_one retries", 5)] == [4, 3]  # its own item first
    assert [h.chunk_id for h in store.keyword_search("impeller speed", 5)] == [1]  # a PDF's page has no heading: as before
    assert store.passages([4])[4].text == item.format(0) and store.integrity_problems() == []
    store.close()



def test_an_upgraded_library_searches_again_the_items_it_took_for_copies_by_a_number_in_their_names(tmp_path):
    # Made when a number inside a name was one placeholder: the items of a reference told apart only by it
    # ("isTile8", "isTile16") were one repeated line, marked as a copy and found by no search.
    old_library(tmp_path / "library.sqlite", version=18)
    conn = sqlite3.connect(tmp_path / "library.sqlite", isolation_level=None)
    conn.execute("INSERT INTO documents(path, title, content_hash, pages, chunks, status) VALUES ('/d/ref.html', 'Reference', 'h2', 4, 4, 'ready')")
    for number, bits in enumerate((8, 16, 32, 64), start=2):
        heading = f"isTile{bits}(value)"
        item = f"{heading}\n\n- Returns: <boolean> True when the value is a tile{bits}."
        conn.execute("INSERT INTO pages(document_id, number, text, section) VALUES (2, ?, ?, ?)", (number, item, heading))
        conn.execute('INSERT INTO chunks(document_id, page, start, "end", text, navigation) VALUES (2, ?, 0, ?, ?, 1)', (number, len(item), item))
    conn.close()
    store = Store(tmp_path / "library.sqlite")
    assert store.conn.execute("SELECT count(*) FROM chunks WHERE document_id = 2 AND navigation = 1").fetchone() == (0,)
    assert [store.passages([h.chunk_id])[h.chunk_id].text for h in store.keyword_search("tile16", 5, navigation=False)] == [
        "isTile16(value)\n\n- Returns: <boolean> True when the value is a tile16."
    ]
    store.close()
