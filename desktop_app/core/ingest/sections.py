"""Documents without pages (Word, HTML) as sections: each heading starts one, and a passage is cited by it.

A reader (word_files.py, html_files.py) turns a file into blocks in reading order (headings, paragraphs,
tables); `build_sections` groups them under their headings. Each section is stored like a page (numbered
in document order, its text starting with its heading line), so chunking, keyword search and the
character offsets that highlight a passage work as they do for PDF pages, and the section's heading is
kept beside it for the citation ("report.docx, section 3.2 Warranty").

A table becomes a Markdown table inside its section's text and a table chunk of its own ("table in section
3.2 Warranty"), cut out of the section's text chunks as a PDF page's tables are (pdf_tables.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..types import ChunkDraft, PageText
from .pdf_tables import TABLE, clean_cell, is_real_grid, markdown_table, row_groups

MAX_LABEL_CHARS = 80  # a heading longer than this is a paragraph set in a heading style; the label is cut


@dataclass(frozen=True)
class Heading:
    level: int  # 1 for the top level; 0 for a document's title
    text: str


@dataclass(frozen=True)
class Paragraph:
    text: str


@dataclass(frozen=True)
class TableBlock:
    rows: tuple[tuple[str, ...], ...]  # cell texts, the first row the header


Block = Heading | Paragraph | TableBlock


@dataclass(frozen=True)
class Sections:
    pages: list[PageText]  # one per section, `section` its heading
    tables: list[ChunkDraft]  # table chunks, offsets into their section's text


def one_line(text: str) -> str:
    return " ".join(text.split())


def section_label(heading: str) -> str:
    label = one_line(heading)
    if len(label) > MAX_LABEL_CHARS:
        label = label[:MAX_LABEL_CHARS].rsplit(" ", 1)[0] + "..."
    return label


@dataclass
class _Open:
    """A section being filled: its label, its text so far, and its tables (start in that text, header, body)."""

    label: str
    parts: list[str]
    length: int
    tables: list[tuple[int, list[str], list[list[str]]]]
    has_body: bool = False

    def add(self, text: str) -> int:
        """Appends a block (a blank line before it); returns where it starts in the section's text."""
        if self.parts:
            self.parts.append("\n\n")
            self.length += 2
        start = self.length
        self.parts.append(text)
        self.length += len(text)
        return start


def _table_chunks(number: int, start: int, header: Sequence[str], body: Sequence[Sequence[str]]) -> list[ChunkDraft]:
    """A table's chunks: the whole table, or groups of rows that each repeat the header when it is long.

    Each chunk's span covers its own rows in the section's text (the first also the header), so the view
    highlights the rows it holds.
    """
    head = markdown_table(header, [])
    # Each row's line in the table's text, after the header line and the rule: (start, end), the newline excluded.
    rows: list[tuple[int, int]] = []
    position = start + len(head) + 1
    for row in body:
        width = len(markdown_table(header, [row])) - len(head) - 1
        rows.append((position, position + width))
        position += width + 1
    drafts = []
    for number_in_table, group in enumerate(row_groups(header, body)):
        if group:
            span_start = start if number_in_table == 0 else rows[group[0]][0]
            text = markdown_table(header, [body[i] for i in group])
            drafts.append(ChunkDraft(page=number, start=span_start, end=rows[group[-1]][1], text=text, kind=TABLE))
    return drafts


def build_sections(blocks: Iterable[Block]) -> Sections:
    """Group blocks under their headings, in order. A heading with nothing under it (a chapter heading followed
    at once by its first subheading) opens no section of its own: its line starts the next one."""
    done: list[_Open] = []
    current = _Open("", [], 0, [])
    for block in blocks:
        if isinstance(block, Heading):
            text = one_line(block.text)
            if not text:
                continue
            if current.has_body:
                done.append(current)
                current = _Open(section_label(text), [], 0, [])
            else:
                current.label = section_label(text)
            current.add(text)
        elif isinstance(block, Paragraph):
            if block.text.strip():
                current.add(block.text.strip())
                current.has_body = True
        elif isinstance(block, TableBlock):
            rows = [[clean_cell(c) for c in row] for row in block.rows]
            rows = [r for r in rows if any(r)]
            if not rows:
                continue
            if not is_real_grid(rows):
                # A layout table (one column, or one row of boxes): its cells are paragraphs.
                for row in rows:
                    for cell in row:
                        if cell:
                            current.add(cell)
                current.has_body = True
                continue
            width = max(len(r) for r in rows)
            rows = [r + [""] * (width - len(r)) for r in rows]
            header = [h or f"Column {j + 1}" for j, h in enumerate(rows[0])]
            start = current.add(markdown_table(header, rows[1:]))
            current.tables.append((start, header, rows[1:]))
            current.has_body = True
    if current.has_body or current.parts:
        done.append(current)
    pages: list[PageText] = []
    tables: list[ChunkDraft] = []
    for number, section in enumerate(done, start=1):
        pages.append(PageText(number, "".join(section.parts), section=section.label))
        for start, header, body in section.tables:
            tables.extend(_table_chunks(number, start, header, body))
    return Sections(pages, tables)
