"""Made-up books for the overview tests: a PDF with its own outline (set with pymupdf's set_toc), a PDF without
one whose headings are only set larger, and a Markdown file. Every fact is invented (the "Lantern moth", the
town of "Quillmere"), so no test checks anything a model could know."""

from __future__ import annotations

from pathlib import Path

# (chapter title, [(section title, [sentences])]); each section gets a page of its own.
MOTH_BOOK = (
    ("1 Habitat", [
        ("Forests of Quillmere", [
            "The Lantern moth lives in the damp birch forests around the town of Quillmere.",
            "Its caterpillars feed on birch leaves from April until the first frost.",
            "Foresters in Quillmere count the moths every summer along fixed paths.",
        ]),
        ("Wetlands", [
            "Some Lantern moth colonies rest in the reed beds of the Quillmere marsh.",
            "The marsh colonies are smaller than the forest colonies.",
        ]),
    ]),
    ("2 Life cycle", [
        ("Eggs and caterpillars", [
            "A female Lantern moth lays about forty eggs under a single birch leaf.",
            "The eggs hatch after eleven days when the nights stay warm.",
            "Young caterpillars spin silk tents that glow faintly at dusk.",
        ]),
        ("Pupae and adults", [
            "The caterpillar pupates in the leaf litter for nine weeks.",
            "Adult Lantern moths fly only on calm nights in late summer.",
        ]),
    ]),
    ("3 Protection", [
        ("Threats", [
            "Drainage of the marsh has halved the Lantern moth colonies since the old survey.",
            "Street lights draw the adult moths away from the birch forests.",
        ]),
        ("Conservation work", [
            "Volunteers in Quillmere switch off the lights of the old bridge on calm summer nights.",
            "The town council protects every birch grove larger than two hectares.",
            "Children of Quillmere plant young birches along the marsh each spring.",
        ]),
    ]),
)


def write_book_pdf(path: Path, book=MOTH_BOOK, title: str = "The Lantern moth of Quillmere", with_toc: bool = True) -> Path:
    """A title page, then one page per section with its heading set large; the outline set from the chapters
    and sections (or, without `with_toc`, left out: the headings are then found from the type size)."""
    import pymupdf

    path.parent.mkdir(parents=True, exist_ok=True)
    doc = pymupdf.open()
    cover = doc.new_page()
    cover.insert_text((72, 120), title, fontsize=22)
    toc = []
    for chapter, sections in book:
        for number, (section, sentences) in enumerate(sections):
            page = doc.new_page()
            y = 80
            if number == 0:
                page.insert_text((72, y), chapter, fontsize=20)
                toc.append([1, chapter, doc.page_count])
                y += 36
            page.insert_text((72, y), section, fontsize=15)
            toc.append([2, section, doc.page_count])
            body = " ".join(sentences)
            page.insert_textbox((72, y + 20, 520, 760), body, fontsize=11)
    if with_toc:
        doc.set_toc(toc)
    doc.set_metadata({"title": title})
    doc.save(path)
    return path


def chapter_pages(book=MOTH_BOOK) -> dict[str, range]:
    """Each chapter's pages in the PDF write_book_pdf makes (page 1 is the title page)."""
    out, page = {}, 2
    for chapter, sections in book:
        out[chapter] = range(page, page + len(sections))
        page += len(sections)
    return out


GARDEN_BOOK = (
    ("1 Soil", [("Compost", [
        "The gardeners of Brindlecombe mix seaweed into their compost every autumn.",
        "Compost from the harbour gardens is rich and dark after two winters.",
    ])]),
    ("2 Vegetables", [("Leeks and beans", [
        "Brindlecombe leeks are sown in March and lifted in the first frosts.",
        "Runner beans climb hazel poles cut from the village hedges.",
    ])]),
)
