"""The question in the documents' languages: when a library holds documents in another language than the question,
their words are not the question's, so keyword search finds nothing and the (English) embedding model little.
The local LLM is multilingual: it writes the question in the documents' language, and that is searched too."""

from __future__ import annotations

import re

from ..models.llm import Generator
from .query_parsing import clean_line

TRANSLATE_SYSTEM = (
    "Translate the user's question into {language}, as a search query for documents written in {language}. "
    "Keep names, numbers and codes exactly as written. Reply with the translation only."
)
_LABEL = r"^(?:\w+|[^:\"“„«]*\b{language}\b[^:\"“„«]*):\s+"  # "Translation:", "Übersetzung:", "asn1_check_version in German:"


def translation_messages(question: str, language: str) -> list[dict[str, str]]:
    return [{"role": "system", "content": TRANSLATE_SYSTEM.format(language=language)}, {"role": "user", "content": question}]


def in_language(generator: Generator, question: str, language: str, max_tokens: int = 64) -> str:
    """`question` written in `language` (an English name: "German"); "" when the model wrote nothing usable."""
    raw = generator.complete(translation_messages(question, language), max_tokens=max_tokens, temperature=0.0)
    for line in raw.splitlines():
        line = re.sub(_LABEL.format(language=re.escape(language)), "", clean_line(line)).strip().strip("\"'“”„«»")
        if line and line.casefold() != question.casefold():
            return line
    return ""
