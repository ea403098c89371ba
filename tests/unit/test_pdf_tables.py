"""Ruled tables in PDFs become Markdown table chunks, cited as "table on page N" everywhere a source is shown."""

from __future__ import annotations

import sqlite3

import pytest

from desktop_app.core.codec import result_to_json
from desktop_app.core.events import AnswerDone
from desktop_app.core.ingest import pdf_tables as tables
from desktop_app.core.ingest.extraction import extract
from desktop_app.core.page_render import render_page
from desktop_app.core.storage.migrations import MIGRATIONS
from desktop_app.core.storage.store import Store
from tests.table_pdfs import SPEC_ROWS, write_table_datasheet

EXPECTED_MARKDOWN = "\n".join(
    ["| Model | Maximum pressure | Flow rate | Motor power |", "|---|---|---|---|"] + ["| " + " | ".join(r) + " |" for r in SPEC_ROWS]
)
QUESTION = "What is the maximum pressure of model HX-B?"


@pytest.fixture
def datasheet(tmp_path):
    return write_table_datasheet(tmp_path / "docs" / "hx.pdf")


def table_chunks(library):
    passages = library.store.passages(library.store.chunk_ids())
    return [p for p in passages.values() if p.kind == "table"]


def ask(library, question, mode="rag", **kwargs):
    done = [e for e in library.ask(question, mode, **kwargs) if isinstance(e, AnswerDone)]
    return done[0].result


def test_the_ruled_table_is_one_markdown_chunk_and_the_framed_listings_are_not_tables(empty_library, datasheet):
    events = list(empty_library.import_paths([datasheet]))
    assert events[-1].stage == "ready"
    [table] = table_chunks(empty_library)
    assert table.page == 1
    assert table.text == EXPECTED_MARKDOWN
    # Its area on the page covers the grid (drawn at y 180..268, x 72..492), so the viewer can highlight it.
    assert table.bbox == pytest.approx((72, 180, 492, 268), abs=1)
    # The table's cells are in the table chunk only; the text around it is still chunked, with its page offsets.
    text_chunks = [p for p in empty_library.store.passages(empty_library.store.chunk_ids()).values() if p.kind == "text"]
    assert not any("HX-B" in p.text or "11 bar" in p.text for p in text_chunks)
    page_one = empty_library.store.page_text(table.document_id, 1)
    assert "HX-B" in page_one[table.start : table.end]
    assert any("irrigation" in p.text for p in text_chunks) and any("Starting the pump" in p.text for p in text_chunks)
    for p in text_chunks:
        assert empty_library.store.page_text(p.document_id, p.page)[p.start : p.end] == p.text
    assert any("Listing 1" in p.text and p.page == 2 for p in text_chunks)


def test_a_table_whose_words_interleave_with_other_text_is_not_cut_out_of_the_text():
    from desktop_app.core.ingest.page_text import PageWords

    # Reading order: cell, text beside the table, cell.
    layout = PageWords("A left B", ((0, 1, (10, 10, 20, 20)), (2, 6, (300, 10, 340, 20)), (7, 8, (10, 30, 20, 40))))
    assert tables._span_inside(layout, (0, 0, 100, 50)) == (0, 0)
    assert tables._span_inside(layout, (0, 0, 400, 25)) == (0, 6)
    page = tables.PageText(1, "A left B")
    piece = tables.ChunkDraft(1, 0, 0, "| A |", kind="table")
    assert [d.text for d in tables.chunk_pages_around_tables([page], [piece])] == ["A left B", "| A |"]


def test_a_page_without_a_grid_of_rules_never_reaches_the_slow_finder(datasheet, monkeypatch):
    import pymupdf

    calls = []
    original = pymupdf.Page.find_tables
    monkeypatch.setattr(pymupdf.Page, "find_tables", lambda page, **kw: calls.append(page.number) or original(page, **kw))
    extracted = extract(datasheet)
    assert [t.page for t in extracted.tables] == [1]
    # Page 2's titled listing has 3 rules each way, so it is looked at, and then rejected as one block of code.
    assert calls == [0, 1]


def test_a_plain_framed_box_does_not_pass_the_gate(tmp_path):
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page()
    page.draw_rect(pymupdf.Rect(72, 72, 400, 160), color=(0, 0, 0))
    page.insert_text((80, 90), "x <- c(1, 2, 3)", fontname="cour", fontsize=10)
    assert tables.rule_counts(page) == (2, 2)
    assert not tables.may_hold_table(page)


@pytest.mark.parametrize(
    "rows, real",
    [
        ([["Model", "Pressure"], ["A", "4 bar"]], True),
        ([["x <- 1\ny <- 2"]], False),  # one framed block
        ([["Listing 1", ""], ["1 2 3", "code code code"]], False),  # title bar and gutter
        ([["a", ""], ["", ""], ["", "b"], ["c", "d"]], False),  # mostly empty cells
        ([["only one column"], ["another row"]], False),
    ],
)
def test_only_a_real_grid_counts_as_a_table(rows, real):
    assert tables.is_real_grid(rows) is real


def test_a_long_table_is_split_by_rows_and_each_piece_repeats_the_header():
    from desktop_app.core.ingest.page_text import PageWords

    body = [[f"M-{i}", f"{i} bar", "a long description of the model " * 2] for i in range(40)]
    boxes = [(0, 10.0 * i, 100, 10.0 * i + 10) for i in range(40)]
    pieces = tables.table_pieces(3, ["Model", "Pressure", "Notes"], body, boxes, (0, -10, 100, 0), PageWords("", ()), max_chars=900)
    assert len(pieces) > 1
    assert all(p.text.startswith("| Model | Pressure | Notes |") and len(p.text) <= 900 for p in pieces)
    assert sum(p.text.count("| M-") for p in pieces) == 40
    assert all(p.kind == "table" and p.page == 3 for p in pieces)


def test_a_question_answered_from_the_table_cites_table_on_page_n_in_json_and_export(empty_library, datasheet, generator):
    list(empty_library.import_paths([datasheet]))
    searched = ask(empty_library, QUESTION, generate_answer=False)
    position = next(i for i, s in enumerate(searched.context, 1) if s.passage.kind == "table")
    generator.enqueue(f"Model HX-B reaches a maximum pressure of 11 bar [{position}].")
    chat = empty_library.store.create_chat("pumps")
    done = [e for e in empty_library.ask_in_chat(chat, QUESTION, "rag") if isinstance(e, AnswerDone)]
    [citation] = done[0].result.citations
    assert citation.kind == "table" and citation.page == 1 and "| HX-B | 11 bar |" in citation.text
    as_json = result_to_json(done[0].result)
    assert as_json["citations"][0]["kind"] == "table"
    assert {f["kind"] for f in as_json["fused"]} == {"text", "table"}
    markdown = empty_library.export_chat(chat)
    assert f"[{position}] hx.pdf, table on page 1" in markdown
    assert "> | HX-B | 11 bar | 35 l/min | 150 W |\n" in markdown  # quoted row by row: a Markdown table
    # The model saw the table with one row per line, marked as a table.
    prompt = generator.prompts[-1][-1]["content"]
    assert f"From hx.pdf:\n\n[{position}] (a table)\n| Model | Maximum pressure |" in prompt and "| HX-B | 11 bar | 35 l/min | 150 W |\n" in prompt


def test_refusal_names_the_table_as_a_closest_place(empty_library, datasheet, generator):
    list(empty_library.import_paths([datasheet]))
    generator.enqueue("NOT FOUND")
    result = ask(empty_library, "What colour is the HX-C motor power cable?")
    assert not result.found
    assert "hx.pdf table on page 1" in result.answer


def test_the_page_view_highlights_the_whole_table_area(datasheet):
    plain = render_page(datasheet, 1)
    rendered = render_page(datasheet, 1, 0, 5, bbox=(72, 180, 492, 268))
    assert rendered.highlighted == 1 and plain.highlighted == 0
    assert rendered.highlight_top == pytest.approx(180 / 842, abs=0.01)


def test_a_library_from_before_tables_keeps_its_chunks_as_text(tmp_path):
    path = tmp_path / "library.sqlite"
    conn = sqlite3.connect(path, isolation_level=None)
    for number, (_, sql) in enumerate(MIGRATIONS[:-1], start=1):
        conn.executescript(f"{sql}\nPRAGMA user_version = {number};")
    conn.execute("INSERT INTO documents(path, title, content_hash, pages, chunks, status) VALUES ('/d.pdf', 'd', 'h', 1, 1, 'ready')")
    conn.execute("INSERT INTO pages(document_id, number, text) VALUES (1, 1, 'The pump runs at 24 V.')")
    conn.execute('INSERT INTO chunks(document_id, page, start, "end", text) VALUES (1, 1, 0, 22, \'The pump runs at 24 V.\')')
    conn.close()
    store = Store(path)
    [passage] = store.passages(store.chunk_ids()).values()
    assert passage.kind == "text" and passage.bbox is None and passage.text == "The pump runs at 24 V."
    assert [h.chunk_id for h in store.keyword_search("pump voltage", 5)] == [passage.chunk_id]
    store.close()


def test_wrong_markers_after_the_full_stop_are_pointed_at_the_table_that_says_it():
    from desktop_app.core.answers.review import review_answer
    from desktop_app.core.types import Passage, Source

    texts = [EXPECTED_MARKDOWN, "The HX series of booster pumps serves washing lines.", "Controlling the pump from a script."]
    context = [Source(n, Passage(n, 1, "/hx.pdf", "hx", 1, 0, 1, t, kind="table" if n == 1 else "text"), 0.1, {}, 0.5) for n, t in enumerate(texts, 1)]
    reviewed = review_answer("The maximum pressure of model HX-B is 11 bar. [2][3]", True, "What pressure does the HX-B take?", context, context)
    assert reviewed.answer == "The maximum pressure of model HX-B is 11 bar [1]."
    assert [c.n for c in reviewed.citations] == [1] and any("[2], [3]" in n and "now points at [1]" in n for n in reviewed.notices)
