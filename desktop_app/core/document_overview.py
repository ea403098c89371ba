"""The overview of one document, as stored and as shown: its outline and each section's central sentences.

Shared vocabulary (like types.py): storage keeps it, core/overview/ builds and reads it, the window and the CLI show it."""

from __future__ import annotations

from dataclasses import dataclass

from .types import Passage

# Where an outline came from (Overview.outline_source): what the panel says, and what the answer says it used.
PDF_OUTLINE = "outline"  # the PDF's (or EPUB's) own table of contents
HEADINGS = "headings"  # the headings of a Word or HTML file (the sections the import stored)
DETECTED = "detected"  # headings told apart by their type size, or Markdown's "#" lines
PAGE_RUNS = "pages"  # no headings at all: runs of pages stand in for sections
SOURCE_WORDS = {
    PDF_OUTLINE: "the file's own outline",
    HEADINGS: "its headings",
    DETECTED: "headings detected from the type",
    PAGE_RUNS: "runs of pages (no headings found)",
}


@dataclass(frozen=True)
class CentralSentence:
    """A sentence close to its section's mean meaning, with its place: a citation highlights just it."""

    text: str
    page: int  # the page (or Word/HTML section number) it is on
    start: int  # character offsets into that page's stored text
    end: int
    chunk_id: int  # a passage holding it: a citation opens the passage's page
    score: float  # cosine to the section's mean embedding


@dataclass(frozen=True)
class OverviewSection:
    position: int  # 0-based, in outline order
    level: int  # 1 for a chapter
    title: str
    page: int  # where it starts
    last_page: int  # where it (with its subsections) ends
    sentences: tuple[CentralSentence, ...]
    # Word and HTML: the stored section it sits in, as its passages are cited ("" before the first heading); None on pages.
    cited_section: str | None = None


@dataclass(frozen=True)
class Overview:
    document_id: int
    file: str  # the document's path
    title: str
    outline_source: str  # PDF_OUTLINE, HEADINGS, DETECTED or PAGE_RUNS
    sections: tuple[OverviewSection, ...]
    abstract: str = ""  # written by the LLM the first time someone asks about the document; "" until then

    def chapters(self) -> tuple[OverviewSection, ...]:
        """The top level of the outline (the smallest level it has)."""
        if not self.sections:
            return ()
        top = min(s.level for s in self.sections)
        return tuple(s for s in self.sections if s.level == top)

    def passage(self, section: OverviewSection, sentence: CentralSentence | None = None) -> Passage:
        """A central sentence as a passage (a citation highlights just it on its page), or a section's first page.
        Word and HTML sentences are cited by their stored section's heading, as their passages are (places.py)."""
        label = section.cited_section
        if sentence is None:
            return Passage(0, self.document_id, self.file, self.title, section.page, 0, 0, section.title, section=label)
        return Passage(
            sentence.chunk_id, self.document_id, self.file, self.title, sentence.page, sentence.start, sentence.end, sentence.text, section=label
        )

    def heading_path(self, section: OverviewSection) -> str:
        """The section's heading under the ones above it ("3 Utilities / 3.1 Invoking asn1Parser"), as the outline shows them."""
        path, level = [section.title], section.level
        for earlier in reversed(self.sections[: section.position]):
            if earlier.level < level:
                path.append(earlier.title)
                level = earlier.level
        return " / ".join(reversed(path))

    def subtree(self, section: OverviewSection) -> tuple[OverviewSection, ...]:
        """The section and every section under it, up to the next one of its level or above."""
        out = [section]
        for later in self.sections[section.position + 1 :]:
            if later.level <= section.level:
                break
            out.append(later)
        return tuple(out)


@dataclass(frozen=True)
class OverviewProgress:
    """The overview queue's progress, for the library panel and the CLI: `done` of `total` documents."""

    done: int
    total: int
    file: str = ""  # the document just finished ("" before the first)
    seconds: float = 0.0  # how long that document took
    pages: int = 0  # its pages (or sections)
    message: str = ""  # a document that failed: why (the queue goes on)

    @property
    def text(self) -> str:
        if self.done >= self.total:
            return f"Overviews ready for {self.total} document{'s' if self.total != 1 else ''}"
        return f"Overviews: {self.done} of {self.total} documents"
