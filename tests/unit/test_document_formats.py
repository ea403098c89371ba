"""Word, HTML and EPUB files, written by the real libraries, imported into a real library: their text, their
sections or pages, their tables, and the files that cannot be read."""

from __future__ import annotations

import pytest

from desktop_app.core import formats
from desktop_app.core.errors import NotADocument, UnsupportedFormat
from desktop_app.core.ingest.extraction import extract, is_supported
from desktop_app.core.ingest.importer import collect_files
from desktop_app.core.ingest.table_files import is_table_file
from desktop_app.ui.controllers.importing import FILE_TYPES
from tests.document_files import DESCALING, SAFETY, WARRANTY, write_damaged_docx, write_docx, write_epub, write_html


def test_a_word_file_is_cut_into_sections_named_by_their_headings(tmp_path):
    document = extract(write_docx(tmp_path / "report.docx"))
    assert document.title == "Orbit kettle service report" and document.unit == "section"
    labels = [p.section for p in document.pages]
    # "2 Care" has nothing under it but its subheading: it opens no section of its own, its line starts 2.1's.
    assert labels == ["", "1 Introduction", "2.1 Descaling", "3.1 Returns", "3.2 Warranty", "4 Safety"]
    warranty = document.pages[4]
    assert warranty.text.startswith("3.2 Warranty\n\n") and WARRANTY in warranty.text
    assert document.pages[2].text.startswith("2 Care\n\n2.1 Descaling")
    [table] = document.tables
    assert table.kind == "table" and table.page == 5
    assert table.text.splitlines()[0] == "| Model | Capacity | Power |" and "| Orbit L | 1.7 l | 2400 W |" in table.text
    # The table's span is its Markdown in the section's text: that is what the text view highlights.
    assert warranty.text[table.start : table.end] == table.text


def test_an_html_page_keeps_its_article_and_drops_navigation_scripts_and_footer(tmp_path):
    document = extract(write_html(tmp_path / "care.html"))
    text = "\n".join(p.text for p in document.pages) + "\n".join(t.text for t in document.tables)
    assert document.title == "Orbit kettle care guide"
    assert DESCALING in text and SAFETY in text and "- Boil, then leave for an hour." in text
    for boilerplate in ("Shop kettles", "Sign in", "analytics-beacon", "menuScriptCode", "injectedByScript", "font-family", "Copyright", "Free shipping", "Orbit toaster"):
        assert boilerplate not in text, boilerplate
    assert [p.section for p in document.pages] == ["Caring for your Orbit kettle", "Descaling", "Safety"]
    [table] = document.tables
    assert table.text.splitlines()[0] == "| Model | Capacity |" and table.page == 3


def test_an_html_page_in_another_encoding_reads_right(tmp_path):
    page = tmp_path / "old.htm"
    page.write_bytes('<html><head><meta charset="windows-1252"><title>Café</title></head><body><p>Crème brûlée recipe.</p></body></html>'.encode("cp1252"))
    document = extract(page)
    assert document.title == "Café" and "Crème brûlée recipe." in document.pages[0].text


def test_a_headings_permalink_and_a_footnotes_back_link_are_no_text(tmp_path):
    # Generated manuals (Sphinx, MkDocs) end each heading with a link to itself, "¶": it stood in every section's name,
    # passage and quote ("Interpreter directive ¶ Executables ..."). A link within the page naming a word stays.
    page = tmp_path / "guide.html"
    page.write_text(
        '<html><head><title>Kettle guide</title></head><body>'
        '<h1>Descaling<a class="headerlink" href="#descaling" title="Permalink">\u00b6</a></h1>'
        '<p>Descale the kettle every month.<a href="#fn1"><sup>1</sup></a> See <a href="#safety">Safety</a> first.</p>'
        '<h2 id="safety">Safety<a href="#safety">#</a></h2><p>Unplug it before cleaning.<a href="#ref1">\u21a9</a></p>'
        '</body></html>', encoding="utf-8")
    document = extract(page)
    text = "\n".join(p.text for p in document.pages)
    assert [p.section for p in document.pages] == ["Descaling", "Safety"]
    assert "\u00b6" not in text and "\u21a9" not in text and "Safety#" not in text
    assert "See Safety first." in text and "month.1" in text


def test_a_definition_lists_term_is_read_with_its_definition(tmp_path):
    # A manual's options list (DocBook, Texinfo, Sphinx write <dl>): "-k --keep" was a line of its own, too short to be
    # read as evidence, and "Keep (don't delete) input files ..." never said which option it was about.
    page = tmp_path / "grindit.html"
    page.write_text(
        '<html><head><title>grindit</title></head><body><h1>Options</h1><dl>'
        '<dt><code>-k --keep</code></dt><dd><p>Keep (do not delete) input files.</p><p>Works when unpacking too.</p></dd>'
        '<dt>-q</dt><dd>Print no warnings.</dd><dt>Note:</dt><dd><p>Options may be combined.</p></dd>'
        '<dt>-x</dt><dt>--extract</dt><dd>Unpack the files.</dd></dl></body></html>', encoding="utf-8")
    text = extract(page).pages[0].text
    assert "-k --keep: Keep (do not delete) input files.\n\nWorks when unpacking too." in text
    assert "-q: Print no warnings." in text and "Note: Options may be combined." in text
    assert "-x\n\n--extract: Unpack the files." in text  # two terms, one definition: the nearest is its label


def test_an_epub_is_read_page_by_page_through_pymupdf(tmp_path):
    document = extract(write_epub(tmp_path / "book.epub"))
    assert document.title == "The Orbit kettle book" and document.unit == "page"
    assert document.page_count >= 2 and all(p.section is None for p in document.pages)
    text = " ".join(" ".join(p.text.split()) for p in document.pages)
    assert WARRANTY in text and DESCALING in text
    assert not document.notices  # no "scanned" or OCR notes for a book


def test_a_damaged_word_file_says_so_and_what_to_do(tmp_path):
    with pytest.raises(NotADocument) as caught:
        extract(write_damaged_docx(tmp_path / "cut.docx"))
    assert "cut.docx is damaged" in caught.value.user_message() and "save it again" in caught.value.user_message()


def test_an_unsupported_file_is_told_every_supported_format(tmp_path):
    odd = tmp_path / "slides.key"
    odd.write_bytes(b"not a document")
    with pytest.raises(UnsupportedFormat) as caught:
        extract(odd)
    message = caught.value.user_message()
    for fmt in formats.FORMATS:
        assert fmt.name in message and all(s in message for s in fmt.suffixes)
    assert "CSV (.csv, .tsv)" in message and "Excel (.xlsx, .xlsm)" in message


def test_an_old_word_file_gets_told_how_to_convert_it(empty_library, tmp_path):
    old = tmp_path / "letter.doc"
    old.write_bytes(b"\xd0\xcf\x11\xe0 an OLE file")
    [failed] = [e for e in empty_library.import_paths([old]) if e.stage == "failed"]
    assert "Word (.docx)" in failed.message and "Save it as .docx" in failed.message


def test_one_list_of_formats_is_what_the_importer_reads_the_folder_scan_finds_and_the_dialog_offers(tmp_path):
    folder = tmp_path / "library"
    for fmt in formats.FORMATS:
        for suffix in fmt.suffixes:
            assert is_supported(tmp_path / f"x{suffix}") or is_table_file(tmp_path / f"x{suffix}"), suffix
            assert f"*{suffix}" in FILE_TYPES
            (folder / "sub").mkdir(parents=True, exist_ok=True)
            (folder / "sub" / f"file{suffix}").write_bytes(b"x")
    (folder / "notes.key").write_bytes(b"x")
    (folder / ".hidden.docx").write_bytes(b"x")
    (folder / "~$report.docx").write_bytes(b"x")  # the owner file Word keeps beside an open document
    found = collect_files([folder])
    assert {p.suffix for p in found} == set(formats.suffixes())
    assert {p.name for p in found}.isdisjoint({"notes.key", ".hidden.docx", "~$report.docx"})


def test_word_html_and_epub_import_with_sections_or_pages_and_a_damaged_file_fails_alone(empty_library, tmp_path):
    docs = tmp_path / "docs"
    files = [write_damaged_docx(docs / "broken.docx"), write_docx(docs / "report.docx"), write_html(docs / "care.html"), write_epub(docs / "book.epub")]
    events = list(empty_library.import_paths(files))
    finished = {e.file.rsplit("/", 1)[-1]: e for e in events if e.stage in ("ready", "failed")}
    assert finished["broken.docx"].stage == "failed" and "damaged" in finished["broken.docx"].message
    assert (finished["report.docx"].stage, finished["report.docx"].total, finished["report.docx"].unit) == ("ready", 6, "sections")
    assert (finished["care.html"].stage, finished["care.html"].unit) == ("ready", "sections")
    assert (finished["book.epub"].stage, finished["book.epub"].unit) == ("ready", "pages")
    by_title = {d.title: d for d in empty_library.documents()}
    assert by_title["Orbit kettle service report"].unit == "section" and by_title["The Orbit kettle book"].unit == "page"
    hits = empty_library.store.keyword_search("warranty months purchase", 10)
    passages = empty_library.store.passages([h.chunk_id for h in hits])
    sections = {p.section for p in passages.values() if p.file.endswith("report.docx")}
    assert "3.2 Warranty" in sections
    # Each value of the Word table is in one chunk only: the table's, not also the section's text chunk.
    models = [p for p in empty_library.store.passages(empty_library.store.chunk_ids()).values() if "Orbit L" in p.text and p.file.endswith(".docx")]
    assert [p.kind for p in models] == ["table"] and models[0].section == "3.2 Warranty"
