"""Repeated boilerplate (a notice page after each chapter, a footer block on every page) is recognised by its
repetition inside the document, in any language; content, and a line found on only two pages, is not (issue 34)."""

from __future__ import annotations

import random

from desktop_app.core.ingest.chunking import chunk_pages
from desktop_app.core.repeated_text import boilerplate_passages, mark_boilerplate
from desktop_app.core.types import ChunkDraft, PageText

# A made-up appliance maker and its manual: the words match no measuring set.
NOTICE = (
    "Legal notice\n"
    "Lumo Appliances accepts no liability for damage caused by descaling the kettle\n"
    "with agents this manual does not name. Copyright Lumo Appliances, Fennick.\n"
    "No part of this manual may be copied without written permission."
)
JAPANESE_NOTICE = (
    "ご注意\n"
    "本書の内容の一部または全部を無断で転載することは禁止されています。\n"
    "製品の仕様および本書の内容は予告なく変更されることがあります。\n"
    "ルモ家電は本書に記載のない洗浄剤による損傷について責任を負いません。"
)
WORDS = (
    "kettle lid spout filter base cable switch lamp water scale vinegar citric rinse boil steam handle gasket "
    "element sensor cup litre minute light red green blue cord plug socket counter cupboard sponge cloth brush "
    "tablet powder bottle sink tap jug tray"
).split()


def content_page(number: int) -> str:
    """A page of text of its own: each line a different draw of words from every other page's."""
    draw = random.Random(number)
    return "\n".join(" ".join(draw.sample(WORDS, 11)) + "." for _ in range(6))


def chapters(notice: str, chapters: int = 4, pages_each: int = 5) -> list[PageText]:
    """A manual whose chapters end with the same notice page."""
    texts: list[str] = []
    for _ in range(chapters):
        texts += [content_page(len(texts) + k + 1) for k in range(pages_each)]
        texts.append(notice)
    return [PageText(number, text) for number, text in enumerate(texts, start=1)]


def marked_pages(pages: list[PageText]) -> set[int]:
    return {d.page for d in mark_boilerplate(pages, chunk_pages(pages)) if d.navigation}


def test_a_notice_page_after_each_chapter_is_marked_and_the_chapters_are_not():
    pages = chapters(NOTICE)
    assert marked_pages(pages) == {6, 12, 18, 24}


def test_a_notice_in_another_script_is_marked_too():
    pages = chapters(JAPANESE_NOTICE)
    assert marked_pages(pages) == {6, 12, 18, 24}


def test_a_notice_page_in_a_long_book_is_marked_though_it_is_on_few_of_its_pages():
    pages = chapters(NOTICE, chapters=5, pages_each=30)
    assert marked_pages(pages) == {31, 62, 93, 124, 155}


def test_a_passage_found_on_two_of_forty_pages_is_not_boilerplate():
    pages = [PageText(n, NOTICE if n in (10, 30) else content_page(n)) for n in range(1, 41)]
    assert marked_pages(pages) == set()


def test_a_disclaimer_block_on_every_page_is_marked_and_the_text_above_it_is_not():
    disclaimer = (
        "Lumo Appliances, 4 Quay Street, Fennick. Service line open on weekdays from eight to six.\n"
        "This manual describes the kettle as sold; accessories from other makers may differ in fit and finish.\n"
        "Lumo Appliances accepts no liability for damage caused by agents this manual does not name,\n"
        "nor for damage caused by boiling liquids other than water, or by a kettle left on a wet counter.\n"
        "Repairs by anyone but a Lumo service partner end the warranty; the partners are listed at the shop.\n"
        "The kettle meets the safety rules of the country where it is sold; its plug fits that country only.\n"
        "Recycle the kettle at a collection point for small appliances, never with the household waste.\n"
        "Page 3 of 12. Keep this manual with the kettle and hand it on with it."
    )
    pages = [PageText(n, "\n".join(content_page(n + k) for k in (0, 100, 200)) + "\n\n" + disclaimer.replace("3", str(n))) for n in range(1, 13)]
    drafts = mark_boilerplate(pages, chunk_pages(pages))
    starts = {p.number: p.text.index("Lumo Appliances, 4 Quay") for p in pages}
    only_disclaimer = [d for d in drafts if d.start >= starts[d.page]]
    only_content = [d for d in drafts if d.end <= starts[d.page]]
    assert {d.page for d in only_disclaimer} == {d.page for d in only_content} == set(starts)
    assert all(d.navigation for d in only_disclaimer)
    assert not any(d.navigation for d in only_content)


def test_an_example_shown_on_three_pages_among_other_text_is_not_boilerplate():
    example = "descale kettle --agent citric --minutes 20\nrinse kettle --times 3"
    pages = [PageText(n, content_page(n) + ("\n\n" + example if n in (4, 11, 19) else "")) for n in range(1, 25)]
    assert marked_pages(pages) == set()


def test_a_short_document_has_none():
    pages = [PageText(1, NOTICE), PageText(2, NOTICE)]
    assert boilerplate_passages({p.number: p.text for p in pages}, [(1, 0, len(NOTICE)), (2, 0, len(NOTICE))]) == [False, False]


def test_a_table_chunk_is_never_marked():
    pages = chapters(NOTICE)
    table = ChunkDraft(6, 0, len(NOTICE), NOTICE, kind="table")
    assert mark_boilerplate(pages, [table]) == [table]


def test_a_notice_section_after_each_chapter_of_a_word_file_is_marked(tmp_path):
    """Word and HTML files have sections, not pages: a notice under its own heading after each chapter repeats
    as a section does."""
    import docx

    from desktop_app.core.ingest.extraction import extract

    document = docx.Document()
    for chapter in range(3):
        document.add_heading(f"Chapter {chapter + 1}", level=1)
        for part in range(3):
            document.add_heading(f"{chapter + 1}.{part + 1} {WORDS[chapter * 3 + part].title()}", level=2)
            document.add_paragraph(content_page(chapter * 3 + part).replace("\n", " "))
        document.add_heading("Legal notice", level=2)
        document.add_paragraph(NOTICE.split("\n", 1)[1].replace("\n", " "))
    document.save(tmp_path / "lumo.docx")
    extracted = extract(tmp_path / "lumo.docx")
    drafts = mark_boilerplate(extracted.pages, chunk_pages(p for p in extracted.pages if p.text.strip()))
    notices = [d for d in drafts if d.text.startswith("Legal notice")]
    assert len(notices) == 3 and all(d.navigation for d in notices)
    assert not any(d.navigation for d in drafts if d not in notices)


CUSTOMERS = ["Harrow Bakery", "Quill & Daughters", "Mossgate Dental", "Tarrin Rowing Club", "Pellwick Library", "Oakum Garage"]
ITEMS = ["Lumo kettle, brushed steel", "Mesh filter, spare", "Descaling tablets, box of 12", "Base with cord", "Lid hinge kit", "Travel plug adapter"]


def invoice(number: int) -> str:
    """One invoice of a batch: a letterhead, labels and a footer the same on every page, around what differs."""
    customer, item, other = CUSTOMERS[number % 6], ITEMS[number % 6], ITEMS[(number * 5 + 1) % 6]
    return (
        "Lumo Appliances\n4 Quay Street, Fennick\nService line open on weekdays\n"
        f"Invoice no. {1000 + number}\nDate: 2025-03-{number:02d}\nBill to:\n{customer}\n{number} Harbour Road, Tarrin\n"
        f"Item Quantity Price\n{item} {number % 3 + 1} {19 + number}.90\n{other} 1 {4 + number}.50\nTotal: {24 + 2 * number}.40\n"
        "Payment within 30 days to the account below.\nThank you for your order."
    )


def test_a_batch_of_invoices_on_one_template_is_not_boilerplate():
    pages = [PageText(n, invoice(n)) for n in range(1, 13)]
    assert marked_pages(pages) == set()


def test_a_report_on_one_template_whose_pages_differ_in_their_figures_is_not_boilerplate():
    """Every page the same sentences, each with its own figures: what differs is the content."""
    text = "The pumping station of Corrowmere lifted {} litres per second in week {}.\nIts filters were washed {} times.\n"
    pages = [PageText(n, (text * 3).format(120 + n, n, n % 4 + 2, 120 + n, n, n % 4 + 2, 120 + n, n, n % 4 + 2)) for n in range(1, 13)]
    assert marked_pages(pages) == set()


def test_items_of_a_reference_that_differ_by_a_number_in_their_names_are_not_boilerplate():
    """"Page 3" and "Page 4" are one line, but "Tile8Grid" and "Tile16Grid" are two names: a reference's item per
    size keeps its passages, or a question about one of them found nothing."""
    def item(bits: int) -> str:
        return f"lumo.isTile{bits}Grid(value)\nAdded in: v2.0\n- value <any>\n- Returns: <boolean>\nTrue when the value is a Tile{bits}Grid."

    items = [PageText(n, item(bits), section=f"lumo.isTile{bits}Grid(value)") for n, bits in enumerate((8, 16, 32, 64), start=1)]
    pages = items + [PageText(n, content_page(n)) for n in range(5, 25)]
    assert marked_pages(pages) == set()

