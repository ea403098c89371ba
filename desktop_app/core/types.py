"""Typed results shared by the engine, the CLI and the window."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .formats import PAGE, ROW, format_of
from .navigation_text import is_navigation


@dataclass(frozen=True)
class PageText:
    """A page of text; in a format without pages (Word, HTML), one heading's section, numbered in document order."""

    number: int  # 1-based, as a person counts pages
    text: str
    ocr: bool = False
    # The section's heading ("3.2 Warranty"; "" for text before the first heading); None on a real page.
    section: str | None = None


@dataclass(frozen=True)
class ChunkDraft:
    """A chunk before it is stored: where it sits on its page, so the passage can be highlighted."""

    page: int
    start: int  # character offsets into the page's text
    end: int
    text: str
    kind: str = "text"  # "text" or "table" (a Markdown table from the page's ruled grid)
    bbox: tuple[float, float, float, float] | None = None  # a table's area on its page: what the viewer highlights
    # Mostly lines its document repeats on many pages (a notice, a footer block; repeated_text.py): judged from
    # the whole document, so set by the importer, not by the chunk's own text.
    boilerplate: bool = False

    @property
    def navigation(self) -> bool:
        """Index or contents entries by their shape (navigation_text.py), or repeated boilerplate: found by
        keyword only, kept out of the vector index and the fused passages (stored as chunks.navigation)."""
        return self.kind == "text" and (self.boilerplate or is_navigation(self.text))


@dataclass(frozen=True)
class Document:
    id: int
    path: str
    title: str
    pages: int
    chunks: int
    status: str
    error: str | None = None
    kind: str = "text"  # "text" (PDF, .txt, .md: passages) or "table" (CSV/Excel: SQLite tables, asked with SQL)
    rows: int = 0  # a table document's rows, over all its tables

    @property
    def unit(self) -> str:
        """What `pages` counts: "page", "section" (Word, HTML) or, for a table document, its tables' "row"s."""
        if self.kind == "table":
            return ROW
        found = format_of(Path(self.path))
        return found.unit if found else PAGE

    @property
    def label(self) -> str:
        """How the library lists it: its title and its file name ("Tales of a Town — town.epub"), or the file name
        alone when the title is only the name without its extension (the file had no title of its own)."""
        name = Path(self.path).name
        title = " ".join(self.title.split())
        return name if not title or title in (name, Path(self.path).stem) else f"{title} — {name}"


@dataclass(frozen=True)
class DocumentName:
    """What a file named in a question is matched against (retrieval/question_filters.py)."""

    id: int
    path: str
    title: str
    added_at: str = ""  # UTC "YYYY-MM-DD HH:MM:SS", as SQLite's datetime('now') wrote it


# The kinds of filter a question can state (FilterPart.kind).
FILE, PAGES, FORMAT, ADDED = "file", "pages", "format", "added"


@dataclass(frozen=True)
class FilterPart:
    """One filter the question states, with the words that state it."""

    kind: str  # FILE, PAGES, FORMAT or ADDED
    phrase: str  # as written in the question: left out of the searched text
    label: str  # what its chip says: "R-data.pdf", "pages 10-20", "Word files", "added this week"
    documents: tuple[int, ...] = ()  # FILE: the documents of that name (none: the library has no such file)
    pages: tuple[int, int] = (0, 0)  # PAGES: first and last, 1-based, as the page view counts them
    format: str = ""  # FORMAT: a format's name in formats.py ("PDF", "Word")
    added_after: str = ""  # ADDED: UTC bounds as documents.added_at is written ("" = open)
    added_before: str = ""


@dataclass(frozen=True)
class QuestionFilters:
    """The question's filters: what they were read from, the text searched without them, and those removed."""

    text: str  # the question the filters were read from (a follow-up's standalone rewrite)
    searched: str  # the text without the filters' words: what is searched and answered
    parts: tuple[FilterPart, ...] = ()
    ignored: tuple[str, ...] = ()  # phrases the person removed as filters: searched as words again

    @property
    def unknown_files(self) -> tuple[str, ...]:
        return tuple(p.label for p in self.parts if p.kind == FILE and not p.documents)

    @property
    def pages(self) -> tuple[tuple[int, int], ...]:
        return tuple(p.pages for p in self.parts if p.kind == PAGES)

    @property
    def limits_documents(self) -> bool:
        return any(p.kind != PAGES for p in self.parts)

    def documents(self, library: Sequence[DocumentName], allowed: Sequence[int] | None) -> list[int] | None:
        """The documents searched: the allowed ones (None: all) that every kind of filter admits.

        Files named and formats named each admit their union ("in a.pdf or b.pdf"); dates bound the rest.
        None when nothing limits the documents."""
        if not self.limits_documents:
            return None if allowed is None else list(allowed)
        kept = [d for d in library if allowed is None or d.id in set(allowed)]
        files = {i for p in self.parts if p.kind == FILE for i in p.documents}
        if any(p.kind == FILE for p in self.parts):
            kept = [d for d in kept if d.id in files]
        formats = {p.format for p in self.parts if p.kind == FORMAT}
        if formats:
            kept = [d for d in kept if (found := format_of(d.path)) is not None and found.name in formats]
        for part in (p for p in self.parts if p.kind == ADDED):
            kept = [d for d in kept if (not part.added_after or d.added_at >= part.added_after) and (not part.added_before or d.added_at < part.added_before)]
        return [d.id for d in kept]

    def without(self, phrase: str) -> tuple[str, ...]:
        """The ignored phrases once this part's is removed too (what a chip's removal re-asks with)."""
        return (*self.ignored, phrase)


@dataclass(frozen=True)
class Passage:
    chunk_id: int
    document_id: int
    file: str  # the document's path
    title: str
    page: int
    start: int
    end: int
    text: str
    ocr: bool = False  # the page's text came from OCR, so it may hold recognition errors
    kind: str = "text"  # "table": the text is a Markdown table, cited as "table on page N"
    bbox: tuple[float, float, float, float] | None = None
    section: str | None = None  # Word and HTML: the heading the passage sits under (`page` numbers the sections)


@dataclass(frozen=True)
class Location:
    """Another place a passage's text was found: an overlapping chunk, or a copy of the file under another name."""

    chunk_id: int
    document_id: int
    file: str
    page: int
    kind: str = "text"
    section: str | None = None

    @classmethod
    def of(cls, passage: Passage) -> Location:
        return cls(passage.chunk_id, passage.document_id, passage.file, passage.page, passage.kind, passage.section)


@dataclass(frozen=True)
class SearchHit:
    chunk_id: int
    rank: int  # 1-based
    score: float  # cosine similarity for vector lists, bm25-based for keyword lists


@dataclass(frozen=True)
class RankedList:
    query: str
    kind: str  # "vector" or "keyword"
    hits: tuple[SearchHit, ...]
    weight: float = 1.0

    @property
    def key(self) -> str:
        return self.query if self.kind == "vector" else f"{self.kind}: {self.query}"


@dataclass(frozen=True)
class FusedHit:
    chunk_id: int
    rrf_score: float
    ranks: dict[str, int]  # list key -> 1-based rank; lists that missed it are absent


@dataclass(frozen=True)
class Source:
    """A fused passage with everything the side panel shows about it."""

    n: int  # 1-based position in the fused list; also the citation number when in the prompt
    passage: Passage
    rrf_score: float
    ranks: dict[str, int]
    similarity: float  # cosine similarity of this passage to the question (what the "not found" gate judges)
    # The same text found elsewhere (retrieval/duplicates.py): one row of the fused list shows every place.
    also: tuple[Location, ...] = ()


@dataclass(frozen=True)
class Citation:
    n: int
    file: str
    page: int
    text: str
    chunk_id: int
    start: int
    end: int
    supported: bool = True  # False when the cited sentence is not backed by the passage
    reason: str = ""  # why it may not be (answers/grounding.py: what the passage lacks), for the warning
    ocr: bool = False  # the cited text was read by OCR from a scanned page
    kind: str = "text"  # "table": cited as "table on page N"
    bbox: tuple[float, float, float, float] | None = None
    section: str | None = None  # Word and HTML: cited as "section 3.2 Warranty" (places.py)
    also: tuple[Location, ...] = ()  # the same text's other places (Source.also)

    @classmethod
    def from_passage(cls, n: int, passage: Passage, also: tuple[Location, ...] = ()) -> Citation:
        """[n] citing a passage: where it sits and its text, so the citation is shown without the library."""
        return cls(
            n=n, file=passage.file, page=passage.page, text=passage.text, chunk_id=passage.chunk_id, start=passage.start,
            end=passage.end, ocr=passage.ocr, kind=passage.kind, bbox=passage.bbox, section=passage.section, also=also,
        )


@dataclass(frozen=True)
class Quote:
    """A sentence from the user's documents shown before the answer: what the model will read, with its place.

    `citation.n` is the number of its passage in the answer prompt ([n] in the answer); `citation.text` is the
    sentence alone and `start`/`end` its characters on the page, so a click highlights just the sentence."""

    citation: Citation
    score: float  # closeness to the question or to a generated query: cosine, plus shared words (evidence.QUOTE_WORDS); orders the quotes
    name: str = ""  # the named thing it is evidence for ("" when it answers the question as a whole)


@dataclass(frozen=True)
class Timings:
    query_generation: float = 0.0
    embedding: float = 0.0
    retrieval: float = 0.0
    fusion: float = 0.0
    rerank: float = 0.0
    evidence: float = 0.0  # choosing the sentences the model reads (retrieval/evidence.py)
    first_evidence: float = 0.0  # from the question to the first quotes on screen (EvidenceSelected, a first look or the fused)
    fused_evidence: float = 0.0  # from the question to the fused evidence's quotes, what the model reads
    prompt_processing: float = 0.0
    first_token: float = 0.0
    generation: float = 0.0
    review: float = 0.0  # the grounding check of the finished answer (answers/review.py), after the last token; in total
    total: float = 0.0
    # Waiting for the model to load before the question could start (the window asks while it loads); in total.
    model_wait: float = 0.0

    @classmethod
    def with_answer(cls, started: float, answer_started: float, first_token_at: float | None, end: float, **stages: float) -> "Timings":
        """The search stages as measured, plus the answer's phases derived from its clock readings."""
        return cls(
            **stages,
            prompt_processing=(first_token_at - answer_started) if first_token_at else 0.0,
            first_token=(first_token_at - started) if first_token_at else 0.0,
            generation=(end - first_token_at) if first_token_at else 0.0,
            total=end - started + stages.get("review", 0.0),
        )


@dataclass(frozen=True)
class AskResult:
    question: str
    mode: str
    queries: tuple[str, ...]  # generated queries kept (the question itself not included)
    dropped_queries: tuple[str, ...]
    lists: tuple[RankedList, ...]
    rrf_k: float
    sources: tuple[Source, ...]  # the fused list, best first
    context: tuple[Source, ...]  # the passages given to the model, numbered [1]..[n]
    answer: str
    citations: tuple[Citation, ...]
    found: bool  # False when the documents do not answer the question
    timings: Timings
    notices: tuple[str, ...] = field(default_factory=tuple)
    standalone_question: str = ""  # a follow-up rewritten from the chat history; what was searched
    # Questions about tables (mode "sql"): every query run, the last one answered; empty for passage answers.
    sql_runs: tuple[SqlResult, ...] = ()
    chart: ChartSpec | None = None  # when the question asked for a chart of the result
    # The sentences shown before the answer (EvidenceSelected), each citing its passage in `context`.
    quotes: tuple[Quote, ...] = ()
    # The filters the question stated ("in R-data.pdf", "on pages 3-4"): applied to the search, shown as chips.
    filters: QuestionFilters | None = None
    # A whole-document question answered from overviews, not passages: what was used, in words
    # ("Answered from the outline of R-intro.pdf, 6 Lists and data frames (pages 26–33)"); "" for passage answers.
    answered_from: str = ""

    @property
    def weights(self) -> dict[str, float]:
        return {lst.key: lst.weight for lst in self.lists}


@dataclass(frozen=True)
class SqlResult:
    """One SQL query the LLM wrote, as it ran on the user's tables (read-only)."""

    sql: str
    columns: tuple[str, ...] = ()
    rows: tuple[tuple[object, ...], ...] = ()
    elapsed: float = 0.0  # seconds the query ran
    error: str = ""  # why it failed ("" when it ran)
    truncated: bool = False  # more rows than the cap; only the first ones are kept

    @property
    def ok(self) -> bool:
        return not self.error


@dataclass(frozen=True)
class ParsedTable:
    """One sheet or CSV file, typed, before it is stored."""

    source_name: str  # "sales.csv" or "report.xlsx: Q1"
    base_name: str  # what the SQL table name is derived from
    columns: tuple[str, ...]  # sanitized, unique
    headers: tuple[str, ...]  # as written in the file
    types: tuple[str, ...]  # "INTEGER", "REAL" or "TEXT"
    rows: tuple[tuple[object, ...], ...]


@dataclass(frozen=True)
class TableInfo:
    """A stored table and the document it came from (the catalog's row)."""

    document_id: int
    name: str
    source_name: str
    rows: int
    columns: tuple[str, ...]


@dataclass(frozen=True)
class ChartSpec:
    """A chart of a query result: one bar or point per row."""

    kind: str  # "bar" or "line"
    label_column: str
    value_column: str
    labels: tuple[str, ...]
    values: tuple[float, ...]


@dataclass(frozen=True)
class ImportProgress:
    """One step of an import: the UI shows a bar per file."""

    file: str
    # "queued" "extracting" "searchable" (stored, found by keyword) "embedding" "ready" "skipped" "failed" "cancelled";
    # "removed" (a watched folder's file was deleted or moved away, so its document left the library);
    # "warning" (file = data folder: the index file could not be saved);
    # "indexing" (file = "": the one embedding queue of the whole library, done/total passages, seconds_left)
    stage: str
    done: int = 0  # pages (or chunks while embedding)
    total: int = 0
    message: str = ""
    document_id: int | None = None
    unit: str = "pages"  # what done/total count when ready: "pages", or "rows" for a CSV/Excel table
    seconds_left: float | None = None  # "indexing": the estimate, from this run's passages per second


@dataclass(frozen=True)
class IndexBacklog:
    """How much of the library is not yet in the meaning (vector) index: found by keyword only until it is."""

    pending: int  # passages still without a vector
    total: int  # passages in the library
