"""A real manual's contents and index pages stay out of the fused passages; a copy of it under another name
adds no rows, only places (issue 34). Real PDF (pymupdf), real embedder, real SQLite/hnswlib."""

from __future__ import annotations

import shutil
from pathlib import Path

import pymupdf
import pytest

from desktop_app.core.library import Library

pytestmark = pytest.mark.integration

# A made-up product manual: the facts and names match no measuring set.
BODY = [
    "Charging. Charge the Kestrel Nano battery for 90 minutes before the first flight. The status light turns "
    "green when the battery is full. Use only the supplied 30 W charger; a weaker charger takes twice as long.",
    "Calibration. Calibrate the compass before the first flight and after every firmware update. Hold the drone "
    "level, turn it once around its vertical axis, then once nose down. Stay away from cars and metal fences.",
    "Propellers. Replace a propeller whose edge is chipped or bent. The propellers marked A turn clockwise and "
    "fit the motors marked A; the propellers marked B turn the other way. Tighten them by hand only.",
]
CONTENTS = [
    "Contents",
    "1 Charging the battery . . . . . . . . . . . . . . . . . . . . . . . . 2",
    "1.1 The charger and the status light . . . . . . . . . . . . . . . . 2",
    "2 Calibrating the compass . . . . . . . . . . . . . . . . . . . . . 3",
    "2.1 After a firmware update . . . . . . . . . . . . . . . . . . . . . 3",
    "3 Replacing the propellers . . . . . . . . . . . . . . . . . . . . . 4",
    "Index . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . 5",
]
INDEX = [
    "Index",
    "battery . . . . . . . . . . . . . . . . 2, 3",
    "calibration . . . . . . . . . . . . . . 3",
    "charger . . . . . . . . . . . . . . . . 2",
    "charging time . . . . . . . . . . . . . 2",
    "compass . . . . . . . . . . . . . . . . 3",
    "firmware update . . . . . . . . . . . . 3",
    "propellers . . . . . . . . . . . . . . . 4",
    "status light . . . . . . . . . . . . . . 2",
]


def write_manual(path: Path) -> Path:
    """Page 1 contents, pages 2-4 the body, page 5 the index: one line of text per entry, as a manual sets them."""
    doc = pymupdf.open()
    page = doc.new_page()
    for i, line in enumerate(CONTENTS):
        page.insert_text((56, 72 + 18 * i), line, fontsize=11, fontname="helv")
    for text in BODY:
        page = doc.new_page()
        page.insert_textbox(pymupdf.Rect(56, 56, page.rect.width - 56, page.rect.height - 56), text, fontsize=11, fontname="helv")
    page = doc.new_page()
    for i, line in enumerate(INDEX):
        page.insert_text((56, 72 + 18 * i), line, fontsize=11, fontname="helv")
    doc.save(path)
    return path


@pytest.fixture(scope="module")
def library(tmp_path_factory, real_embedder, real_generator):
    docs = tmp_path_factory.mktemp("docs")
    manual = write_manual(docs / "kestrel-manual.pdf")
    shutil.copy(manual, docs / "kestrel-manual (copy).pdf")  # the same file imported twice under two names
    lib = Library(tmp_path_factory.mktemp("home"), embedder=real_embedder, generator=real_generator)
    events = list(lib.import_paths([manual, docs / "kestrel-manual (copy).pdf"]))
    assert [e.stage for e in events if e.stage in ("ready", "failed")] == ["ready", "ready"]
    yield lib
    lib.close()


QUESTIONS = {
    "How long do I charge the battery before flying?": 2,
    "When should I calibrate the compass?": 3,
    "Which propeller goes on which motor?": 4,
}


@pytest.mark.parametrize("mode", ["fusion", "rag"])
def test_contents_and_index_pages_are_not_among_the_passages_found(library, mode):
    for question, page in QUESTIONS.items():
        words = question.rstrip("?").split()
        result = list(library.ask(question, mode, generate_answer=False, queries=[" ".join(words[-3:])]))[-1].result
        top = result.sources[:10]
        assert top and top[0].passage.page == page, question
        assert {s.passage.page for s in top} <= {2, 3, 4}, question  # never page 1 (contents) or 5 (index)


def test_they_stay_in_the_library_and_its_keyword_search(library):
    pages = {p.page for p in library.store.passages(h.chunk_id for h in library.store.keyword_search("firmware calibration", 20)).values()}
    assert {1, 5} <= pages
    marked = {p.page for p in library.store.passages(r[0] for r in library.store.conn.execute("SELECT id FROM chunks WHERE navigation = 1")).values()}
    assert marked == {1, 5}


def test_a_copy_under_another_name_is_one_row_naming_both_files(library):
    result = list(library.ask("When should I calibrate the compass?", "fusion", generate_answer=False, queries=["compass calibration"]))[-1].result
    texts = [s.passage.text for s in result.sources]
    assert len(texts) == len(set(texts))  # no text twice
    first = result.sources[0]
    files = {Path(first.passage.file).name, *(Path(place.file).name for place in first.also)}
    assert files == {"kestrel-manual.pdf", "kestrel-manual (copy).pdf"}
    assert all(place.page == 3 for place in first.also)
