"""A question in another language than the library's is also searched in the library's: the model writes it so.

Made-up German documents (an invented town, Wendelsried), imported for real; the models are fakes, so the
test pins the mechanism (when the translation is asked for, and that keyword search then finds the page).
"""

from __future__ import annotations

import pytest

from desktop_app.core.events import AnswerDone
from desktop_app.core.languages import detect_language, mostly, other_language
from desktop_app.core.library import Library
from tests.fakes import HashingEmbedder, ScriptedGenerator

POOL = "# Freibad Wendelsried\n\nDas Freibad Wendelsried öffnet im Juli schon um halb sieben. Erwachsene zahlen fünf Euro, Kinder nichts.\n"
BAKERY = "# Bäckerei Wendelsried\n\nDie Bäckerei an der Mühlgasse von Wendelsried backt jeden Morgen Roggenbrot. Sonntags bleibt sie geschlossen, außer vor Feiertagen.\n"
QUESTION = "When does the outdoor swimming pool in Wendelsried open?"
TRANSLATED = "Wann öffnet das Freibad in Wendelsried?"


def make_library(home, folder, files: dict[str, str], generator: ScriptedGenerator) -> Library:
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    library = Library(home, embedder=HashingEmbedder(), generator=generator)
    list(library.import_paths(sorted(folder.iterdir())))
    return library


def test_languages_are_read_from_the_text_in_any_script():
    assert detect_language(POOL) == "de"
    assert detect_language("Это руководство описывает насос и его обслуживание.") == "ru"
    assert detect_language("PX-40") is None  # too few letters to tell
    assert other_language(QUESTION, "de") == "de"
    assert other_language(TRANSLATED, "de") is None
    assert other_language(QUESTION, "en") is None
    assert mostly({"de": 30, "en": 10, None: 5}) == "de" and mostly({"de": 10, "en": 10}) is None


def test_an_english_question_over_german_documents_is_also_searched_in_german(data_home, tmp_path):
    generator = ScriptedGenerator(["Wendelsried outdoor swimming pool: opening time", TRANSLATED])
    library = make_library(data_home, tmp_path / "docs", {"freibad.md": POOL, "baeckerei.md": BAKERY}, generator)
    try:
        assert library.store.passages_by_language() == {"de": 2}
        result = next(e for e in library.ask(QUESTION, mode="fusion", generate_answer=False) if isinstance(e, AnswerDone)).result
        assert "German" in generator.prompts[1][0]["content"] and generator.prompts[1][-1]["content"] == QUESTION
        assert TRANSLATED in result.queries
        german = next(lst for lst in result.lists if lst.kind == "keyword" and lst.query == TRANSLATED)
        assert library.passage(german.hits[0].chunk_id).file.endswith("freibad.md")
    finally:
        library.close()


@pytest.mark.parametrize("question, files, setting", [
    (TRANSLATED, {"freibad.md": POOL, "baeckerei.md": BAKERY}, True),  # already in the documents' language
    (QUESTION, {"pool.md": "# Wendelsried pool\n\nThe outdoor pool of Wendelsried opens at half past six in July; adults pay five euros.\n"}, True),
    (QUESTION, {"freibad.md": POOL, "baeckerei.md": BAKERY}, False),  # turned off in Settings
])  # fmt: skip
def test_no_translation_is_asked_for_when_the_languages_match_or_it_is_off(data_home, tmp_path, question, files, setting):
    generator = ScriptedGenerator(["Wendelsried: opening time", "SHOULD NOT BE ASKED"])
    library = make_library(data_home, tmp_path / "docs", files, generator)
    library.settings = library.settings.replace(document_language_queries=setting)
    try:
        result = next(e for e in library.ask(question, mode="fusion", generate_answer=False) if isinstance(e, AnswerDone)).result
        assert len(generator.prompts) == 1 and "SHOULD NOT BE ASKED" not in result.queries
    finally:
        library.close()


def test_an_older_library_gets_its_documents_languages_read_when_asked(data_home, tmp_path):
    generator = ScriptedGenerator(["Wendelsried: opening time", TRANSLATED])
    library = make_library(data_home, tmp_path / "docs", {"freibad.md": POOL, "baeckerei.md": BAKERY}, generator)
    try:
        with library.store.transaction() as conn:
            conn.execute("UPDATE documents SET language = NULL")  # as a library imported before languages were kept
        assert library.pipeline().documents_language() == "de"
        assert library.store.passages_by_language() == {"de": 2}
    finally:
        library.close()
