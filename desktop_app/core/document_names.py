"""Which documents a question names: by file name, the name without its extension, or title, matched word by word
(\\w: any script; a character of a script written without spaces is a word), so "Summarize the router manual" and "the -y option of <tool>" name theirs in any language."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from .stopwords import FUNCTION_WORDS
from .types import Document
from .word_pieces import SPACELESS, is_spaceless

MIN_NAME_CHARS = 3  # a one-word name shorter than this ("R", "a") is too easily found by chance


# A character of a script written without spaces is a word of its own, so a name is found glued to the words around it
# ("总结R-data.pdf", "说明书.pdf的") and inside a run of such characters ("总结净化器说明书").
_WORD = re.compile(rf"[{SPACELESS}]|[^\W{SPACELESS}]+")


def _words(text: str) -> list[str]:
    return _WORD.findall(text.casefold())


def document_names(document: Document, titles: bool = True) -> list[list[str]]:
    """The word sequences that name a document: its file name, the name without extension, its title (with `titles`)."""
    return [list(name) for name in _cached_names(document.path, document.title if titles else None)]


# Names are read for every document on every question: kept for a library of up to CACHED_DOCUMENTS (about 15 MB for
# 10,000 documents); a larger one reads them each time, as a cache it cannot hold would only churn.
CACHED_DOCUMENTS = 16_384


@functools.lru_cache(maxsize=2 * CACHED_DOCUMENTS)  # with and without titles
def _cached_names(path: str, title: str | None) -> tuple[tuple[str, ...], ...]:
    return _names(path, title)


def _names(path: str, title: str | None) -> tuple[tuple[str, ...], ...]:
    file = Path(path)
    names: list[tuple[str, ...]] = []
    for name in (file.name, file.stem) if title is None else (file.name, file.stem, title):
        words = tuple(_words(name))
        if not words or words in names:
            continue
        if len(words) == 1 and (len(words[0]) < MIN_NAME_CHARS or words[0] in FUNCTION_WORDS):
            continue
        if len(words) < MIN_NAME_CHARS and all(is_spaceless(w) for w in words):  # "手册" (manual): a common word
            continue
        names.append(words)
    return tuple(names)


def _find(words: Sequence[str], name: Sequence[str]) -> int:
    """Where the word sequence `name` starts in `words`; -1 if absent."""
    n = len(name)
    for i in range(len(words) - n + 1):
        if tuple(words[i : i + n]) == tuple(name):
            return i
    return -1


def named_documents(question: str, documents: Iterable[Document], titles: bool = True) -> list[tuple[int, int, int]]:
    """(document id, first word, word after) of each document the question names, in the order named; of two
    names that overlap ("R-intro" inside "R-intro-extra") the longer wins. `titles` False: by file name only."""
    words = _words(question)
    present = set(words)
    found: list[tuple[int, int, int]] = []
    documents = list(documents)
    names_of = _cached_names if len(documents) <= CACHED_DOCUMENTS else _names
    for document in documents:
        if document.kind != "text":
            continue
        names = names_of(document.path, document.title if titles else None)
        spans = [(at, at + len(name)) for name in names if name[0] in present and (at := _find(words, name)) >= 0]
        if spans:
            start, end = min(spans, key=lambda s: (s[0], -(s[1] - s[0])))
            found.append((document.id, start, end))
    kept = [f for f in found if not any(o != f and o[1] <= f[1] and f[2] <= o[2] and (o[2] - o[1]) > (f[2] - f[1]) for o in found)]
    # Words naming two documents at once (two files called manual.html) name neither: they describe, and the
    # question's other words ("the ninja manual") choose among the documents, as for a document not named at all.
    shared = {(start, end) for _, start, end in kept if sum((s, e) == (start, end) for _, s, e in kept) > 1}
    return sorted((f for f in kept if (f[1], f[2]) not in shared), key=lambda f: f[1])


def without_names(question: str, documents: Iterable[Document], titles: bool = True) -> str:
    """The question with the documents' names (`document_names`) taken out where they stand as whole words, so a name
    is not read as a phrase and a longer word holding one ("concatenate" holding "cat") stays whole."""
    found = list(_WORD.finditer(question))
    words = [m.group().casefold() for m in found]
    spans = []
    for document in documents:
        for name in document_names(document, titles):
            at = 0
            while (start := _find(words[at:], name)) >= 0:
                start += at
                spans.append((found[start].start(), found[start + len(name) - 1].end()))
                at = start + len(name)
    merged: list[list[int]] = []  # a file name and its stem overlap ("tool.html", "tool"): one span
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    for start, end in reversed(merged):
        question = question[:start] + " " + question[end:]
    return question


def named_files(question: str, paths: Iterable[str]) -> list[Document]:
    """The files among `paths` that the question names by file name (with or without its extension), as documents."""
    files = [Document(i, path, "", 0, 0, "") for i, path in enumerate(dict.fromkeys(paths))]
    return [files[i] for i, _, _ in named_documents(question, files, titles=False)]
