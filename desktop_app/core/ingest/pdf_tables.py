"""Ruled tables on PDF pages as Markdown chunks, cited as "table on page N".

pymupdf's table finder is slow (its default layout analysis costs about half a second
per page) and, on its own, mistakes framed code listings, tables of contents and indexes
for tables. So a page goes to the finder only when its vector drawings hold a grid of rules
(a cheap check, 1-3 ms per page), the finder runs on those rules alone
(`use_layout=False`), and a table is kept only when it is a real grid: two or more rows
and columns with content, most cells filled. Unruled tables (columns aligned by spacing
alone) are not detected: telling them from code and indexes needs the slow layout pass.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..places import TABLE, TEXT, place_label  # noqa: F401 - place_label was defined here first; kept importable
from ..types import ChunkDraft, PageText
from .chunking import chunk_page
from .page_text import PageWords

# A grid needs rules at this many distinct heights and as many distinct x positions; a framed listing has two of each.
MIN_RULES = 3
MIN_RULE_LENGTH = 5.0  # points; shorter strokes are glyph parts, bullets, underline ticks
RULE_THICKNESS = 2.0  # a filled rectangle this thin is drawn as a rule, not a shaded area
MIN_FILLED_SHARE = 0.5  # of all cells
MAX_TABLE_CHARS = 900  # as text chunks (chunking.DEFAULT_MAX_CHARS): a longer table is split by rows, each piece with the header


def rule_positions(page) -> tuple[set[int], set[int]]:
    """(y of each horizontal rule, x of each vertical rule) among the page's vector drawings, to the point.

    A rectangle gives two of each. Positions, not counts: two framed listings one above the other
    have four horizontal and four vertical rules, but their sides share two x positions.
    """
    ys: set[int] = set()
    xs: set[int] = set()
    for drawing in page.get_drawings():
        for item in drawing["items"]:
            if item[0] == "l":
                p1, p2 = item[1], item[2]
                if abs(p1.y - p2.y) < 1 and abs(p1.x - p2.x) >= MIN_RULE_LENGTH:
                    ys.add(round(p1.y))
                elif abs(p1.x - p2.x) < 1 and abs(p1.y - p2.y) >= MIN_RULE_LENGTH:
                    xs.add(round(p1.x))
            elif item[0] == "re":
                rect = item[1]
                if rect.height < RULE_THICKNESS and rect.width >= MIN_RULE_LENGTH:
                    ys.add(round(rect.y0))
                elif rect.width < RULE_THICKNESS and rect.height >= MIN_RULE_LENGTH:
                    xs.add(round(rect.x0))
                elif rect.width >= MIN_RULE_LENGTH and rect.height >= MIN_RULE_LENGTH:
                    ys.update((round(rect.y0), round(rect.y1)))
                    xs.update((round(rect.x0), round(rect.x1)))
    return ys, xs


def rule_counts(page) -> tuple[int, int]:
    """(horizontal, vertical): how many distinct positions the page's rules take."""
    ys, xs = rule_positions(page)
    return len(ys), len(xs)


def may_hold_table(page) -> bool:
    """The cheap gate: rules at enough distinct positions each way to form a grid of at least 2 x 2 cells."""
    horizontal, vertical = rule_counts(page)
    return horizontal >= MIN_RULES and vertical >= MIN_RULES


def clean_cell(value: str | None) -> str:
    return " ".join((value or "").split()).replace("|", "\\|")


def is_real_grid(rows: Sequence[Sequence[str]]) -> bool:
    """At least two rows with two filled cells each, and most cells filled: not one framed block of text.

    A listing with a title bar and a line-number gutter is a 2 x 2 grid of rules, but only
    its code row has two filled cells; a header and one data row is the smallest real table.
    """
    if len(rows) < 2 or max(len(r) for r in rows) < 2:
        return False
    cells = [c for r in rows for c in r]
    filled = sum(1 for c in cells if c)
    rows_with_two = sum(1 for r in rows if sum(1 for c in r if c) >= 2)
    return rows_with_two >= 2 and filled >= MIN_FILLED_SHARE * len(cells)


def markdown_table(header: Sequence[str], body: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in body]
    return "\n".join(lines)


def _union(boxes: Sequence[tuple[float, float, float, float]]) -> tuple[float, float, float, float]:
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def _span_inside(layout: PageWords, bbox: tuple[float, float, float, float]) -> tuple[int, int]:
    """Character span of the page text holding exactly the words whose centres lie in bbox.

    (0, 0) when there are none, or when other words sit between them in reading order (a table
    beside a text column): then the span would cover words that are not the table's.
    """
    x0, y0, x1, y1 = bbox
    inside = [x0 <= (a + c) / 2 <= x1 and y0 <= (b + d) / 2 <= y1 for _, _, (a, b, c, d) in layout.words]
    if not any(inside):
        return 0, 0
    first = inside.index(True)
    last = len(inside) - 1 - inside[::-1].index(True)
    if not all(inside[first : last + 1]):
        return 0, 0
    return layout.words[first][0], layout.words[last][1]


def row_groups(header: Sequence[str], body: Sequence[Sequence[str]], max_chars: int = MAX_TABLE_CHARS) -> list[list[int]]:
    """The body's rows (indexes) in consecutive groups whose Markdown table, header included, fits in max_chars;
    a row longer than that is a group alone."""
    head = markdown_table(header, [])
    groups: list[list[int]] = [[]]
    size = len(head)
    for i, row in enumerate(body):
        line = len(markdown_table(header, [row])) - len(head)
        if groups[-1] and size + line > max_chars:
            groups.append([])
            size = len(head)
        groups[-1].append(i)
        size += line
    return groups


def table_pieces(
    page_number: int,
    header: Sequence[str],
    body: Sequence[Sequence[str]],
    row_boxes: Sequence[tuple[float, float, float, float]],
    header_box: tuple[float, float, float, float] | None,
    layout: PageWords,
    max_chars: int = MAX_TABLE_CHARS,
) -> list[ChunkDraft]:
    """One table as chunks: the whole Markdown table, or row groups that each repeat the header when it is long."""
    drafts = []
    for number, group in enumerate(row_groups(header, body, max_chars)):
        boxes = [row_boxes[i] for i in group]
        if number == 0 and header_box is not None:
            boxes.append(header_box)
        bbox = _union(boxes) if boxes else header_box
        start, end = _span_inside(layout, bbox) if bbox else (0, 0)
        text = markdown_table(header, [body[i] for i in group])
        drafts.append(ChunkDraft(page=page_number, start=start, end=end, text=text, kind=TABLE, bbox=bbox))
    return drafts


def _row_box(row, fallback) -> tuple[float, float, float, float]:
    box = getattr(row, "bbox", None)
    return tuple(box) if box else tuple(fallback)


def cell_text(layout: PageWords, bbox) -> str:
    """The page words whose centres lie in a cell, in reading order.

    Taken from the same word list as the page text, not from the finder's own character
    grouping, which drops the spaces of some fonts ("Maximumpressure") and reorders hyphens.
    """
    if bbox is None:
        return ""
    x0, y0, x1, y1 = bbox
    words = [layout.text[s:e] for s, e, (a, b, c, d) in layout.words if x0 <= (a + c) / 2 <= x1 and y0 <= (b + d) / 2 <= y1]
    return clean_cell(" ".join(words))


def page_tables(page, layout: PageWords) -> list[ChunkDraft]:
    """The page's ruled tables as table chunks (none when the gate says the page has no grid of rules)."""
    if not may_hold_table(page):
        return []
    found = page.find_tables(use_layout=False)
    drafts: list[ChunkDraft] = []
    for table in found.tables:
        table_rows = list(table.rows)
        rows = [[cell_text(layout, cell) for cell in row.cells] for row in table_rows]
        if not is_real_grid(rows):
            continue
        width = max(len(r) for r in rows)
        rows = [r + [""] * (width - len(r)) for r in rows]
        row_boxes = [_row_box(row, table.bbox) for row in table_rows]
        # The grid's first row is the header. pymupdf may instead take a line above the grid (its
        # "external" header), which is often the caption ("Table 1: ..."); the caption stays in the text.
        header, body, body_boxes, header_box = rows[0], rows[1:], row_boxes[1:], row_boxes[0]
        header = [h or f"Column {j + 1}" for j, h in enumerate(header)]
        drafts.extend(table_pieces(page.number + 1, header, body, body_boxes, header_box, layout))
    return drafts


def chunk_pages_around_tables(pages: Iterable[PageText], table_chunks: Sequence[ChunkDraft]) -> list[ChunkDraft]:
    """Text chunks of each page, leaving out the character spans its table chunks hold, then the table chunks.

    Each fact of a table is in one chunk only: otherwise the page's text chunk holds the same
    cells flattened into a column of words ("HX-B 11 bar 35 l/min ...") and the model cites that
    instead of the table. Offsets stay those of the page text, so highlighting is unchanged. A
    table whose words are interleaved with other text (span (0, 0)) is not cut out.
    """
    spans: dict[int, list[tuple[int, int]]] = {}
    for table in table_chunks:
        if table.end > table.start:
            spans.setdefault(table.page, []).append((table.start, table.end))
    out: list[ChunkDraft] = []
    for page in pages:
        cut = sorted(spans.get(page.number, []))
        if not cut:
            out.extend(chunk_page(page))
        else:
            position = 0
            for start, end in cut + [(len(page.text), len(page.text))]:
                if start > position:
                    piece = chunk_page(PageText(page.number, page.text[position:start], page.ocr))
                    out.extend(ChunkDraft(d.page, d.start + position, d.end + position, d.text) for d in piece)
                position = max(position, end)
        out.extend(t for t in table_chunks if t.page == page.number)
    return out
