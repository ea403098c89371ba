"""Which language a text is written in, and the library's: so a question asked in one language can also be
searched in the language of the documents (issue 34).

py3langid (a fork of langid.py: a naive Bayes model over byte n-grams, 97 languages, numpy only, a 4 MB
wheel) reads any script without word lists. A document's language is read once, at import, from its first
pages; a question's is compared with the library's, and since a short question is easy to misread, it is
taken to be in another language only when that language is its likeliest and the library's is unlikely.
"""

from __future__ import annotations

import functools
import threading
import unicodedata
from collections.abc import Collection, Iterable

# Enough text to tell a language reliably; more only costs time (the model reads bytes one by one).
SAMPLE_CHARS = 4000
# A question is searched in the documents' language too when that language is less likely than this for it.
OTHER_LANGUAGE_BELOW = 0.5
# A question is also searched in each language holding at least this share of the library's documents or of its
# passages: one datasheet among thirty manuals is 3% of the documents (and far less of the passages); the documents
# the identifier misreads (a short page read as another language) are 0.03% of the 10,033-article dev library.
# Chosen from that, not tuned.
NOTABLE = 0.02
# At most this many languages besides the question's, the largest first: each is one more model call.
MOST_TRANSLATIONS = 2

# A question is answered in its own language when that language holds at least this share of the likelihood the
# identifier gives the languages named below (chosen on tune-half questions: 0 of 954 English ones read as another
# language, 29 of 31 German and 15 of 15 Chinese ones read right; at 0.5 one English question was misread).
SURE = 0.8
# A question the passages it is answered from confirm: its likeliest language need only hold most of the likelihood
# when a passage is in that language. The identifier splits Russian with Ukrainian ("Какая мощность у чайника?" is
# 0.77 Russian), as it splits Chinese with Wu; a passage in the same language is the second witness.
MOST_LIKELY = 0.5

# The names the query prompt uses for a language (ISO 639-1 code -> its English name), for the languages
# most libraries hold; a library in another language is searched as before.
LANGUAGE_NAMES = {
    "ar": "Arabic", "cs": "Czech", "da": "Danish", "de": "German", "el": "Greek", "en": "English", "es": "Spanish",
    "fi": "Finnish", "fr": "French", "he": "Hebrew", "hu": "Hungarian", "it": "Italian", "ja": "Japanese",
    "ko": "Korean", "nl": "Dutch", "no": "Norwegian", "pl": "Polish", "pt": "Portuguese", "ro": "Romanian", "ru": "Russian",
    "sv": "Swedish", "tr": "Turkish", "uk": "Ukrainian", "zh": "Chinese",
}  # fmt: skip

_lock = threading.Lock()


@functools.cache
def _identifier():
    from py3langid.langid import MODEL_FILE, LanguageIdentifier  # late: unpacking the model takes 1 to 3 s

    return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)


def preload() -> None:
    """Unpack the model on a background thread (lzma lets the others run meanwhile), so the question that needs
    it finds it ready: started when a question begins, it is ready by the time its queries are written."""
    if _identifier.cache_info().currsize == 0:
        threading.Thread(target=_loaded, name="language model", daemon=True).start()


def _loaded() -> None:
    with _lock:
        _identifier()


def _probabilities(text: str) -> dict[str, float]:
    with _lock:  # one identifier, shared by the import and the question threads
        return dict(_identifier().rank(text[:SAMPLE_CHARS]))


def _likeliest(probabilities: dict[str, float]) -> str:
    return max(probabilities, key=probabilities.__getitem__)


def _too_short(text: str) -> bool:
    """Fewer than 20 bytes of letters: the identifier reads bytes, and a Chinese character is three of them in UTF-8
    (a Chinese question of eight characters says as much as an English one of twenty-four letters)."""
    return sum(len(ch.encode()) for ch in text[:SAMPLE_CHARS] if ch.isalpha()) < 20


def detect_language(text: str) -> str | None:
    """The ISO 639-1 code of the language `text` is mostly written in; None when it has too few letters to tell."""
    return None if _too_short(text) else _likeliest(_probabilities(text))


def likeliest_among(text: str, candidates: Collection[str]) -> str | None:
    """The likeliest of `candidates` for `text`, however short (None when the identifier knows none of them)."""
    probabilities = _probabilities(text)
    return max((language for language in probabilities if language in candidates), key=probabilities.__getitem__, default=None)


def sample(texts: Iterable[str]) -> str:
    """The first SAMPLE_CHARS characters of a document's pages, the text its language is read from."""
    out = ""
    for text in texts:
        out += text + "\n"
        if len(out) >= SAMPLE_CHARS:
            break
    return out[:SAMPLE_CHARS]


@functools.lru_cache(maxsize=512)  # the review asks of each claim and its passages, often the same ones
def question_language(question: str) -> str | None:
    """The language `question` is surely written in, among those LANGUAGE_NAMES names; None when no named language
    holds SURE of their likelihood (the identifier splits Chinese with Wu and Cantonese, which a prompt does not name).
    However short: a short question in a script many languages write rarely reaches SURE ("Warranty?"; none of the 61
    tune-half questions under 20 bytes of letters was read as another language than English), one in a script few
    languages write does ("保修期多久？", six characters, was answered in English when its length alone said "too short")."""
    return _likeliest_named(question, SURE)


def language_clause(question: str, passages: Iterable[str] | None, what: str = "the answer") -> str:
    """" Write the answer in German." (`what`) for a question asked in a language other than English (surely, or
    most likely with a passage in it: MOST_LIKELY) when a passage the model reads is in that language (`passages` None: whatever it reads, as a follow-up's rewrite); "" otherwise. The answer prompts are in English, and the 1.5B model answered a
    Japanese question over a Japanese leaflet in English. Over passages all in other languages, the prompt is left
    alone: asked to write German over English passages, the 1.5B model answered worse (tune: right 0.96 -> 0.89,
    refused 0.04 -> 0.11, docs/filters-and-languages.md). An English question's prompt stays as it was."""
    passages = None if passages is None else list(passages)
    language = question_language(question) or (_likeliest_named(question, MOST_LIKELY) if passages else None)
    if language in (None, "en") or (passages is not None and all(detect_language(text) != language for text in passages)):
        return ""  # an English question (most) reads no passage's language
    return f" Write {what} in {LANGUAGE_NAMES[language]}."


def _likeliest_named(text: str, share: float) -> str | None:
    """The language LANGUAGE_NAMES names that holds at least `share` of the likelihood they are given for `text`."""
    probabilities = {language: p for language, p in _probabilities(text).items() if language in LANGUAGE_NAMES}
    total = sum(probabilities.values())
    language = _likeliest(probabilities) if total else None
    return language if language and probabilities[language] >= share * total else None


def different_languages(text: str, other: str) -> bool:
    """Are the two texts surely in two different languages (each sure by question_language)?"""
    return None not in (mine := question_language(text), theirs := question_language(other)) and mine != theirs


def different_scripts(text: str, other: str) -> bool:
    """Are the two texts written mostly in two different scripts? Surer than the identifier when a text mixes in a
    name in another script: "Что написано на странице 3 в Teplodar-TK3.pdf?" is no sure language to it."""
    return None not in (mine := script(text), theirs := script(other)) and mine != theirs


# Japanese writes one sentence in three scripts: they count as one.
_SCRIPT_FAMILIES = {"HIRAGANA": "CJK", "KATAKANA": "CJK", "KATAKANA-HIRAGANA": "CJK", "HALFWIDTH": "CJK"}


def script(text: str) -> str | None:
    """The script most of `text`'s letters are written in ("LATIN", "CYRILLIC", "CJK", ...: the first word of their
    Unicode names); None without letters."""
    counts: dict[str, int] = {}
    for ch in text:
        if ch.isalpha():
            name = unicodedata.name(ch, "").split(" ", 1)[0]
            family = _SCRIPT_FAMILIES.get(name, name)
            counts[family] = counts.get(family, 0) + 1
    return max(counts, key=counts.__getitem__) if counts else None


def other_languages(question: str, library_languages: Iterable[str]) -> list[str]:
    """The library's languages (`notable`, largest first) `question` is not written in, at most MOST_TRANSLATIONS.

    Another language must be the question's likeliest, and the library's unlikely: a short question in the
    library's own language is often read as some third language, and then costs a translation for nothing. So a
    question too short for that must be surely in its language (`question_language`): "Wie kann ich R zitieren?"
    (19 bytes of letters) over English manuals was searched only as written, found nothing close by meaning in the
    English embedder's eyes, and was refused unasked."""
    wanted = [language for language in library_languages if language in LANGUAGE_NAMES]
    if not wanted:
        return []
    if _too_short(question):
        sure = question_language(question)
        return [language for language in wanted if sure is not None and language != sure][:MOST_TRANSLATIONS]
    probabilities = _probabilities(question)
    likeliest = _likeliest(probabilities)
    others = [language for language in wanted if language != likeliest and probabilities.get(language, 0.0) < OTHER_LANGUAGE_BELOW]
    return others[:MOST_TRANSLATIONS]


def notable(held: dict[str | None, tuple[int, int]]) -> list[str]:
    """The languages of at least NOTABLE of the documents or of the passages (language -> (documents, passages)),
    the most passages first."""
    documents, passages = (sum(counts) for counts in zip(*held.values())) if held else (0, 0)
    known = sorted(((n, d, language) for language, (d, n) in held.items() if language), reverse=True)
    return [language for n, d, language in known if d >= NOTABLE * documents or n >= NOTABLE * passages]
