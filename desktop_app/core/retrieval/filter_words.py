"""The words a question limits its search with, per language: the one table the filter grammar reads
(retrieval/question_filters.py). A language is added here, nowhere else.

Each entry is a list of regular-expression alternatives (matched case-insensitively, as whole words). The
grammar joins every language's words, so a question is read whatever language it is written in and a
language need not be detected first: "Seite 5" and "page 5" are both a page.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class FilterWords:
    language: str
    # Before a file or a file type: "in R-data.pdf", "from the manual" (not "of": "the price of paper" is no file).
    places: tuple[str, ...]
    page_places: tuple[str, ...]  # before a page: "on page 5" (besides the places)
    # Before a file name with its extension only: "pages 3-4 of R-data.pdf".
    owner_places: tuple[str, ...]
    # Between the place and the name: "in the file R-data.pdf", "in my PDFs".
    articles: tuple[str, ...]
    # What a file is called: "the Word files", "PDF documents".
    file_nouns: tuple[str, ...]
    page_words: tuple[str, ...]  # "page 5", "pages 10-20", "p. 5", "pp. 10-20"
    range_joiners: tuple[str, ...]  # "pages 10 to 20" ("-" and dashes join in every language)
    # A file format (its name in formats.py) -> what a person calls its files. Plural forms stand alone
    # ("my PDFs"); a singular needs a file noun after it ("the Word files"), since "word" is also a word.
    formats_alone: dict[str, tuple[str, ...]] = field(default_factory=dict)
    formats_before_noun: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # Before a file type, a file the question talks about rather than the library's files: "save it to a text file".
    indefinite: tuple[str, ...] = ()
    added: tuple[str, ...] = ()  # "documents added this week"
    since: tuple[str, ...] = ()  # with or without "added": "since 2026-11-01"
    after: tuple[str, ...] = ()  # only after "added": "added after 2026-11-01"
    before: tuple[str, ...] = ()  # only after "added": "added before 2026-11-01"
    # Periods relative to now (question_filters.PERIODS names them): "this week" -> "this_week".
    periods: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # "in the last 7 days": the number is read between these.
    last_days: tuple[str, str] = ("", "")


_FORMAT_NOUNS = {"PDF": ("pdf",), "Word": ("word", "docx"), "HTML": ("html", "web"), "EPUB": ("epub",), "text": ("text", "txt"), "Markdown": ("markdown", "md")}

ENGLISH = FilterWords(
    language="en",
    places=("in", "from", "within", "inside", "among"),
    page_places=("on", "at"),
    owner_places=("of",),
    articles=("the", "my", "our", "your", "all", "all the", "all my", "this", "that", "these", "those", "file", "document"),
    file_nouns=("files?", "documents?", "docs?", "pages", "books?", "manuals?"),
    page_words=("pages?", "pp?\\.?", "pg\\.?"),
    range_joiners=("to", "through", "until", "and"),
    formats_alone={"PDF": ("pdfs",), "EPUB": ("epubs",), "HTML": ("web pages",)},
    formats_before_noun=_FORMAT_NOUNS,
    indefinite=("a", "an", "another", "one"),
    added=("added", "imported", "uploaded"),
    since=("since",),
    after=("after", "on or after"),
    before=("before",),
    periods={
        "today": ("today",),
        "yesterday": ("yesterday",),
        "this_week": ("this week",),
        "last_week": ("last week",),
        "this_month": ("this month",),
        "last_month": ("last month",),
    },
    last_days=("in the (?:last|past)", "days"),
)

GERMAN = FilterWords(
    language="de",
    places=("in", "im", "aus", "innerhalb"),
    page_places=("auf", "von"),
    owner_places=("von", "vom"),
    articles=("der", "die", "das", "den", "dem", "des", "meinen?", "meiner", "unseren?", "allen?", "datei", "dokument"),
    file_nouns=("dateien", "datei", "dokumente[n]?", "dokument", "handbüchern", "handbuch"),
    page_words=("seiten?", "s\\."),
    range_joiners=("bis",),
    formats_alone={"PDF": ("pdfs",)},
    formats_before_noun={"PDF": ("pdf",), "Word": ("word",), "HTML": ("html",), "EPUB": ("epub",), "text": ("text",), "Markdown": ("markdown",)},
    indefinite=("eine[mnrs]?", "ein"),
    added=("hinzugefügt(?:en)?", "importiert(?:en)?"),
    since=("seit",),
    after=("nach",),
    before=("vor",),
    periods={
        "today": ("heute",),
        "yesterday": ("gestern",),
        "this_week": ("diese woche",),
        "last_week": ("letzte woche",),
        "this_month": ("diesen monat",),
        "last_month": ("letzten monat",),
    },
    last_days=("in den letzten", "tagen"),
)

LANGUAGES: tuple[FilterWords, ...] = (ENGLISH, GERMAN)
