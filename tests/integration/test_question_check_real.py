"""The answer's question check with the real default model: a sentence that states the fact asked is confirmed, one
about something else of the same document is not, in English and German. Made-up documents."""

from __future__ import annotations

import pytest

from desktop_app.core.answers.question_check import QuestionCheck

CASES = [
    # (question, the sentence the answer rests on, does it answer the question)
    ("What is the population of Marrowdene?", "Marrowdene: Marrowdene has a population of 48,210 people.", True),
    ("What is the population of Marrowdene?", "Marrowdene: The Ostfell district of Marrowdene covers 212 square kilometres.", False),
    ("Who designed the Brannoch lathe?", "Brannoch lathe: The Brannoch lathe was designed by Ilse Varkot in 1961.", True),
    ("Who designed the Brannoch lathe?", "Brannoch lathe: The Brannoch lathe weighs 310 kilograms.", False),
    ("Wie viele Einwohner hat Keltsbrück?", "Keltsbrück: In Keltsbrück leben 9.430 Menschen.", True),
    ("Wie viele Einwohner hat Keltsbrück?", "Keltsbrück: Die Stadt Keltsbrück liegt an der Orne.", False),
]
# Not every miss is seen: asked "Wer hat die Pumpe Orvane entworfen?" over "Die Pumpe Orvane kostet 240 Euro." the
# model says yes (the same pair in English: no). The check then keeps the answer, as it did before the check.


@pytest.mark.parametrize("question, sentence, answers", CASES)
def test_the_model_tells_a_sentence_that_answers_from_one_that_does_not(real_generator, question, sentence, answers):
    assert QuestionCheck(real_generator).answers(question, sentence) is answers
