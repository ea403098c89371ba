"""HTML (.html, .htm) files: the readable text of the page as blocks (headings, paragraphs, tables) that
sections.py groups under their headings, without navigation, scripts, forms and page furniture.

Parsed with selectolax (Lexbor, an HTML5 parser, so broken markup reads as a browser would read it). What
is read is the page's <main> (or its one <article>), else its <body>; inside that, navigation, scripts,
styles, forms, asides, hidden elements and the site's own header and footer are dropped (a <header> or
<footer> inside the article is the article's and stays). These are explicit rules, not a statistical
boilerplate classifier: a saved manual or report keeps every paragraph, however short or list-like.
"""

from __future__ import annotations

import codecs
import re
from pathlib import Path

from ..errors import NotADocument
from .sections import Block, Heading, Paragraph, TableBlock

# Never text a reader wants: code, navigation, controls, embedded media.
DROPPED = (
    "script, style, noscript, template, nav, aside, form, button, select, textarea, iframe, object, embed, svg, "
    "canvas, dialog, [role=navigation], [role=search], [role=banner], [role=contentinfo], [aria-hidden=true], [hidden]"
)
HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
# Elements that end the paragraph before them and start a new one.
BLOCK_TAGS = frozenset(
    "p div section article main header footer ul ol dl dt dd blockquote figure figcaption address details summary "
    "fieldset center hr tr caption body html".split()
)
_SPACES = re.compile(r"[ \t\r\n\f\u00a0]+")
_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_:.-]+)""", re.IGNORECASE)


def decode_html(data: bytes) -> str:
    """The page's text: by its byte-order mark, else its declared charset, else UTF-8, else Windows-1252 (as browsers do)."""
    for bom, encoding in ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16")):
        if data.startswith(bom):
            return data.decode(encoding, errors="replace").lstrip("\ufeff")
    declared = _CHARSET.search(data[:2048])
    if declared:
        try:
            return data.decode(codecs.lookup(declared.group(1).decode("ascii")).name, errors="replace")
        except LookupError:
            pass  # an unknown label: as if none were declared
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def read_html(path: Path) -> tuple[str, list[Block]]:
    """(title, blocks) of an HTML file."""
    from selectolax.lexbor import LexborHTMLParser

    data = path.read_bytes()
    if not data.strip():
        raise NotADocument(f"{path.name} is empty", hint="There is nothing to import.")
    tree = LexborHTMLParser(decode_html(data))
    title_node = tree.css_first("title")
    title = _one_line(title_node.text()) if title_node is not None else ""
    for node in tree.css(DROPPED):
        node.decompose()
    for node in tree.css('a[href^="#"]'):
        if not any(ch.isalnum() for ch in node.text()):
            node.decompose()  # a link within the page with no letter or digit is a marker: a heading's permalink "¶", a footnote's "↩"
    for node in tree.css("header, footer"):
        if not _inside(node, {"article", "main"}):
            node.decompose()  # the site's banner and footer, not the article's own
    root = _content_root(tree)
    if root is None:
        raise NotADocument(f"{path.name} has no readable text", hint="There is nothing to import.")
    try:
        blocks = _Walker().blocks_of(root)
    except RecursionError as exc:  # elements nested deeper than Python's stack (generated pages, rarely)
        raise NotADocument(f"{path.name} is nested too deeply to read", hint="Open it in a browser and save it again, or print it to PDF.") from exc
    if not title:
        title = next((b.text for b in blocks if isinstance(b, Heading)), "") or path.stem
    return _one_line(title), blocks


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _inside(node, tags: set[str]) -> bool:
    parent = node.parent
    while parent is not None:
        if parent.tag in tags:
            return True
        parent = parent.parent
    return False


def _content_root(tree):
    """The page's main content: its <main>, else its only <article>, else the whole body."""
    main = tree.css_first("main, [role=main]")
    if main is not None and main.text(strip=True):
        return main
    articles = tree.css("article")
    if len(articles) == 1 and articles[0].text(strip=True):
        return articles[0]
    return tree.body


class _Walker:
    """Turns an element tree into blocks: inline text gathers into a paragraph until a block element ends it."""

    def __init__(self):
        self.blocks: list[Block] = []
        self.pieces: list[str] = []

    def blocks_of(self, root) -> list[Block]:
        self._walk(root)
        self._flush()
        return self.blocks

    def _flush(self) -> None:
        text = "".join(self.pieces)
        self.pieces = []
        lines = [" ".join(line.split()) for line in text.split("\n")]
        text = "\n".join(line for line in lines if line)
        if text and text != "-":
            self.blocks.append(Paragraph(text))

    def _walk(self, node) -> None:
        for child in node.iter(include_text=True):
            tag = child.tag
            if tag == "-text":
                self.pieces.append(_SPACES.sub(" ", child.text_content or ""))
            elif tag in HEADINGS:
                self._flush()
                self.blocks.append(Heading(HEADINGS[tag], child.text(separator=" ")))
            elif tag == "br":
                self.pieces.append("\n")
            elif tag == "pre":
                self._flush()
                code = (child.text(deep=True) or "").strip("\n")
                if code.strip():
                    self.blocks.append(Paragraph(code))
            elif tag == "li":
                self._flush()
                self.pieces.append("- ")
                self._walk(child)
                self._flush()
            elif tag == "dd":
                self._definition(child)
            elif tag == "table" and not _is_layout_table(child):
                self._flush()
                self.blocks.append(TableBlock(_table_rows(child)))
            elif tag in BLOCK_TAGS or tag == "table":
                self._flush()
                self._walk(child)
                self._flush()
            elif tag in ("td", "th"):
                self.pieces.append(" ")  # cells of a layout table: at least a space between them
                self._walk(child)
                self.pieces.append(" ")
            elif not tag.startswith("-"):  # inline elements (a, b, span ...); comments are left out
                self._walk(child)

    def _definition(self, dd) -> None:
        """A definition list's term is the label of its definition's first paragraph, one line as a spec's "Weight: 7 kg"
        is: a manual's "-k --keep" is read (and quoted) with "Keep (don't delete) input files ...", not as a line of its own."""
        self._flush()
        term = len(self.blocks) - 1
        self._walk(dd)
        self._flush()
        dt = _previous_element(dd)
        pair = self.blocks[term : term + 2] if term >= 0 else []
        if dt is not None and dt.tag == "dt" and len(pair) == 2 and all(isinstance(b, Paragraph) for b in pair) and pair[0].text.split() == dt.text().split():
            label, text = self.blocks[term].text, self.blocks[term + 1].text
            self.blocks[term : term + 2] = [Paragraph(f"{label}{'' if label[-1] in ':.?!' else ':'} {text}")]


def _previous_element(node):
    """The element before this one among its siblings (text between them skipped)."""
    node = node.prev
    while node is not None and node.tag.startswith("-"):
        node = node.prev
    return node


def _is_layout_table(table) -> bool:
    """A table used to lay out a page (old sites, e-mails) holds headings or other tables: read it as text."""
    # css() matches the element itself too: only what lies inside it counts.
    return any(node.mem_id != table.mem_id for node in table.css("table, h1, h2, h3, h4, h5, h6"))


def _table_rows(table) -> tuple[tuple[str, ...], ...]:
    rows = []
    for row in table.css("tr"):  # (a layout table holding tables is read as text, so these rows are its own)
        cells = [cell for cell in row.iter() if cell.tag in ("td", "th")]
        rows.append(tuple(_one_line(cell.text(separator=" ")) for cell in cells))
    return tuple(rows)
