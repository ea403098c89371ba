"""A notice page printed after every chapter stays out of the fused passages though it shares the question's
words; it stays in the library and its keyword search (issue 34). Real PDF (pymupdf), real embedder, real
SQLite/hnswlib."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from desktop_app.core.library import Library

pytestmark = pytest.mark.integration

# A made-up kettle's manual: the facts and names match no measuring set.
CHAPTERS = [
    [
        "Filling. Fill the Lumo kettle through the lid, never through the spout. The window on the handle shows "
        "the level; fill it between the two marks, at least half a litre and at most one and a half litres.",
        "Boiling. Set the kettle on its base and press the switch down. The ring of light turns blue while the "
        "water heats and goes out when it boils; a full kettle boils in about four minutes.",
        "Keeping warm. Hold the switch for two seconds and the kettle keeps the water at eighty degrees for half "
        "an hour, for green tea. The ring of light then glows amber.",
        "Empty kettle. The kettle switches itself off when it is set on its base empty, and the ring of light "
        "flashes red. Let it cool for ten minutes before filling it again.",
    ],
    [
        "Descaling. Descale the kettle every four weeks where the water is hard, and every three months where it "
        "is soft. White flakes floating in the water mean it is time.",
        "Descaling agent. Use half a litre of water with two spoons of citric acid. Boil it once, leave it in the "
        "kettle for twenty minutes, pour it away and rinse twice with clean water.",
        "Filter. The mesh filter behind the spout lifts out upwards. Rinse it under the tap and brush it with a "
        "soft brush; put it back with its tab facing the lid.",
        "Limescale sensor. A sensor on the base counts the boils. After three hundred boils the ring of light "
        "blinks white at every boil until the kettle has been descaled.",
    ],
    [
        "Cleaning. Wipe the outside with a damp cloth and dry it. Never put the kettle or its base in water or in "
        "a dishwasher; the base holds the electrics.",
        "The cord. Wind the spare cord under the base into its groove. A damaged cord must be replaced by a Lumo "
        "service partner, as it is fixed to the base.",
        "Storing. Empty the kettle and leave the lid open for a day before putting it away, so that no water "
        "stays inside. Store it upright in a dry cupboard.",
        "Travelling. The base works on 220 to 240 volts only. Abroad, a travel adapter for the plug is enough "
        "where the voltage is the same; a converter is needed where it is not.",
    ],
]
# The same notice after each chapter, with the words of the question about descaling.
NOTICE = (
    "Notice on descaling and care. Lumo Appliances accepts no liability for damage caused by descaling the kettle "
    "more often or less often than this manual says, or with descaling agents it does not name. The warranty "
    "ends when the kettle is opened or repaired by anyone but a Lumo service partner. Copyright Lumo Appliances, "
    "Fennick. No part of this manual may be copied or passed on without written permission from Lumo Appliances. "
    "The kettle meets the safety rules of the country where it is sold, and its plug fits that country only. "
    "Recycle the kettle at a collection point for small appliances, never with the household waste."
)
NOTICE_PAGES = {5, 10, 15}
DESCALING_PAGE = 6


def write_manual(path: Path) -> Path:
    """Three chapters of four pages, each followed by the same notice page: fifteen pages."""
    doc = pymupdf.open()
    for chapter in CHAPTERS:
        for text in [*chapter, NOTICE]:
            page = doc.new_page()
            page.insert_textbox(pymupdf.Rect(56, 56, page.rect.width - 56, page.rect.height - 56), text, fontsize=11, fontname="helv")
    doc.save(path)
    return path


@pytest.fixture(scope="module")
def library(tmp_path_factory, real_embedder):
    manual = write_manual(tmp_path_factory.mktemp("docs") / "lumo-kettle.pdf")
    lib = Library(tmp_path_factory.mktemp("home"), embedder=real_embedder)
    events = list(lib.import_paths([manual]))
    assert [e.stage for e in events if e.stage in ("ready", "failed")] == ["ready"]
    yield lib
    lib.close()


@pytest.mark.parametrize("mode", ["fusion", "rag"])
def test_the_notice_pages_are_not_among_the_passages_found(library, mode):
    question = "How often should I descale the kettle?"
    result = list(library.pipeline().search(question, mode, queries=["how often descale kettle"]))[-1].result
    pages = [s.passage.page for s in result.sources]
    assert pages and pages[0] == DESCALING_PAGE
    assert not set(pages) & NOTICE_PAGES


def test_the_notice_pages_stay_in_the_library_and_its_keyword_search(library):
    found = library.store.passages(h.chunk_id for h in library.store.keyword_search("descaling kettle liability", 20)).values()
    assert NOTICE_PAGES <= {p.page for p in found}
    marked = library.store.passages(r[0] for r in library.store.conn.execute("SELECT id FROM chunks WHERE navigation = 1")).values()
    assert {p.page for p in marked} == NOTICE_PAGES


def test_a_library_in_postgresql_marks_them_the_same_way(database, real_embedder, tmp_path):
    manual = write_manual(tmp_path / "lumo-kettle.pdf")
    library = Library(tmp_path / "home", embedder=real_embedder, location=database)
    assert [e.stage for e in library.import_paths([manual]) if e.stage in ("ready", "failed")] == ["ready"]
    marked = library.store.rows("SELECT DISTINCT page FROM chunks WHERE navigation ORDER BY page")
    assert {page for (page,) in marked} == NOTICE_PAGES
    result = list(library.pipeline().search("How often should I descale the kettle?", "rag"))[-1].result
    pages = [s.passage.page for s in result.sources]
    assert pages and pages[0] == DESCALING_PAGE and not set(pages) & NOTICE_PAGES
    library.close()
