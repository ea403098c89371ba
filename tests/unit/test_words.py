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


@pytest.mark.parametrize(
    "text, digits",
    [
        ("保修期为两年", "保修期为 2 年"),
        ("三十五平方米", " 35 平方米"),
        ("一亿五千万", " 150000000 "),
        ("一千零五", " 1005 "),
        ("二〇二四年", " 2024 年"),
        ("3万元", " 30000 元"),
        # Two neighbouring digits say about how many: three or four days, 15 or 16 years, 70 or 80, three to five years.
        ("三四天", " 3 4 天"),
        ("十五六岁", " 15 16 岁"),
        ("七八十人", " 70 80 人"),
        ("三五年", " 3 5 年"),
        ("一九九八年", " 1998 年"),
        ("二〇二三年", " 2023 年"),
        # A lone 一 or 零, a group sign first, and an ordinal after 第 are words ("一些" some, "千万" by all means).
        ("一些", "一些"),
        ("千万", "千万"),
        ("零件", "零件"),
        ("第三章", "第三章"),
    ],
)
def test_chinese_and_japanese_numbers_are_read_as_digits(text, digits):
    from desktop_app.core.spelled_numbers import cjk_numerals

    assert cjk_numerals(text) == digits
