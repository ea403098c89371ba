"""Turn a small model's messy list of search queries into clean, distinct queries."""

from __future__ import annotations

import re

_PREAMBLE = re.compile(
    r"^(here (are|is)|sure|certainly|okay|ok\b|of course|the following|below are|i (have|will|would)|these are|"
    r"search queries|queries|output|answer)\b",
    re.IGNORECASE,
)
_LIST_MARK = re.compile(r"^\s*(?:[-*\u2022\u2013>]+|[(\[]?\d{1,2}[.):\]]|\(?[a-zA-Z][.)](?=\s)|q\d+[:.)]|query\s*\d*\s*[:.)-])\s*", re.IGNORECASE)
_QUOTES = "\"'`\u201c\u201d\u2018\u2019"
_MAX_QUERY_CHARS = 200
# Asked about a yes/no question, a small model sometimes answers it ("Yes, you can paint the shed green.")
# instead of naming what to look up; searching its guess would fetch passages that agree with the guess.
_ANSWER = re.compile(r"^(yes|no)\s*([,.!]|$)", re.IGNORECASE)  # not the band Yes, not "No Doubt"
_SENTENCE_WORDS = 6  # a line of this many words or more ending in a full stop is a statement, not a query


def normalize(text: str) -> str:
    return re.sub(r"[^\w]+", " ", text.lower()).strip()


def clean_line(line: str) -> str:
    line = line.strip()
    line = re.sub(r"^#+\s*", "", line)  # markdown headings
    line = line.replace("**", "").replace("__", "")
    for _ in range(2):  # "1. - query" happens
        line = _LIST_MARK.sub("", line, count=1).strip()
    line = line.strip(_QUOTES).strip()
    line = line.rstrip(",;").strip().strip(_QUOTES).strip()
    return line


def parse_queries(raw: str, question: str, limit: int) -> list[str]:
    """Strip numbering, bullets, quotes and preambles; drop duplicates and echoes of the question; cap."""
    seen = {normalize(question)}
    queries: list[str] = []
    for line in raw.replace("\r", "\n").split("\n"):
        query = clean_line(line)
        if not query or len(query) < 2:  # "K2" is a name
            continue
        # "Here are 4 search queries:" and headings are not queries.
        if query.endswith(":") or (_PREAMBLE.match(query) and re.search(r"quer|search", query, re.IGNORECASE)):
            continue
        if len(query) > _MAX_QUERY_CHARS:
            continue  # rambling prose, not a query
        if _ANSWER.match(query) or (query.endswith(".") and len(query.split()) >= _SENTENCE_WORDS):
            continue  # the model's answer, not a query
        key = normalize(query)
        if not key or key in seen:
            continue
        seen.add(key)
        queries.append(query)
        if len(queries) >= limit:
            break
    return queries
