"""Filters written in the question: read by the grammar, applied exactly to both searches, said when they match nothing.

The documents are real PDFs and Markdown files written here (made-up "Tarnwick" pumps), imported through the
real importer into SQLite and hnswlib; only the models are fakes.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pymupdf as fitz
import pytest

from desktop_app.core.codec import result_from_json, result_to_json
from desktop_app.core.events import AnswerDone, FiltersRead, SourcesRanked
from desktop_app.core.library import Library
from desktop_app.core.retrieval.question_filters import read_filters
from desktop_app.core.types import ADDED, FILE, FORMAT, PAGES, DocumentName
from tests.fakes import HashingEmbedder, ScriptedGenerator, is_question_check

PAGE_TEXT = "The Tarnwick pump {model} runs at a pressure of {bar} bar. It needs a new seal every {months} months."
# Each page says something of its own besides (a page of repeated lines would be read as running heads).
ASIDES = ("Mount it on a level floor", "Keep the inlet clear of leaves", "Drain it before the first frost", "Store the spare seals in a dry box")
NOW = datetime(2026, 11, 26, 12, 0, tzinfo=timezone(timedelta(hours=1)))  # a Thursday
LIBRARY = [
    DocumentName(1, "/d/R-data.pdf", "R Data Import/Export", "2026-11-20 10:00:00"),
    DocumentName(2, "/d/report.docx", "report", "2026-11-25 10:00:00"),
    DocumentName(3, "/d/Annual Report 2025.pdf", "Annual Report 2025.pdf", "2026-10-01 10:00:00"),
]


def write_pdf(path, pages: list[str]):
    document = fitz.open()
    for number, text in enumerate(pages):
        page = document.new_page()
        for i, sentence in enumerate([f"Chapter {number + 1}: {ASIDES[number % len(ASIDES)]}.", *text.split(". ")]):
            page.insert_text((50, 300 + 16 * i), sentence, fontsize=11)
    document.save(path)
    document.close()
    return path


@pytest.mark.parametrize(
    "question, searched, kinds, label",
    [
        ("How do I read a spreadsheet in R-data.pdf?", "How do I read a spreadsheet?", [FILE], "R-data.pdf"),
        ("What is on pages 10-20 of R-data.pdf?", "What is?", [PAGES, FILE], "pages 10-20"),
        ("What do the Word files say about budgets?", "What do say about budgets?", [FORMAT], "Word files"),
        ("Summarise my PDFs", "Summarise", [FORMAT], "PDF files"),
        ("Which documents added this week mention pricing?", "Which documents mention pricing?", [ADDED], "added this week"),
        ("What changed since 2026-11-01?", "What changed?", [ADDED], "added since 2026-11-01"),
        ("Was steht auf Seite 3 bis 7 in den PDF-Dateien?", "Was steht?", [PAGES, FORMAT], "pages 3-7"),
        ("Welche diese Woche hinzugefügten Dokumente nennen Preise?", "Welche Dokumente nennen Preise?", [ADDED], "added this week"),
        ("What is in the report?", "What is?", [FILE], "report.docx"),
        ("Tell me about pages ٣-٥ please", "Tell me about please", [PAGES], "pages 3-5"),  # Arabic-Indic digits
        ("Summarise pages 3-4 of R-data", "Summarise", [PAGES, FILE], "pages 3-4"),
        ("What does plan.docx say?", "What does say?", [FILE], "plan.docx"),
        # French, Spanish and Russian (seen in the window: "¿Qué dice la página 2 de X.pdf?" searched all of X.pdf).
        ("Que dit la page 3 du fichier R-data.pdf ?", "Que dit?", [PAGES, FILE], "page 3"),
        ("Résume les pages 2 à 4 de R-data.pdf", "Résume", [PAGES, FILE], "pages 2-4"),
        ("Quels fichiers PDF parlent du budget ?", "Quels parlent du budget?", [FORMAT], "PDF files"),
        ("Quels documents ajoutés cette semaine parlent de prix ?", "Quels documents parlent de prix?", [ADDED], "added this week"),
        ("¿Qué dice la página 2 de R-data.pdf?", "¿Qué dice?", [PAGES, FILE], "page 2"),
        ("¿Qué dicen mis archivos Word sobre el presupuesto?", "¿Qué dicen sobre el presupuesto?", [FORMAT], "Word files"),
        ("¿Qué documentos importados en los últimos 7 días hablan de precios?", "¿Qué documentos hablan de precios?", [ADDED], "added in the last 7 days"),
        ("Что написано на странице 2 в файле R-data.pdf?", "Что написано?", [PAGES, FILE], "page 2"),
        ("Что говорят мои PDF-файлы о бюджете?", "Что говорят о бюджете?", [FORMAT], "PDF files"),
        ("Какие документы добавлены на этой неделе?", "Какие документы?", [ADDED], "added this week"),
        # Chinese and Japanese write no spaces and put a page around its number; Korean glues its particles on.
        ("在R-data.pdf中如何导入CSV文件？", "如何导入CSV文件？", [FILE], "R-data.pdf"),
        ("请问R-data.pdf里如何导入？", "请问如何导入？", [FILE], "R-data.pdf"),
        ("第3页上讲了什么？", "讲了什么？", [PAGES], "page 3"),
        ("R-data.pdf的第3至5页讲了什么？", "讲了什么？", [FILE, PAGES], "R-data.pdf"),
        ("在第2到第4页中价格是多少？", "价格是多少？", [PAGES], "pages 2-4"),
        ("我的PDF文件里有什么？", "有什么？", [FORMAT], "PDF files"),
        ("R-data.pdfの3ページには何が書いてありますか？", "何が書いてありますか？", [FILE, PAGES], "R-data.pdf"),
        ("3から5ページを要約してください", "を要約してください", [PAGES], "pages 3-5"),
        ("R-data.pdf에서 3~5페이지의 내용은?", "내용은?", [FILE, PAGES], "R-data.pdf"),
        ("PDF 파일에서 가격은?", "가격은?", [FORMAT], "PDF files"),
        ("本周添加的文档里提到价格吗？", "文档里提到价格吗？", [ADDED], "added this week"),
        ("過去7日間に追加したファイル", "ファイル", [ADDED], "added in the last 7 days"),
        ("이번 주에 추가된 문서에서 가격은?", "문서에서 가격은?", [ADDED], "added this week"),
        # Brackets holding nothing but the filters go with them (a follow-up's kept filters are written so).
        ("How do I import a CSV file? (in R-data.pdf; pages 3-4)", "How do I import a CSV file?", [FILE, PAGES], "R-data.pdf"),
        ("如何导入CSV文件？（R-data.pdf）", "如何导入CSV文件？", [FILE], "R-data.pdf"),
    ],
)
def test_the_grammar_reads_files_pages_types_and_dates_and_leaves_them_out_of_the_searched_text(question, searched, kinds, label):
    filters = read_filters(question, LIBRARY, now=NOW)
    assert filters.searched == searched
    assert [p.kind for p in filters.parts] == kinds
    assert filters.parts[0].label == label


@pytest.mark.parametrize("question", [
    "What is the price of paper in R?", "How many pages does a report need?", "Name a word for joy.", "Which step comes after 2026?",
    # A file the question is about, not the library's files: searched as words.
    "How do I save a data frame to a text file?", "Can I export an HTML file from it?", "Wie speichere ich die Tabelle in einer Textdatei?",
    "Puis-je ajouter du texte à un fichier PDF ?", "¿Cómo guardo la tabla en un archivo de texto?", "Как сохранить таблицу в файл PDF?",
    "Combien de pages a le manuel ?", "¿Qué páginas web recomienda el manual?", "Вода кипит с 2 до 5 минут?", "Сколько стоит доставка до 5 кг?",
    # A count of pages, a chapter, a file to save to: no filter in Chinese, Japanese or Korean either.
    "这本书有几页？", "打印3页需要多少钱？", "第3章讲了什么？", "如何把表格保存到一个PDF文件？", "このマニュアルは3ページあります", "이 책은 300페이지입니다",
    "昨天的天气怎么样？", "今日は何曜日ですか",
])
def test_ordinary_words_are_no_filters(question):
    assert read_filters(question, LIBRARY, now=NOW).parts == ()


def test_the_filters_choose_documents_by_name_type_and_date():
    week = read_filters("documents added this week", LIBRARY, now=NOW)
    assert week.documents(LIBRARY, None) == [2]  # Monday 2026-11-23 onwards, local time
    assert read_filters("in my PDFs", LIBRARY, now=NOW).documents(LIBRARY, None) == [1, 3]
    assert read_filters("in my PDFs", LIBRARY, now=NOW).documents(LIBRARY, [3, 2]) == [3]  # within the ticked files
    assert read_filters("in plan.docx", LIBRARY, now=NOW).unknown_files == ("plan.docx",)
    assert read_filters("on page 4", LIBRARY, now=NOW).documents(LIBRARY, None) is None  # pages limit chunks, not documents


def test_a_removed_chip_is_searched_as_words_again():
    filters = read_filters("What is on pages 10-20 of R-data.pdf?", LIBRARY, ignored=["of R-data.pdf"], now=NOW)
    assert [p.kind for p in filters.parts] == [PAGES]
    assert filters.searched == "What is of R-data.pdf?"


@pytest.fixture
def pump_library(data_home, tmp_path):
    """Two PDFs about the same pumps (the words of every question match both), one Markdown file."""
    docs = tmp_path / "docs"
    docs.mkdir()
    alpha = write_pdf(docs / "alpha-manual.pdf", [PAGE_TEXT.format(model=f"A{n}", bar=n, months=n + 1) for n in range(1, 5)])
    beta = write_pdf(docs / "beta-manual.pdf", [PAGE_TEXT.format(model=f"B{n}", bar=n + 10, months=n + 11) for n in range(1, 5)])
    (docs / "notes.md").write_text("# Notes\n\n" + PAGE_TEXT.format(model="M1", bar=7, months=8) + "\n")
    library = Library(data_home, embedder=HashingEmbedder(), generator=ScriptedGenerator())
    for _ in library.import_paths([alpha, beta, docs / "notes.md"]):
        pass
    yield library
    library.close()


def searched(library: Library, question: str, **kwargs):
    events = list(library.ask(question, mode="rag", generate_answer=False, **kwargs))
    ranked = next(e for e in events if isinstance(e, SourcesRanked))
    return events, ranked, next(e for e in events if isinstance(e, AnswerDone)).result


def test_a_question_naming_a_file_searches_only_that_file(pump_library):
    events, ranked, result = searched(pump_library, "What pressure does the Tarnwick pump run at in beta-manual.pdf?")
    assert ranked.sources and all(s.passage.file.endswith("beta-manual.pdf") for s in ranked.sources)
    assert any(isinstance(e, FiltersRead) for e in events)
    assert result.filters is not None and result.filters.parts[0].label == "beta-manual.pdf"
    assert "beta-manual" not in result.lists[0].query  # the file's name is not searched as words
    assert result.standalone_question == "What pressure does the Tarnwick pump run at?"  # shown as searched, beside the chip
    unfiltered = searched(pump_library, "What pressure does the Tarnwick pump run at in beta-manual.pdf?", ignored_filters=["in beta-manual.pdf"])[1]
    # Both manuals are found (their identical pages are one row naming both files).
    found = {place.file.rsplit("/", 1)[1] for s in unfiltered.sources for place in (s.passage, *s.also)}
    assert found >= {"alpha-manual.pdf", "beta-manual.pdf"}


def test_a_page_range_limits_both_searches_to_those_pages(pump_library):
    pump_library.settings = pump_library.settings.replace(keyword_weight=0.5)
    events = list(pump_library.ask("How often is the seal changed on pages 2-3 of alpha-manual.pdf?", mode="fusion", generate_answer=False, queries=["seal months"]))
    ranked = next(e for e in events if isinstance(e, SourcesRanked))
    assert {lst.kind for lst in ranked.lists} == {"vector", "keyword"}
    assert ranked.sources and {(s.passage.file.rsplit("/", 1)[1], s.passage.page) for s in ranked.sources} == {("alpha-manual.pdf", 2), ("alpha-manual.pdf", 3)}


def test_a_file_and_page_named_in_chinese_or_japanese_without_spaces_limit_the_search(pump_library):
    # Before, "在beta-manual.pdf中" and "第2页" touched their neighbours, were no words to the grammar, and every page of
    # both manuals was searched.
    for question in ("在beta-manual.pdf中，第2页上泵的压力是多少？", "beta-manual.pdfの2ページにはポンプの圧力が書いてありますか？"):
        events, ranked, result = searched(pump_library, question)
        assert ranked.sources and {(s.passage.file.rsplit("/", 1)[1], s.passage.page) for s in ranked.sources} == {("beta-manual.pdf", 2)}
        assert [p.label for p in result.filters.parts] == ["beta-manual.pdf", "page 2"]  # the chips


def test_a_file_type_limits_the_search_to_those_files(pump_library):
    ranked = searched(pump_library, "What pressure does the Tarnwick pump run at, in the Markdown files?")[1]
    assert ranked.sources and all(s.passage.file.endswith("notes.md") for s in ranked.sources)


def test_a_file_the_library_does_not_have_is_said_never_searched_instead(pump_library):
    events = list(pump_library.ask("What pressure is given in gamma-manual.pdf?", mode="fusion"))
    result = next(e for e in events if isinstance(e, AnswerDone)).result
    assert result.answer.startswith("No document named gamma-manual.pdf in your library.")
    assert "alpha-manual.pdf" in result.answer or "beta-manual.pdf" in result.answer  # the closest names
    assert not result.found and not result.sources
    assert pump_library.generator().prompts == []  # nothing was asked of the model
    assert not any(isinstance(e, SourcesRanked) for e in events)


def test_pages_no_document_has_are_said(pump_library):
    result = list(pump_library.ask("What is on pages 40-50 of alpha-manual.pdf?", mode="rag"))[-1].result
    assert result.answer == "No passage in your library matches the question's filters (pages 40-50, alpha-manual.pdf)."
    assert result.filters is not None and not result.found


def test_the_filters_survive_the_json_of_a_saved_answer(pump_library):
    result = searched(pump_library, "How often is the seal changed on page 2 of alpha-manual.pdf?")[2]
    again = result_from_json(result_to_json(result))
    assert again.filters == result.filters
    assert [p.pages for p in again.filters.parts if p.kind == PAGES] == [(2, 2)]


R_MANUALS = Path("/usr/share/R/doc/manual")


@pytest.mark.skipif(not (R_MANUALS / "R-data.pdf").exists(), reason="the R manuals are not installed (apt-get install r-doc-pdf)")
def test_the_r_manuals_a_file_and_pages_named_in_the_question(data_home):
    library = Library(data_home, embedder=HashingEmbedder(), generator=ScriptedGenerator())
    try:
        list(library.store_paths([R_MANUALS / "R-data.pdf", R_MANUALS / "R-intro.pdf"]))  # their text: searched by keyword
        ranked = searched(library, "How do I read a spreadsheet in R-data.pdf?")[1]
        assert ranked.sources and {Path(s.passage.file).name for s in ranked.sources} == {"R-data.pdf"}
        ranked = searched(library, "How do I get help on a command, on pages 10-12 of R-intro?")[1]
        assert ranked.sources and {(Path(s.passage.file).name, s.passage.page in range(10, 13)) for s in ranked.sources} == {("R-intro.pdf", True)}
    finally:
        library.close()


def test_a_documents_title_written_as_its_subject_is_no_filter():
    # A library of articles whose titles are their subjects: a question about one of them, or about something in
    # it, searches everything. The file's own name still limits the search.
    articles = [DocumentName(1, "/lib/a0117.txt", "Quillmoor harbour", "2026-11-20 10:00:00"), DocumentName(2, "/lib/a0118.txt", "Vellan coast", "2026-11-20 10:00:00")]
    assert read_filters("Which boats moor in Quillmoor harbour?", articles, now=NOW).parts == ()
    assert read_filters("What are the five largest towns in the Vellan coast region?", articles, now=NOW).parts == ()
    assert [p.label for p in read_filters("Which boats are named in a0117?", articles, now=NOW).parts] == ["a0117.txt"]


def test_the_model_reads_the_question_as_asked_not_with_the_files_name_cut_out(pump_library):
    # Searched without "on page 2 of beta-manual.pdf" (a file's name is no word of its pages); answered from the
    # question the person wrote, which says where: the cut text can be no question at all ("What does say about X?").
    generator = pump_library.generator()
    pump_library.settings = pump_library.settings.replace(min_similarity=0.0)  # the fake embedder's closeness means nothing
    generator.enqueue("seal", "Change the seal every 13 months [1].")
    result = list(pump_library.ask("How often is the seal changed on page 2 of beta-manual.pdf?", mode="fusion"))[-1].result
    answer_prompt = next(p[-1]["content"] for p in generator.prompts if p[-1]["content"].startswith("Passages:"))
    assert "Question: How often is the seal changed on page 2 of beta-manual.pdf?" in answer_prompt
    assert result.lists[0].query == result.standalone_question == "How often is the seal changed?"  # shown as what was searched


def test_the_pages_a_question_names_are_read_however_little_is_left_to_search_them_by(pump_library):
    # "What is on page 2 of beta-manual.pdf?" leaves "What is?" to search: no passage came close to it, and the
    # answer was "not found" before the model read page 2.
    # The page is read whole, so no queries are written for it: the model wrote chatter for "Что написано?" ("Sure, I
    # can help! What information do you need?"), shown as a search.
    generator = pump_library.generator()
    generator.enqueue("Page 2 says to keep the inlet clear of leaves [1].")
    result = list(pump_library.ask("What is on page 2 of beta-manual.pdf?", mode="fusion"))[-1].result
    assert result.queries == () and generator.prompts[0][-1]["content"].startswith("Passages:")
    answer_prompt = generator.prompts[0][-1]["content"]
    assert "Chapter 2: Keep the inlet clear of leaves." in answer_prompt
    assert "From beta-manual.pdf, page 2:" in answer_prompt  # the model sees that what it reads is the page asked
    assert result.found and result.answer.startswith("Page 2 says")
    assert {(s.passage.file.rsplit("/", 1)[-1], s.passage.page) for s in result.sources} == {("beta-manual.pdf", 2)}


@pytest.mark.parametrize("question", ["What is page 2 of beta-manual.pdf about?", "beta-manual.pdf的第2页讲了什么？"])
def test_a_question_about_what_a_named_page_says_is_answered_from_that_page_not_the_whole_document(pump_library, question):
    # "What is X about?" asks for a summary of X; naming pages, a summary of those pages. It was answered from the whole
    # document's outline, every page of it; it is answered from the page's own sentences, as a chapter is from its own.
    generator = pump_library.generator()
    generator.enqueue("Page 2 says to keep the inlet clear of leaves [1].")
    result = list(pump_library.ask(question, mode="fusion"))[-1].result
    assert {(s.passage.file.rsplit("/", 1)[-1], s.passage.page) for s in result.sources} == {("beta-manual.pdf", 2)}
    assert result.found and result.answered_from == "Answered from the key sentences of beta-manual.pdf, page 2"
    prompt = generator.prompts[0][-1]["content"]
    assert ASIDES[1] in prompt and not any(other in prompt for other in ASIDES[:1] + ASIDES[2:])  # page 2's, no other page's
    # No queries are written for it, in any language (the Chinese question's "讲了什么" got the queries "讲了 了什 什么"
    # and a notice that the model wrote none usable).
    assert result.queries == ()


def orvel_library(data_home, tmp_path) -> Library:
    """A library of one three-page PDF, a sentence a page."""
    path = tmp_path / "orvel.pdf"
    document = fitz.open()
    for text in ("The Orvel pump lifts water from deep wells.", "Drain the casing before the first frost.", "Keep a spare seal with the pump."):
        document.new_page().insert_text((72, 100), text, fontsize=11)
    document.save(path)
    library = Library(data_home, embedder=HashingEmbedder(), generator=ScriptedGenerator())
    list(library.import_paths([path]))
    return library


def test_an_answer_restating_the_page_and_file_asked_is_not_refused_for_a_number_its_page_does_not_print(data_home, tmp_path):
    # "La page 2 de X.pdf décrit ..." was refused as made up: page 2's text does not print its own number. Where the
    # passage is, the search applied; the claim is checked without the question's filters where it restates them.
    library = orvel_library(data_home, tmp_path)
    try:
        library.generator().enqueue("Page 2 of orvel.pdf says to drain the casing before the first frost [1].")
        result = list(library.ask("What is on page 2 of orvel.pdf?", mode="fusion"))[-1].result
        assert result.found and result.answer.startswith("Page 2 of orvel.pdf says") and result.citations[0].page == 2
        # Nothing is left to ask of the page ("What is?", "Was steht?"): the question check, which any sentence of the
        # page answers, is not asked.
        generator = library.generator()
        asked = [q for q in generator.checks if is_question_check(q)]
        generator.enqueue("Drain the casing before the first frost [1].")
        list(library.ask("Was steht auf Seite 2 von orvel.pdf?", mode="fusion"))
        assert not asked and not [q for q in generator.checks if is_question_check(q)]
    finally:
        library.close()


def test_an_answer_to_a_question_naming_its_page_is_recorded_for_the_benchmark_and_judged_again_the_same(data_home, tmp_path):
    # bench.answer_trust could no longer record an answer: the review was passed the library's embedder (an ONNX
    # session, which cannot be stored) as a positional argument, where the recorder leaves out only named models.
    from bench.answer_cache import AnswerCache, ask_recorded, rejudge

    library = orvel_library(data_home, tmp_path)
    try:
        library.generator().enqueue("Page 2 of orvel.pdf says to drain the casing before the first frost [1].")
        recorded = ask_recorded(library.pipeline(), "What is on page 2 of orvel.pdf?", "fusion")
        assert not any(arg is library.embedder for arg in (*recorded.review_args, *recorded.review_kwargs.values()))
        cache = AnswerCache(tmp_path / "answers")
        stored = cache.path("near-hit", "fusion", "f", "q1", recorded.question)
        cache.store(stored, recorded)
        judged = rejudge(cache.load(stored), embedder=library.embedder)
        assert judged.found and judged.answer.startswith("Page 2 of orvel.pdf says") and all(c.supported for c in judged.citations)
    finally:
        library.close()
