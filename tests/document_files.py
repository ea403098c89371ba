"""Real Word, HTML and EPUB files for the tests, written with the real libraries (never mocked).

python-docx writes the .docx. pymupdf reads EPUB but writes only PDF, so the EPUB is assembled here as the
EPUB 3 specification lays it out: a ZIP whose first entry is the uncompressed `mimetype`, a
META-INF/container.xml pointing at the package document (content.opf), which lists the XHTML chapters
(manifest) and their reading order (spine), and a navigation document.

The facts in them are made up for the tests (a fictional "Orbit kettle"), so no test checks anything the
app's prompts or thresholds were tuned on.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

WARRANTY = "The Orbit kettle is covered by a warranty of 27 months from the date of purchase."
DESCALING = "Descale the Orbit kettle every 6 weeks with citric acid."
SAFETY = "Never fill the kettle above the 1.7 litre mark."


def write_docx(path: Path) -> Path:
    """A report with a title, numbered headings (a chapter heading directly followed by its first subheading),
    paragraphs and a table of models."""
    import docx

    path.parent.mkdir(parents=True, exist_ok=True)
    document = docx.Document()
    document.core_properties.title = "Orbit kettle service report"
    document.add_paragraph("Prepared by the service department for the retail partners.")
    document.add_heading("1 Introduction", level=1)
    document.add_paragraph("This report covers the Orbit kettle family and how to keep it working.")
    document.add_heading("2 Care", level=1)
    document.add_heading("2.1 Descaling", level=2)
    document.add_paragraph(DESCALING + " Rinse twice afterwards.")
    document.add_heading("3 Terms", level=1)
    document.add_heading("3.1 Returns", level=2)
    document.add_paragraph("Returns are accepted within 30 days when the kettle is unused.")
    for step in range(1, 13):  # a long section: the warranty after it lies well below the top of its text view
        document.add_paragraph(f"Return step {step}: pack the kettle in its box with every part, label it and note the order number.")
    document.add_heading("3.2 Warranty", level=2)
    document.add_paragraph(WARRANTY + " Keep the receipt as proof.")
    document.add_paragraph("The warranty does not cover limescale damage.")
    table = document.add_table(rows=3, cols=3)
    for row, values in zip(table.rows, [("Model", "Capacity", "Power"), ("Orbit S", "1.2 l", "2000 W"), ("Orbit L", "1.7 l", "2400 W")]):
        for cell, value in zip(row.cells, values):
            cell.text = value
    document.add_heading("4 Safety", level=1)
    document.add_paragraph(SAFETY)
    document.save(path)
    return path


def write_damaged_docx(path: Path) -> Path:
    """What a download cut short leaves: the first half of a real .docx."""
    whole = write_docx(path.with_name("whole-" + path.name))
    full = whole.read_bytes()
    whole.unlink()
    path.write_bytes(full[: len(full) // 2])
    return path


HTML_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Orbit kettle care guide</title>
  <style>body { font-family: sans-serif; } .menu { color: red; }</style>
  <script>var tracking = "analytics-beacon"; function menu() { return "menuScriptCode"; }</script>
</head>
<body>
  <header class="site"><a href="/">KitchenCo</a> <span>Free shipping on all orders</span></header>
  <nav class="menu"><ul><li><a href="/shop">Shop kettles</a></li><li><a href="/about">About us</a></li><li><a href="/login">Sign in</a></li></ul></nav>
  <article>
    <h1>Caring for your Orbit kettle</h1>
    <p>Good care keeps the kettle quiet and fast for years.</p>
    <h2>Descaling</h2>
    <p>""" + DESCALING + """ Hard water needs it more often.</p>
    <ul><li>Fill with water and acid.</li><li>Boil, then leave for an hour.</li></ul>
    <h2>Safety</h2>
    <p>""" + SAFETY + """</p>
    <table>
      <tr><th>Model</th><th>Capacity</th></tr>
      <tr><td>Orbit S</td><td>1.2 l</td></tr>
      <tr><td>Orbit L</td><td>1.7 l</td></tr>
    </table>
  </article>
  <aside>Related: the Orbit toaster</aside>
  <footer>Copyright KitchenCo. Privacy policy. Cookie settings.</footer>
  <script>document.write("injectedByScript");</script>
</body>
</html>
"""


def write_html(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(HTML_PAGE, encoding="utf-8")
    return path


CHAPTERS = (
    ("The kettle", [WARRANTY, "The kettle was designed in a small workshop by the sea."]),
    ("Looking after it", [DESCALING, "A clean kettle boils faster and lasts longer."]),
)


def _chapter_xhtml(title: str, paragraphs: list[str]) -> str:
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE html>\n'
        '<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">'
        f"<head><title>{title}</title></head><body><h1>{title}</h1>{body}</body></html>"
    )


def write_epub(path: Path, chapters=CHAPTERS, title: str = "The Orbit kettle book") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    items = "".join(f'<item id="c{i}" href="c{i}.xhtml" media-type="application/xhtml+xml"/>' for i in range(len(chapters)))
    spine = "".join(f'<itemref idref="c{i}"/>' for i in range(len(chapters)))
    links = "".join(f'<li><a href="c{i}.xhtml">{t}</a></li>' for i, (t, _) in enumerate(chapters))
    opf = (
        '<?xml version="1.0" encoding="utf-8"?>'
        '<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">'
        '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">'
        f'<dc:identifier id="id">urn:uuid:0f0e0d0c-0b0a-4090-8070-605040302010</dc:identifier><dc:title>{title}</dc:title>'
        '<dc:language>en</dc:language><meta property="dcterms:modified">2024-01-01T00:00:00Z</meta></metadata>'
        f'<manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>{items}</manifest>'
        f"<spine>{spine}</spine></package>"
    )
    nav = (
        '<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE html>\n'
        '<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Contents</title></head>'
        f'<body><nav epub:type="toc"><ol>{links}</ol></nav></body></html>'
    )
    container = (
        '<?xml version="1.0" encoding="utf-8"?>'
        '<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">'
        '<rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>'
    )
    with zipfile.ZipFile(path, "w") as book:
        # The mimetype entry comes first and is stored uncompressed, so a reader can identify the file by its first bytes.
        book.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip", compress_type=zipfile.ZIP_STORED)
        book.writestr("META-INF/container.xml", container, compress_type=zipfile.ZIP_DEFLATED)
        book.writestr("OEBPS/content.opf", opf, compress_type=zipfile.ZIP_DEFLATED)
        book.writestr("OEBPS/nav.xhtml", nav, compress_type=zipfile.ZIP_DEFLATED)
        for i, (chapter_title, paragraphs) in enumerate(chapters):
            book.writestr(f"OEBPS/c{i}.xhtml", _chapter_xhtml(chapter_title, paragraphs), compress_type=zipfile.ZIP_DEFLATED)
    return path


def write_text_files(folder: Path, stem: str, texts: list[str]) -> list[Path]:
    """Plain text files `stem`00.txt, `stem`01.txt, ... holding `texts`, one each (notes, logs)."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for n, text in enumerate(texts):
        path = folder / f"{stem}{n:02}.txt"
        path.write_text(text)
        paths.append(path)
    return paths


TOWNS = ("Velmora", "Quisthaven", "Brackenlow", "Ostrelle", "Dunmarrow", "Pellavine")


def write_town_report(path: Path, pages: int, towns: tuple[str, ...] = TOWNS) -> Path:
    """A made-up municipal report: each page about one town's water works, with figures of its own."""
    import pymupdf

    doc = pymupdf.open()
    for n in range(pages):
        town = towns[n % len(towns)]
        text = (
            f"Water works of {town}, district {n}. The pumping station of {town} lifts {120 + n} litres per second "
            f"from the reservoir to the hill tanks. Its filters are washed every {3 + n % 4} days, and the chlorine "
            f"dose is checked each morning by the station keeper. In winter the intake of {town} is heated so the "
            f"screens do not freeze; a spare pump stands ready for the dry months. "
        ) * 3
        page = doc.new_page()
        page.insert_textbox(pymupdf.Rect(50, 50, 550, 800), text, fontsize=10)
    doc.save(path)
    doc.close()
    return path
