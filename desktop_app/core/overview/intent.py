"""Is a question about a whole document? Decided without a model call: it names a document of the library
(or "my files") and asks for a whole-document answer.

    "What is <file> about?" / "Summarize <file>"          -> ABOUT
    "Summarize the router manual"                          -> ABOUT, the document the words describe (its topic)
    "Summarize chapter 6 of <file>"                        -> PART (the outline's chapter 6)
    "Summarize pages 10-12 of <file>"                      -> PAGES (those pages' central sentences; `page_summary`)
    "Which chapters does <file> have?"                     -> CONTENTS (the outline's chapters, with their pages)
    "Compare <file A> and <file B>"                        -> COMPARE
    "Which of my files covers <topic>?"                    -> WHICH (every overview ranked by the topic)

A document is named by its file name, the name without its extension, or its title, matched word by word
(\\w: any script). The intent is told by a few phrases per language (intent_phrases.py): a language
feature, the way stop words are, so any question in another language goes on to the passage search unchanged.
Anything else — a question about a fact inside a document, even one naming the file — is not routed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..document_names import MIN_NAME_CHARS, named_documents, without_names
from ..word_pieces import GLUED
from ..words import meaningful
from ..types import Document, QuestionFilters
from .intent_phrases import LANGUAGES, Phrases

ABOUT, PART, PAGES, CONTENTS, COMPARE, WHICH = "about", "part", "pages", "contents", "compare", "which"


@dataclass(frozen=True)
class WholeDocumentQuestion:
    kind: str  # ABOUT, PART, PAGES, CONTENTS, COMPARE or WHICH
    documents: tuple[int, ...]  # the documents it names, in the order named (WHICH: none)
    part: str = ""  # PART: the chapter's number or letter as written ("6", "A", "VI")
    topic: str = ""  # WHICH: the question without its "which of my files" words; ABOUT with no document: what describes it
    pages: tuple[int, int] = (0, 0)  # PAGES: the first and last page, as the question's page filter reads them

    @property
    def stands_alone(self) -> bool:
        """It names its documents, or the topic that chooses them: later in a chat it means what it says, with no
        reference for a rewrite to replace ("What is this document about?", "Which of my files covers it?" have one)."""
        return bool(self.documents or meaningful(self.topic))


@dataclass(frozen=True)
class Restated:
    """A sentence of a whole-document answer without what it restates of the question: the documents' file names and
    the part's phrase ("Chapter 2 of moths.pdf describes ..."). The key sentences it cites are that part of that
    document, which their text need not say (review.py's `unlocated`, as a page filter's "page 2 of X" is)."""

    names: tuple[str, ...]  # the documents' file names, with and without extension
    part: str = ""

    def __call__(self, claim: str) -> str:
        for name in sorted((n for n in self.names if len(n) >= MIN_NAME_CHARS), key=len, reverse=True):  # whole words: "a.pdf" takes no "a"
            claim = re.sub(rf"(?<![^\W{GLUED}]){re.escape(name)}(?![^\W{GLUED}])", " ", claim, flags=re.IGNORECASE)  # "R-intro.pdf第6章" too
        for phrases in LANGUAGES if self.part else ():
            claim = phrases.part.sub(lambda m: " " if m.group("ref").casefold() == self.part.casefold() else m.group(0), claim)
        return claim


def may_be_whole_document_question(question: str) -> bool:
    """Whether any language's phrases could make `question` a whole-document question: no document names are needed to
    tell an ordinary question ("What is the warranty of …?") from one, so a large library is not listed for it."""
    return any(p.summary.search(question) or p.about_at_end.search(question) or p.part.search(question)
               or p.compare.search(question) or p.which.search(question) or (p.contents and p.contents.search(question)) for p in LANGUAGES)


def classify(question: str, documents: Sequence[Document]) -> WholeDocumentQuestion | None:
    """The whole-document question this is, or None for an ordinary question (answered from passages)."""
    named = named_documents(question, documents)
    ids = tuple(dict.fromkeys(i for i, _, _ in named))
    rest = without_names(question, [d for d in documents if d.id in ids])
    for phrases in LANGUAGES:
        found = _classify_in(phrases, question, rest, ids)
        if found is not None:
            return found
    return None


def page_summary(filters: QuestionFilters, documents: Sequence[int]) -> WholeDocumentQuestion | None:
    """"Summarize pages 10-12 of X", "What are pages 3-4 of X about?": one run of pages of one document (`documents`:
    those the filters and the chosen scope leave) asked for whole, by a summary phrase or "about" closing what is left
    of the question without its filters. "What do pages 3-4 say about eggs?" asks a fact, searched in their passages."""
    if len(filters.pages) != 1 or len(documents) != 1:
        return None
    asks = any(p.summary.search(filters.searched) or p.about_at_end.search(filters.searched) for p in LANGUAGES)
    return WholeDocumentQuestion(PAGES, tuple(documents), pages=filters.pages[0]) if asks else None


def _classify_in(phrases: Phrases, question: str, rest: str, ids: tuple[int, ...]) -> WholeDocumentQuestion | None:
    if phrases.which.search(question) and phrases.covers.search(question):
        # The topic keeps any word that is also a file's name: "which file is about history" asks about history.
        topic = phrases.covers.sub(" ", phrases.which.sub(" ", question), count=1)
        topic = " ".join(re.sub(r"[^\w\s'-]", " ", topic).split())
        return WholeDocumentQuestion(WHICH, (), topic=topic) if re.search(r"\w", topic) else None
    if not ids:
        return _described(phrases, question)
    if len(ids) >= 2 and phrases.compare.search(rest):
        return WholeDocumentQuestion(COMPARE, ids[:2])
    part = phrases.part.search(rest)
    if len(ids) == 1 and part is not None and not meaningful(phrases.document.sub(" ", phrases.part.sub(" ", rest))):
        # "What is in section 2 of (the file) X?": the part is what is asked; a word for the document asks nothing more.
        return WholeDocumentQuestion(PART, ids, part=part.group("ref"))
    contents = phrases.contents.search(rest) if phrases.contents else None
    if len(ids) == 1 and contents is not None and not meaningful(phrases.document.sub(" ", phrases.contents_frame.sub(" ", phrases.contents.sub(" ", rest)))):
        # "Which chapters does X have?", "List the sections of X": its outline is what is asked; "Which sections of X
        # discuss Y?" asks more, and is searched in passages.
        return WholeDocumentQuestion(CONTENTS, ids)
    if len(ids) != 1 or not (phrases.summary.search(rest) or phrases.about_at_end.search(rest)):
        return None
    if part is not None:
        return WholeDocumentQuestion(PART, ids, part=part.group("ref"))
    return WholeDocumentQuestion(ABOUT, ids)


def _described(phrases: Phrases, question: str) -> WholeDocumentQuestion | None:
    """"Summarize the router manual", "What is this document about?": a summary of one document the question
    describes rather than names. ABOUT with no document; its topic ("router") chooses it among the overviews."""
    asks = phrases.summary.search(question) or phrases.about_at_end.search(question)
    noun = phrases.document.search(question)
    if not (asks and noun) or phrases.part.search(question):
        return None
    rest = phrases.document.sub(" ", phrases.about_at_end.sub(" ", phrases.summary.sub(_verb_around, question)))
    return WholeDocumentQuestion(ABOUT, (), topic=" ".join(meaningful(rest)))


def _verb_around(match: re.Match) -> str:
    """A summary phrase taken out of a question, but for what a verb in two parts holds ("fasse das Handbuch zusammen")."""
    words = match.group(0).split()
    return " " + " ".join(words[1:-1]) + " " if len(words) > 2 else " "
