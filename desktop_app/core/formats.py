"""The file formats the library imports: the one list that the importer, the folder scan, the file dialog's
filter and every "not supported" message read, so none of them can forget a format.

Shared vocabulary (like types.py): it imports nothing of the app, so errors, the core and the window may all use it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

PAGE = "page"
SECTION = "section"
ROW = "row"


@dataclass(frozen=True)
class FileFormat:
    name: str  # as a person calls it: "PDF", "Word"
    suffixes: tuple[str, ...]  # lower case, with the dot
    # Where a passage of it sits: on a "page" (PDF, EPUB; a text file is one page), in a heading's "section"
    # (Word, HTML: they have no pages), or in the "row"s of an SQL table (CSV, Excel: asked with SQL, no passages).
    unit: str = PAGE

    @property
    def is_table(self) -> bool:
        return self.unit == ROW

    def described(self) -> str:
        return f"{self.name} ({', '.join(self.suffixes)})"


FORMATS: tuple[FileFormat, ...] = (
    FileFormat("PDF", (".pdf",)),
    FileFormat("Word", (".docx",), SECTION),
    FileFormat("HTML", (".html", ".htm"), SECTION),
    FileFormat("EPUB", (".epub",)),
    FileFormat("text", (".txt",)),
    FileFormat("Markdown", (".md", ".markdown")),
    FileFormat("CSV", (".csv", ".tsv"), ROW),
    FileFormat("Excel", (".xlsx", ".xlsm"), ROW),
)
_BY_SUFFIX = {suffix: f for f in FORMATS for suffix in f.suffixes}

# Formats people often have that are not read, with what to do instead.
UNREAD_HINTS = {
    ".doc": "Save it as .docx in Word or LibreOffice, then import that file.",
    ".xls": "Save it as .xlsx in Excel or LibreOffice, then import that file.",
}


def format_of(path: Path | str) -> FileFormat | None:
    return _BY_SUFFIX.get(Path(path).suffix.lower())


def is_importable(path: Path | str) -> bool:
    return format_of(path) is not None


def is_hidden_or_temporary(path: Path | str) -> bool:
    """Hidden files, and the owner files Word and Excel leave beside an open document ("~$report.docx"): a folder
    scan passes them by (they would only fail to import)."""
    return Path(path).name.startswith((".", "~$"))


def has_page_images(path: Path | str) -> bool:
    """A PDF's pages are shown as images; every other format's passages in a text view."""
    return Path(path).suffix.lower() == ".pdf"


def suffixes(unit: str | None = None) -> frozenset[str]:
    """Every supported suffix, or those of one unit ("page", "section", "row")."""
    return frozenset(s for f in FORMATS if unit is None or f.unit == unit for s in f.suffixes)


def supported_list() -> str:
    """ "PDF (.pdf), Word (.docx), ... and Excel (.xlsx, .xlsm)": every format, for messages."""
    described = [f.described() for f in FORMATS]
    return ", ".join(described[:-1]) + " and " + described[-1]


def format_names() -> str:
    """ "PDF, Word, HTML, ... or Excel": short, for hints and tooltips."""
    names = [f.name for f in FORMATS]
    return ", ".join(names[:-1]) + " or " + names[-1]


def dialog_filter() -> str:
    """The file dialog's filter: every supported suffix, then all files."""
    patterns = " ".join(f"*{s}" for f in FORMATS for s in f.suffixes)
    return f"Documents ({patterns});;All files (*)"


def unsupported_message(path: Path | str) -> tuple[str, str]:
    """(message, hint) for a file of a format the library does not read."""
    path = Path(path)
    hint = UNREAD_HINTS.get(path.suffix.lower(), "")
    kind = f"a {path.suffix.lower()} file" if path.suffix else "a file without a name extension"
    return f"{path.name} is {kind}, which cannot be imported. Supported: {supported_list()}", hint
