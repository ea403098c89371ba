"""A small sample document (a pump datasheet) for the first-run demo, the screenshot and the tests."""

from __future__ import annotations

from pathlib import Path

SAMPLE_PAGES = [
    (
        "PX-40 Industrial Pump - Overview",
        "The PX-40 is a compact centrifugal pump made by Norrwave Systems for cooling loops in machine tools. "
        "It moves up to 40 litres of coolant per minute. The housing is cast aluminium with a stainless steel impeller. "
        "This datasheet covers installation, electrical data, operating limits and maintenance.",
    ),
    (
        "Electrical data",
        "The PX-40 runs on a supply voltage of 24 V DC. Its rated power consumption is 120 W at full flow. "
        "The inrush current can reach 9 A for 50 milliseconds, so the power supply must be rated for at least 10 A. "
        "The motor is brushless and is protected against reverse polarity.",
    ),
    (
        "Operating limits",
        "The maximum operating temperature of the PX-40 is 85 degrees Celsius, measured at the coolant inlet. "
        "The minimum operating temperature is minus 10 degrees Celsius. The enclosure is rated IP67, so the pump "
        "withstands temporary immersion in water up to one metre deep. The maximum system pressure is 6 bar.",
    ),
    (
        "Maintenance",
        "The shaft seals of the PX-40 must be replaced every 2,000 operating hours. "
        "Use only the seal kit SK-40, which contains two seals and an O-ring. "
        "The bearings are lubricated for life and need no maintenance. Flush the pump with clean water before storage.",
    ),
]


def write_sample_datasheet(path: Path) -> Path:
    return write_pdf(path, SAMPLE_PAGES, "PX-40 Industrial Pump Datasheet")


def write_pdf(path: Path, pages: list[tuple[str, str]], title: str) -> Path:
    """A PDF of (heading, body) pages with its title in the metadata."""
    import pymupdf

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = pymupdf.open()
    for heading, body in pages:
        page = doc.new_page()
        page.insert_textbox(pymupdf.Rect(56, 56, page.rect.width - 56, 100), heading, fontsize=16, fontname="hebo")
        page.insert_textbox(pymupdf.Rect(56, 110, page.rect.width - 56, page.rect.height - 56), body, fontsize=11, fontname="helv")
    doc.set_metadata({"title": title})
    doc.save(path)
    doc.close()
    return path
