"""A library in PostgreSQL with pgvector: a real throwaway cluster (tests/postgres_cluster.py), the real MiniLM.

Skipped, saying why, where PostgreSQL, pgvector or psycopg are missing (`make test` installs them when it can).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from desktop_app.core.library import Library
from desktop_app.core.storage.postgres.schema import MIGRATIONS
from desktop_app.core.storage.postgres.store import PgStore
from desktop_app.sample_datasheet import write_sample_datasheet
from tests.document_files import write_town_report

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]


def test_a_library_in_postgresql_keeps_documents_chats_collections_and_folders_for_every_data_folder(database, real_embedder, tmp_path):
    library = Library(tmp_path / "laptop-a", embedder=real_embedder, location=database)
    towns = write_town_report(tmp_path / "towns.pdf", pages=6)
    datasheet = write_sample_datasheet(tmp_path / "px40.pdf")
    events = list(library.import_paths([towns, datasheet]))
    assert [e.stage for e in events if e.stage in ("ready", "failed")] == ["ready", "ready"]

    # By meaning (pgvector's HNSW index) and by words (full-text search, in any script).
    hits = library.index.search(real_embedder.embed(["How often are the filters in Ostrelle washed?"])[0], 3)
    assert "Ostrelle" in library.passage(hits[0].chunk_id).text
    assert "Ostrelle" in library.passage(library.store.keyword_search("Ostrelle filters washed", 3)[0].chunk_id).text
    chat = library.store.create_chat("Water works")
    library.store.add_message(chat, "user", "Which town heats its intake?")
    library.add_to_collection("Towns", [str(towns)])
    library.store.add_watched_folder(str(tmp_path / "inbox"))
    library.close()

    # Another data folder (another laptop) opening the same database sees all of it, searchable at once.
    other = Library(tmp_path / "laptop-b", embedder=real_embedder, location=database)
    assert other.notices == []
    assert sorted(d.title for d in other.documents()) == sorted(d.title for d in library.store.documents())
    assert all(d.status == "ready" for d in other.documents())
    assert [title for _, title, _ in other.store.chats()] == ["Water works"]
    assert other.collection_documents("towns") == [d.id for d in other.documents() if d.path == str(towns)]
    assert other.store.watched_folders() == [str(tmp_path / "inbox")]
    scope = set(other.collection_documents("Towns"))
    allowed = other.store.chunk_ids_of_documents(scope)
    found = other.index.search(real_embedder.embed(["maximum operating temperature of the pump"])[0], 5, allowed)
    assert found and {other.passage(h.chunk_id).document_id for h in found} == scope  # the scope holds
    by_words = other.store.keyword_search("pump temperature filters", 5, allowed)
    assert by_words and {other.passage(h.chunk_id).document_id for h in by_words} == scope
    # What a question in another language is written in counts the documents it may find (pipeline.documents_languages).
    assert other.store.languages_held(scope) == {"en": (1, len(allowed))} and other.store.languages_held()["en"][0] == 2

    datasheet_id = next(d.id for d in other.documents() if d.path == str(datasheet))
    other.remove_document(datasheet_id)
    assert [d.path for d in other.documents()] == [str(towns)]
    assert other.store.value("SELECT count(*) FROM chunks WHERE document_id = %s", (datasheet_id,)) == 0
    assert other.store.rows("SELECT version FROM schema_migrations ORDER BY version") == [(version,) for version, _, _ in MIGRATIONS]
    other.close()


def test_a_shared_library_is_not_indexed_again_by_an_app_with_another_model_until_one_switches_it(database, real_embedder, tmp_path):
    from desktop_app.core.errors import ModelError
    from tests.fakes import HashingEmbedder

    library = Library(tmp_path / "laptop-a", embedder=real_embedder, location=database)
    list(library.import_paths([write_town_report(tmp_path / "towns.pdf", pages=3)]))
    total = library.index_backlog().total
    library.close()

    smaller = HashingEmbedder()  # another model, vectors of another length
    assert smaller.dimension != real_embedder.dimension
    with pytest.raises(ModelError, match=f"indexed with {real_embedder.name}, and this app uses {smaller.name}"):
        Library(tmp_path / "laptop-b", embedder=smaller, location=database)
    store = PgStore(database)
    assert store.pending_count() == 0  # laptop A's vectors are kept

    # Switching on purpose (what Settings does): the vector column takes the new length, and everything is indexed again.
    assert store.use_embedding_model(f"{smaller.name}/{smaller.dimension}") == total
    column = "SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'chunks'::regclass AND attname = 'embedding'"
    assert store.value(column) == f"vector({smaller.dimension})"
    store.close()
    switched = Library(tmp_path / "laptop-b", embedder=smaller, location=database)
    list(switched.embedding_queue().run())
    assert switched.index_backlog().pending == 0
    assert switched.index.search(smaller.embed(["Velmora"])[0], 2)
    switched.close()


def cli(home: Path, database: str, *args: str) -> subprocess.Popen:
    env = dict(os.environ, DESKTOP_APP_HOME=str(home), PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    return subprocess.Popen([sys.executable, "-m", "desktop_app.cli", "--library", database, *args], env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finished(process: subprocess.Popen) -> str:
    out, err = process.communicate(timeout=900)
    assert process.returncode == 0, err[-3000:]
    return out


def test_two_app_processes_import_and_ask_at_once_without_losing_or_doubling_a_document(database, tmp_path):
    laptop_a, laptop_b = tmp_path / "laptop-a", tmp_path / "laptop-b"
    a_towns, b_towns = (("Arnholt", "Ambervale"), ("Kestrelby", "Lowmarsh")), (("Brindlemoor", "Beckwater"), ("Fennick", "Gorsedale"))
    a_files = [write_town_report(tmp_path / f"a{n}.pdf", pages=4, towns=towns) for n, towns in enumerate(a_towns)]
    b_files = [write_town_report(tmp_path / f"b{n}.pdf", pages=4, towns=towns) for n, towns in enumerate(b_towns)]
    shared = write_town_report(tmp_path / "shared.pdf", pages=4, towns=("Corrowmere",))

    # Both import at once, the shared file included; then both ask at once.
    first = [cli(laptop_a, database, "ingest", *map(str, a_files), str(shared)), cli(laptop_b, database, "ingest", *map(str, b_files), str(shared))]
    for process in first:
        finished(process)
    questions = [
        cli(laptop_a, database, "search", "--mode", "rag", "--json", "How many litres per second does Fennick lift?"),
        cli(laptop_b, database, "search", "--mode", "rag", "--json", "How often are the filters of Arnholt washed?"),
    ]
    answers = [json.loads(finished(p)) for p in questions]

    store = PgStore(database)
    documents = store.documents()
    assert sorted(d.path for d in documents) == sorted(str(p) for p in [*a_files, *b_files, shared])  # each once
    assert all(d.status == "ready" and d.chunks > 0 for d in documents)
    assert store.pending_count() == 0
    assert store.chunk_count() == sum(d.chunks for d in documents)  # no chunks of a replaced or doubled copy
    # Laptop A finds what laptop B imported, and the other way round.
    assert answers[0]["fused"][0]["file"] == str(b_files[1])
    assert answers[1]["fused"][0]["file"] == str(a_files[0])
    store.close()


def test_a_shared_library_builds_each_documents_overview_and_answers_which_file_covers_a_topic(database, real_embedder, tmp_path):
    from desktop_app.core.overview.intent import WHICH
    from tests.overview_files import GARDEN_BOOK, MOTH_BOOK, write_book_pdf

    library = Library(tmp_path / "laptop-a", embedder=real_embedder, location=database)
    moths = write_book_pdf(tmp_path / "moths.pdf")
    garden = write_book_pdf(tmp_path / "garden.pdf", GARDEN_BOOK, "Brindlecombe gardens")
    list(library.import_paths([moths, garden]))
    progress = list(library.overview_queue().run())
    assert progress[-1].done == progress[-1].total == 2
    moths_id = library.find_document(str(moths)).id
    overview = library.overview(moths_id)
    assert [c.title for c in overview.chapters()] == [c for c, _ in MOTH_BOOK]
    assert any(section.sentences for section in overview.sections)
    library.close()

    # Another laptop sees the overviews the first one built.
    other = Library(tmp_path / "laptop-b", embedder=real_embedder, location=database)
    assert other.overview(moths_id) == overview
    assert list(other.overview_queue().run()) == []
    from desktop_app.core.overview.answering import plan_answer, whole_document_question

    routed = whole_document_question(other.store, "Which of my files covers moths?")
    assert routed is not None and routed.kind == WHICH
    plan = plan_answer(other.store, other.embedder, routed, "Which of my files covers moths?", None)
    assert plan.ready.splitlines()[0].startswith("Most about it: moths.pdf")
    other.close()


def upgraded_postgresql_library(database: str, version: int, text: str, section: str | None = None) -> PgStore:
    """A library as the app made it at schema `version`, holding one passage, `text` (on a page under `section`, a
    Word or HTML file's heading, when given), opened by today's app."""
    import psycopg

    with psycopg.connect(database, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        conn.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())")
        for number, name, script in MIGRATIONS[:version]:
            conn.execute(script)
            conn.execute("INSERT INTO schema_migrations(version, name) VALUES (%s, %s)", (number, name))
        conn.execute("INSERT INTO documents(path, title, content_hash, status) VALUES ('/d/pump.txt', 'Pump', 'h', 'ready')")
        conn.execute('INSERT INTO chunks(document_id, page, start, "end", text) VALUES (1, 1, 0, %s, %s)', (len(text), text))
        if section is not None:
            conn.execute("INSERT INTO pages(document_id, number, text, section) VALUES (1, 1, %s, %s)", (f"{section}\n\n{text}", section))
    return PgStore(database)


def test_a_word_inside_chinese_text_is_found_by_keyword_in_new_and_upgraded_postgresql_libraries(database):
    from desktop_app.core.types import ChunkDraft, PageText

    # A library made before the keyword text: the schema up to migration 4, holding one Chinese passage.
    old_text = "水泵的最大流量是每小时十二立方米。"
    store = upgraded_postgresql_library(database, 4, old_text)
    new_text = "保修期为两年，从购买之日起计算。"
    store.save_document("/d/warranty.txt", "Warranty", "h2", [PageText(1, new_text)], 1, [ChunkDraft(1, 0, len(new_text), new_text)], None)

    def found(query):
        return [store.passages([h.chunk_id])[h.chunk_id].text for h in store.keyword_search(query, 5)]

    assert found("最大流量") == [old_text]
    assert found("保修期是多久？") == [new_text]
    assert store.mentioned_words(["流量", "扬程"]) == {"流量"}
    assert store.holds_together(["保修期", "两年"], 2) and not store.holds_together(["保修期", "流量"], 2) and store.holds_together(["保修期", "流量"], 1)
    assert store.holds_together(["两年"], 1, ["保修期", "扬程"]) and not store.holds_together(["两年"], 1, ["流量"])  # with one of the anchors
    store.close()


def test_a_word_typeset_with_a_ligature_is_found_by_keyword_in_an_upgraded_postgresql_library(database):
    # A library made before ligatures were read as their letters: the schema up to migration 7, one passage with "ﬁ".
    text = "Clean the ﬁlter every six months."
    store = upgraded_postgresql_library(database, 7, text)
    hits = store.keyword_search("How often is the filter cleaned?", 5)
    assert [store.passages([h.chunk_id])[h.chunk_id].text for h in hits] == [text]
    store.close()


def test_a_code_written_with_or_without_a_hyphen_is_found_by_keyword_in_postgresql(database):
    from desktop_app.core.types import ChunkDraft, PageText

    # As in SQLite (tests/unit/test_keyword_search.py): "SHA-256" finds the passage writing "SHA256", "RS485" the one
    # writing "RS-485", ahead of a passage holding the code's parts apart.
    store = upgraded_postgresql_library(database, len(MIGRATIONS), "SHA3 with a 256-bit output is the most useful of its family.")
    texts = ["SHA256 outputs hash values of 32 octets.", "The cable is 485 mm long; its bus carries the RS signal.", "The bus is RS-485 at up to 115200 baud."]
    for n, text in enumerate(texts):
        store.save_document(f"/d/{n}.txt", f"Doc {n}", f"h{n}", [PageText(1, text)], 1, [ChunkDraft(1, 0, len(text), text)], None)

    def found(query):
        return [store.passages([h.chunk_id])[h.chunk_id].text for h in store.keyword_search(query, 5)]

    assert texts[0] in found("What does SHA-256 output?")  # ts_rank_cd weighs no word by its rarity: found, not first
    assert found("Which RS485 bus?")[0] == texts[2]  # the parser reads "RS-485" as "rs" and "-485"
    store.close()


def test_a_sections_passage_is_found_by_its_heading_in_new_and_upgraded_postgresql_libraries(database):
    from desktop_app.core.types import ChunkDraft, PageText

    # As in SQLite (tests/unit/test_keyword_search.py): two functions of a reference list the same option, and only
    # their sections' headings say whose item is whose. One was stored before headings were indexed (schema 8).
    item = "- retries <number> How often a failed step is tried again. Default: {}."
    store = upgraded_postgresql_library(database, 8, item.format(3), section="fetch_all(options)")
    text = item.format(0)
    store.save_document("/d/ref.html", "Reference", "h2", [PageText(1, f"fetch_one(options)\n\n{text}", section="fetch_one(options)")], 1, [ChunkDraft(1, 0, len(text), text)], None)

    def found(query):
        return [store.passages([h.chunk_id])[h.chunk_id].text for h in store.keyword_search(query, 5)]

    assert found("fetch_one") == [item.format(0)] and found("fetch_all") == [item.format(3)]
    assert found("What is the default of retries for fetch_all?")[0] == item.format(3)
    # A function asked by its short name, the last part of the code its heading writes (as in SQLite: tests/unit/test_code_names.py).
    drains = "Empties the tank."
    store.save_document("/d/pump.html", "Pump", "h3", [PageText(1, f"pump.drain(options)\n\n{drains}", section="pump.drain(options)")], 1, [ChunkDraft(1, 0, len(drains), drains)], None)
    assert store.heading_names(["drain", "options", "pump", "tank"]) == {"drain"}
    store.close()


def test_an_upgraded_postgresql_library_marks_its_repeated_notice_passages(database):
    import psycopg

    from tests.pump_manual import NOTICE, PAGES

    # As in SQLite (tests/unit/test_migrations.py): a manual stored before repeated boilerplate was marked in
    # PostgreSQL (schema 9), a notice after each of its three chapters.
    store = upgraded_postgresql_library(database, 9, "The impeller turns at 2900 rpm.")
    store.close()
    with psycopg.connect(database, autocommit=True) as conn:
        conn.execute("INSERT INTO documents(path, title, content_hash, status) VALUES ('/d/manual.pdf', 'Manual', 'h2', 'ready')")
        for number, text in enumerate(PAGES, start=1):
            conn.execute("INSERT INTO pages(document_id, number, text) VALUES (2, %s, %s)", (number, text))
            conn.execute('INSERT INTO chunks(document_id, page, start, "end", text) VALUES (2, %s, 0, %s, %s)', (number, len(text), text))
        conn.execute("DELETE FROM schema_migrations WHERE version > 9")  # as the app of schema 9 left it
    store = PgStore(database)
    assert [text for text, in store.rows("SELECT text FROM chunks WHERE navigation ORDER BY id")] == [NOTICE] * 3
    assert not {h.chunk_id for h in store.keyword_search("liability", 10, navigation=False)}
    store.close()
