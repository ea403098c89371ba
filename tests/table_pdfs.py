"""A datasheet PDF with a ruled spec table and framed code listings, drawn with pymupdf (for the table tests)."""

from __future__ import annotations

from pathlib import Path

SPEC_HEADER = ["Model", "Maximum pressure", "Flow rate", "Motor power"]
SPEC_ROWS = [
    ["HX-A", "4 bar", "20 l/min", "60 W"],
    ["HX-B", "11 bar", "35 l/min", "150 W"],
    ["HX-C", "16 bar", "50 l/min", "300 W"],
]
CODE_LINES = ["config = load_config('pump.toml')", "pump = Pump(config)", "pump.start(rate=35)", "print(pump.status())"]
PROSE = (
    "The HX series of booster pumps serves washing lines and irrigation. All models share the same housing "
    "and the same control board; they differ in motor and impeller. The table below lists each model's limits. "
    "Install the pump upright and leave 20 cm of free space around the fan."
)
SECOND_PAGE = (
    "Controlling the pump from a script. The control board accepts commands over USB; the Python package "
    "hxpump wraps them. A minimal session is shown in the listing below."
)


def _code_box(page, top: float) -> float:
    """A code listing framed by one rectangle, the way manuals draw examples. Returns the box's bottom."""
    import pymupdf

    height = 16 * len(CODE_LINES) + 12
    box = pymupdf.Rect(72, top, page.rect.width - 72, top + height)
    page.draw_rect(box, color=(0, 0, 0), width=0.8)
    for i, line in enumerate(CODE_LINES):
        page.insert_text((80, top + 18 + 16 * i), line, fontsize=10, fontname="cour")
    return box.y1


def _titled_listing(page, top: float) -> float:
    """A listing with a title bar and a line-number gutter: rules enough to pass the gate, but one block of code."""
    import pymupdf

    height = 22 + 16 * len(CODE_LINES) + 8
    box = pymupdf.Rect(72, top, page.rect.width - 72, top + height)
    page.draw_rect(box, color=(0, 0, 0), width=0.8)
    page.draw_line((box.x0, top + 22), (box.x1, top + 22), color=(0, 0, 0), width=0.8)
    page.draw_line((box.x0 + 24, top + 22), (box.x0 + 24, box.y1), color=(0, 0, 0), width=0.8)
    page.insert_text((80, top + 15), "Listing 1: a minimal session", fontsize=10, fontname="hebo")
    for i, line in enumerate(CODE_LINES):
        page.insert_text((78, top + 38 + 16 * i), str(i + 1), fontsize=10, fontname="cour")
        page.insert_text((102, top + 38 + 16 * i), line, fontsize=10, fontname="cour")
    return box.y1


def _ruled_table(page, top: float) -> float:
    """A grid of lines with text in each cell; the header row first. Returns the table's bottom."""
    rows = [SPEC_HEADER] + SPEC_ROWS
    widths = [90, 130, 100, 100]
    left, row_height = 72, 22
    xs = [left]
    for w in widths:
        xs.append(xs[-1] + w)
    bottom = top + row_height * len(rows)
    for i in range(len(rows) + 1):
        page.draw_line((xs[0], top + i * row_height), (xs[-1], top + i * row_height), color=(0, 0, 0), width=0.8)
    for x in xs:
        page.draw_line((x, top), (x, bottom), color=(0, 0, 0), width=0.8)
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            page.insert_text((xs[c] + 5, top + r * row_height + 15), cell, fontsize=10, fontname="hebo" if r == 0 else "helv")
    return bottom


def write_table_datasheet(path: Path) -> Path:
    """Page 1: prose, the ruled spec table, a framed code listing. Page 2: prose and a titled, numbered listing."""
    import pymupdf

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_textbox(pymupdf.Rect(72, 56, page.rect.width - 72, 80), "HX Booster Pumps - Specifications", fontsize=16, fontname="hebo")
    page.insert_textbox(pymupdf.Rect(72, 90, page.rect.width - 72, 170), PROSE, fontsize=11, fontname="helv")
    bottom = _ruled_table(page, 180)
    page.insert_textbox(pymupdf.Rect(72, bottom + 20, page.rect.width - 72, bottom + 60), "Starting the pump from a script:", fontsize=11, fontname="helv")
    _code_box(page, bottom + 50)
    page = doc.new_page()
    page.insert_textbox(pymupdf.Rect(72, 56, page.rect.width - 72, 140), SECOND_PAGE, fontsize=11, fontname="helv")
    _titled_listing(page, 150)
    doc.set_metadata({"title": "HX Booster Pumps"})
    doc.save(path)
    doc.close()
    return path
