"""A made-up drop of ten files (nine short PDFs and one broken file) and three folders to keep in sync: what the
window screenshots and the window-size tests import. The harbour town, its machines and its people are invented."""

from __future__ import annotations

from pathlib import Path

from .sample_datasheet import write_pdf

MACHINES = ("Tidewell T-3 winch", "Gullstone crane", "Marrow Bay ferry engine", "Saltreach pump house", "Eastquay generator",
            "Lanternfield boiler", "Heronmoor hoist", "Copperdune compressor", "Brineholt desalinator")  # fmt: skip
BROKEN = "harbour-ledger.pdf"  # a .pdf name with other contents: its import fails, with the reason


def write_import_batch(folder: Path) -> list[Path]:
    """Nine two-page PDFs about invented harbour machines, then a broken one; in the order they are dropped."""
    files = []
    for n, machine in enumerate(MACHINES, 1):
        pages = [
            (f"{machine}: overview", f"The {machine} serves berth {n} of the harbour. It was installed in {1990 + n} and runs {8 + n} hours a day."),
            ("Maintenance", f"The {machine} is serviced every {250 * n} operating hours by the harbour's own crew; its log is kept in the office."),
        ]
        files.append(write_pdf(Path(folder) / f"{machine.lower().replace(' ', '-')}.pdf", pages, f"{machine} handbook"))
    broken = Path(folder) / BROKEN
    broken.write_text("Ledger totals, typed into a file with a .pdf name.")
    return [*files, broken]


def write_watched_folders(root: Path, n: int = 3) -> list[Path]:
    """`n` folders, each with two short notes."""
    folders = []
    for i, name in enumerate(("shift-notes", "supplier-letters", "inspection-reports", "tide-tables")[:n], 1):
        folder = Path(root) / name
        folder.mkdir(parents=True, exist_ok=True)
        for j in (1, 2):
            (folder / f"{name}-{j}.txt").write_text(f"Note {j} of {name.replace('-', ' ')}: berth {i + j} was checked on day {7 * i + j}.")
        folders.append(folder)
    return folders
