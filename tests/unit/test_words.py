"""How an answer's words are compared with a passage's (core/words.py): forms of one word match, different words
sharing their first letters do not, in any language."""

from __future__ import annotations

import pytest

from desktop_app.core.words import Vocabulary


@pytest.mark.parametrize(
    "word, text",
    [
        ("cities", "The city lies on the river."),
        ("flash", "The lamp flashes green."),
        ("july", "Das Freibad öffnet im Juli."),  # one last letter apart, in two languages
        ("москве", "Москва стоит на реке."),
        ("baume", "Der Baum ist alt."),
        ("temp", "The temperature is 85 °C."),  # an abbreviation
    ],
)
def test_forms_of_one_word_match(word, text):
    assert Vocabulary([text]).holds(word)


@pytest.mark.parametrize(
    "word, text",
    [
        # Seen in the window: "from" matched a German manual's "Frost", and the question check read the frost sentence.
        ("from", "Bei Frost muss die Pumpe aus dem Teich genommen werden."),
        ("minato", "The kettle boils water in one minute."),
        ("catalog", "The cat sleeps."),
    ],
)
def test_different_words_sharing_their_first_letters_do_not(word, text):
    assert not Vocabulary([text]).holds(word)
