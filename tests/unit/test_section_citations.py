"""A passage of a Word or HTML file is cited by its section everywhere a citation is shown, and its text
around it can be shown with the passage highlighted; libraries made before sections open unchanged."""

from __future__ import annotations

import json
import sqlite3

from desktop_app.core.codec import result_from_json, result_to_json
from desktop_app.core.events import AnswerDone
from desktop_app.core.places import citation_label, place_label, short_place
from desktop_app.core.storage.migrations import MIGRATIONS
from desktop_app.core.storage.store import Store
from desktop_app.core.types import Citation
from desktop_app.ui.chat_view import source_link
from tests.document_files import DESCALING, WARRANTY, write_docx, write_epub
from tests.unit.test_migrations import old_library

QUESTION = "How long is the warranty of the Orbit kettle?"


def answered(library, generator, question: str, files) -> object:
    list(library.import_paths(files))
    searched = next(e for e in library.ask(question, "rag", generate_answer=False) if isinstance(e, AnswerDone)).result
    n = next(i for i, s in enumerate(searched.context, 1) if WARRANTY in s.passage.text and s.passage.kind == "text")
    generator.enqueue(f"The warranty lasts 27 months [{n}].")
    return next(e for e in library.ask(question, "rag") if isinstance(e, AnswerDone)).result


def test_labels_for_pages_sections_and_their_tables():
    assert place_label(3) == "page 3" and place_label(3, "table") == "table on page 3"
    assert place_label(5, section="3.2 Warranty") == "section 3.2 Warranty"
    assert place_label(5, "table", "3.2 Warranty") == "table in section 3.2 Warranty"
    assert place_label(1, section="") == "start of the document"
    cited = Citation(1, "/x/report.docx", 5, "text", chunk_id=1, start=0, end=4, section="3.2 Warranty")
    assert citation_label(cited) == "report.docx, section 3.2 Warranty" and short_place(cited) == "§ 3.2 Warranty"
    assert "report.docx, section&nbsp;3.2&nbsp;Warranty" in source_link(0, cited)


def test_a_word_citation_names_its_section_in_the_answer_json_and_the_markdown_export(empty_library, generator, tmp_path):
    result = answered(empty_library, generator, QUESTION, [write_docx(tmp_path / "docs" / "report.docx")])
    [citation] = result.citations
    assert citation_label(citation) == "report.docx, section 3.2 Warranty"
    data = json.loads(json.dumps(result_to_json(result)))
    assert data["citations"][0]["section"] == "3.2 Warranty" and data["citations"][0]["place"] == "section 3.2 Warranty"
    fused = next(f for f in data["fused"] if f["chunk_id"] == citation.chunk_id)
    assert fused["place"] == "section 3.2 Warranty"
    assert result_from_json(data).citations[0].section == "3.2 Warranty"  # a saved chat reopens with it

    chat = empty_library.create_chat("Kettle")
    empty_library.add_chat_turn(chat, QUESTION, result.answer, result)
    assert f"[{citation.n}] report.docx, section 3.2 Warranty" in empty_library.export_chat(chat)


def test_the_cited_passage_is_highlighted_in_its_section_with_the_text_around_it(empty_library, generator, tmp_path):
    result = answered(empty_library, generator, QUESTION, [write_docx(tmp_path / "docs" / "report.docx")])
    excerpt = empty_library.passage_excerpt(result.citations[0])
    assert excerpt.highlighted == result.citations[0].text and WARRANTY in excerpt.highlighted
    assert excerpt.place == "section 3.2 Warranty" and not excerpt.notice
    # The sections before and after are there too, in document order.
    assert excerpt.text.index("3.1 Returns") < excerpt.start < excerpt.text.index("4 Safety")


def test_an_epub_passage_is_shown_in_its_page_text(empty_library, tmp_path):
    list(empty_library.import_paths([write_epub(tmp_path / "book.epub")]))
    hit = empty_library.store.keyword_search("descale citric", 1)[0]
    passage = empty_library.passage(hit.chunk_id)
    excerpt = empty_library.passage_excerpt(passage)
    assert excerpt.highlighted == passage.text and DESCALING.split()[0] in excerpt.highlighted
    assert excerpt.place == f"page {passage.page}" and f"— page {passage.page} —" in excerpt.text


def test_an_epub_quote_across_a_line_break_is_shown_highlighted_after_a_relaunch(data_home, tmp_path):
    """pymupdf lays an EPUB out in lines, so a sentence can break across one; its quote is the sentence with single
    spaces. The book was not touched: the quote is found and highlighted, now and after the app starts again."""
    from desktop_app.core.library import Library
    from tests.fakes import HashingEmbedder, ScriptedGenerator

    library = Library(data_home, embedder=HashingEmbedder(), generator=ScriptedGenerator(["Orbit kettle warranty", "It lasts 27 months [1]."]))
    list(library.import_paths([write_epub(tmp_path / "book.epub")]))
    chat = library.create_chat("Warranty")
    result = next(e for e in list(library.ask_in_chat(chat, QUESTION, mode="fusion")) if isinstance(e, AnswerDone)).result
    quote = next(q.citation for q in result.quotes if "warranty" in q.citation.text)
    stored = library.store.pages_between(library.documents()[0].id, quote.page, quote.page)[0].text
    assert quote.text not in stored  # the page breaks the sentence's line: the test needs such a quote
    library.close()
    relaunched = Library(data_home, embedder=HashingEmbedder(), generator=ScriptedGenerator())
    saved = result_from_json(json.loads(relaunched.store.messages(chat)[-1][3]))
    for cited in (quote, *(q.citation for q in saved.quotes), *saved.citations):
        excerpt = relaunched.passage_excerpt(cited)
        assert excerpt.notice == "" and excerpt.highlighted.split() == cited.text.split(), cited.text
    relaunched.close()


def test_a_citation_of_a_removed_document_still_shows_its_quoted_text(empty_library, generator, tmp_path):
    result = answered(empty_library, generator, QUESTION, [write_docx(tmp_path / "docs" / "report.docx")])
    empty_library.remove_document(empty_library.documents()[0].id)
    excerpt = empty_library.passage_excerpt(result.citations[0])
    assert excerpt.highlighted == result.citations[0].text and "no longer in the library" in excerpt.notice


def test_a_library_from_before_sections_opens_and_its_pages_stay_pages(tmp_path):
    path = tmp_path / "library.sqlite"
    before_sections = [name for name, _ in MIGRATIONS].index("0008_page_sections")  # the versions before it
    old_library(path, version=before_sections)
    assert "section" not in [r[1] for r in sqlite3.connect(path).execute("PRAGMA table_info(pages)")]
    store = Store(path)
    assert "section" in [r[1] for r in store.conn.execute("PRAGMA table_info(pages)")]
    passages = store.passages(store.chunk_ids())
    assert {p.section for p in passages.values()} == {None}
    assert {citation_label(p) for p in passages.values()} == {"pump.pdf, page 1"}
    store.close()
