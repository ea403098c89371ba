"""Documents in scripts written without spaces between words, end to end with the real default models.

A made-up pump manual in Chinese (a PDF, written with PyMuPDF's built-in Chinese font, so no system font is needed)
and a made-up kettle leaflet in Japanese (a text file). Before word_pieces.py a whole clause of these scripts was one
"word", too short to be a sentence: the evidence held nothing, and every question got "Not found in your documents".
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from desktop_app.core.events import AnswerDone
from desktop_app.core.library import Library

pytestmark = pytest.mark.integration

PUMP = [  # "Lanhe pump manual. The pump has two ports." / its temperatures / its weight and warranty
    "澜河水泵说明书。本水泵有两个接口，适用于农田灌溉。",
    "工作条件：澜河水泵的最高工作温度为85摄氏度，最低工作温度为零下10摄氏度。",
    "澜河水泵的重量为12公斤。保修期为两年，自购买之日起计算。",
]
KETTLE = "みなと電気ケトルの説明書。\n\nこのケトルの容量は1.2リットルです。お湯は約3分で沸きます。\n\n保証期間は1年間です。"


@pytest.fixture(scope="module")
def library(tmp_path_factory, real_embedder, real_generator):
    home, docs = tmp_path_factory.mktemp("home"), tmp_path_factory.mktemp("docs")
    pdf = pymupdf.open()
    for text in PUMP:
        page = pdf.new_page()
        page.insert_textbox(pymupdf.Rect(56, 56, page.rect.width - 56, page.rect.height - 56), text, fontsize=12, fontname="china-s")
    pdf.save(docs / "澜河水泵.pdf")
    pdf.close()
    (docs / "kettle.txt").write_text(KETTLE, encoding="utf-8")
    lib = Library(home, embedder=real_embedder, generator=real_generator)
    for _ in lib.import_paths([docs / "澜河水泵.pdf", docs / "kettle.txt"]):
        pass
    yield lib
    lib.close()


def answer(library: Library, question: str):
    return next(e for e in library.ask(question, mode="fusion") if isinstance(e, AnswerDone)).result


def test_a_chinese_question_is_answered_from_the_chinese_page_that_states_it(library):
    result = answer(library, "澜河水泵的最高工作温度是多少？")  # "What is the Lanhe pump's highest working temperature?"
    assert result.found and "85" in result.answer, result.answer
    assert result.citations and all(c.supported for c in result.citations), result.citations
    assert any(Path(c.file).name == "澜河水泵.pdf" and c.page == 2 and "85" in c.text for c in result.citations)


def test_a_japanese_question_is_answered_from_the_japanese_leaflet(library):
    result = answer(library, "ケトルの容量は何リットルですか？")  # "How many litres does the kettle hold?"
    assert result.found and "1.2" in result.answer, result.answer
    assert any(Path(c.file).name == "kettle.txt" and "1.2" in c.text and c.supported for c in result.citations), result.citations
