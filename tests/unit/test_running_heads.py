"""Running headers and footers are blanked at import: the page's own text stays, with its offsets."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from desktop_app.core.ingest.chunking import chunk_pages
from desktop_app.core.ingest.extraction import extract
from desktop_app.core.ingest.page_text import page_words, span_boxes

R_INTRO = Path("/usr/share/R/doc/manual/R-intro.pdf")
BODY = [
    "The pump must be primed before its first start. Fill the casing with clean water through the priming port.",
    "Check the seal every month. A leaking seal drips more than ten drops a minute and must be replaced.",
    "The motor is rated 400 V three phase. Never run it against a closed valve for more than a minute.",
    "Store the pump dry and frost free. Drain the casing before a cold night.",
    "Spare parts are listed with their numbers in the catalogue. Order seals in pairs.",
    "Warranty claims need the serial number from the nameplate on the motor housing.",
]


def write_manual(path: Path) -> Path:
    doc = pymupdf.open()
    for n, body in enumerate(BODY, 1):
        page = doc.new_page()
        page.insert_text((72, 40), "Chapter 2: Care of the PX pump", fontsize=9)
        page.insert_textbox(pymupdf.Rect(72, 120, 520, 400), body, fontsize=11)
        page.insert_text((280, 810), f"Page {n} of {len(BODY)}", fontsize=9)
    doc.save(path)
    return path


def test_running_headers_and_footers_are_blanked_and_offsets_still_find_the_words(tmp_path):
    path = write_manual(tmp_path / "manual.pdf")
    extracted = extract(path)
    for page, body in zip(extracted.pages, BODY):
        assert "Chapter 2" not in page.text and "Page " not in page.text
        assert " ".join(page.text.split()) == body
    chunks = chunk_pages(extracted.pages)
    with pymupdf.open(path) as doc:
        for chunk in chunks:
            layout = page_words(doc[chunk.page - 1])
            # The offsets are those of the page as the viewer reads it: the same words, in the same place.
            assert layout.text[chunk.start : chunk.end] == chunk.text
            boxes = span_boxes(layout, chunk.start, chunk.end)
            assert boxes and all(100 < y0 < 420 for _, y0, _, _ in boxes)  # the body, not the header or the footer


def test_a_short_document_keeps_its_first_lines(tmp_path):
    doc = pymupdf.open()
    for body in BODY[:2]:
        page = doc.new_page()
        page.insert_text((72, 40), "Chapter 2: Care of the PX pump", fontsize=9)
        page.insert_textbox(pymupdf.Rect(72, 120, 520, 400), body, fontsize=11)
    doc.save(tmp_path / "short.pdf")
    assert all("Chapter 2" in p.text for p in extract(tmp_path / "short.pdf").pages)  # two pages: too little evidence


@pytest.mark.skipif(not R_INTRO.is_file(), reason="R's manuals are not installed")
def test_r_intro_loses_its_running_headers_not_its_headings():
    pages = extract(R_INTRO).pages
    first_lines = lambda n: [line for line in pages[n - 1].text.split("\n") if line.strip()][:2]  # noqa: E731
    assert first_lines(35)[0] == "6 Lists and data frames"  # was "29": the page number glued to the heading
    assert "Chapter 6: Lists and data frames" not in pages[36 - 1].text  # the running header of page 36
    assert first_lines(36)[0] == "6.2 Constructing and modifying lists"
    assert not any(line.strip() == "30" for line in pages[36 - 1].text.split("\n"))
