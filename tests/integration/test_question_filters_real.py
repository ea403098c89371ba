"""Filters written in the question, end to end with the real default models, on PDFs written here.

Two manuals of a made-up "Velmar" pump state different warranties; a service guide states the filter interval
of two models on different pages. A question naming a file must be answered from that file only, and one
naming pages must cite those pages only, although the other file and pages answer the same words.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from desktop_app.core.events import AnswerDone
from desktop_app.core.library import Library

pytestmark = pytest.mark.integration


def write_pdf(path: Path, pages: list[str]) -> Path:
    document = pymupdf.open()
    for text in pages:
        page = document.new_page()
        page.insert_textbox(pymupdf.Rect(56, 56, page.rect.width - 56, page.rect.height - 56), text, fontsize=11, fontname="helv")
    document.save(path)
    document.close()
    return path


def manual(site: str, months: int) -> list[str]:
    return [
        f"Velmar pump manual, {site} edition. This manual covers installing and running the Velmar pump at the {site} works.",
        f"Installation at the {site} works: bolt the Velmar pump to a level concrete base and connect the inlet first.",
        f"Warranty: the Velmar pump sold for the {site} works is covered by a warranty of {months} months from delivery.",
        f"Spare parts for the {site} edition are ordered from the regional depot; keep the serial number at hand.",
    ]


GUIDE = [
    "Velmar service guide. Part one covers the V1 model, part two the V2 model.",
    "Velmar V1 maintenance: the intake filter of the V1 is replaced every 200 operating hours.",
    "Velmar V1 storage: drain the V1 before winter and keep it in a frost-free room.",
    "Part two. The V2 model is the larger pump for irrigation work.",
    "Velmar V2 maintenance: the intake filter of the V2 is replaced every 500 operating hours.",
    "Velmar V2 storage: the V2 may stay outdoors if its cover is closed.",
]


@pytest.fixture(scope="module")
def library(tmp_path_factory, real_embedder, real_generator):
    home = tmp_path_factory.mktemp("home")
    docs = tmp_path_factory.mktemp("docs")
    files = [
        write_pdf(docs / "north-pump.pdf", manual("Northgate", 18)),
        write_pdf(docs / "south-pump.pdf", manual("Southmere", 30)),
        write_pdf(docs / "service-guide.pdf", GUIDE),
    ]
    lib = Library(home, embedder=real_embedder, generator=real_generator)
    for _ in lib.import_paths(files):
        pass
    yield lib
    lib.close()


def answer(library: Library, question: str):
    return next(e for e in library.ask(question, mode="fusion") if isinstance(e, AnswerDone)).result


def test_a_question_naming_a_file_is_answered_only_from_that_file(library):
    result = answer(library, "How long is the warranty of the Velmar pump in south-pump.pdf?")
    assert result.found and "30" in result.answer and "18" not in result.answer, result.answer
    assert result.citations and {Path(c.file).name for c in result.citations} == {"south-pump.pdf"}
    assert {Path(s.passage.file).name for s in result.sources} == {"south-pump.pdf"}


def test_a_question_naming_pages_cites_only_those_pages(library):
    result = answer(library, "How often is the intake filter replaced, on pages 4-6 of service-guide.pdf?")
    assert result.found and "500" in result.answer, result.answer
    assert result.citations and {c.page for c in result.citations} <= {4, 5, 6}
    assert {s.passage.page for s in result.sources} <= {4, 5, 6}


def test_a_file_the_library_lacks_is_said_and_nothing_is_answered_from_the_others(library):
    result = answer(library, "How long is the warranty in east-pump.pdf?")
    assert not result.found and result.answer.startswith("No document named east-pump.pdf in your library."), result.answer
    assert not result.citations


def test_a_question_asking_what_is_on_a_page_is_answered_from_that_page(library):
    # "What is on page 5 of service-guide.pdf?" leaves "What is?" to search: before, no passage came close to it
    # and the answer was "not found" before the model read the page.
    result = answer(library, "What is on page 5 of service-guide.pdf?")
    assert result.found and "500" in result.answer, result.answer
    assert result.citations and {(Path(c.file).name, c.page) for c in result.citations} == {("service-guide.pdf", 5)}


@pytest.mark.parametrize("question", [
    "south-pump.pdf中Velmar泵的保修期是多久？",  # Chinese: "how long is the Velmar pump's warranty, in south-pump.pdf?"
    "service-guide.pdfの第5ページに書かれているフィルター交換の間隔は？",  # Japanese: "the filter interval written on page 5"
])
def test_a_file_and_page_named_in_chinese_or_japanese_are_applied(library, question):
    # Written without spaces around the name, "south-pump.pdf中" and "第5ページ" were no filters: every file was searched.
    result = answer(library, question)
    expected = {"south-pump.pdf": "30", "service-guide.pdf": "500"}
    file = next(name for name in expected if name in question)
    assert result.found and expected[file] in result.answer, result.answer
    assert {Path(s.passage.file).name for s in result.sources} == {file}
    assert result.citations and {Path(c.file).name for c in result.citations} == {file}
    if file == "service-guide.pdf":
        assert {s.passage.page for s in result.sources} == {5}
