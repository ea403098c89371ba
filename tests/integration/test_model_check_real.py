"""The answer's model checks with the real default model. The question check: a sentence that states the fact asked
is confirmed, one about something else of the same document is not, in English and German; a sibling model's figure
is a sure no. The claim check: a claim in other words than its passage is read there, in English, German and
Russian; a sibling passage is not. Made-up documents."""

from __future__ import annotations

import pytest

from desktop_app.core.answers.model_check import Doubt, ModelCheck

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
# model's odds of no are 0.49 (the same pair in English: a no). The check then keeps the answer, as before the check.


@pytest.mark.parametrize("question, sentence, answers", CASES)
def test_the_model_tells_a_sentence_that_answers_from_one_that_does_not(real_generator, question, sentence, answers):
    assert (ModelCheck(real_generator).doubt(question, sentence) is Doubt.NONE) is answers


def test_the_model_is_sure_when_the_sentence_is_about_something_else_and_refuses_only_when_asked_to(real_generator):
    # Refusing (Settings: refuse_when_sure) needs a sure "no", its odds above REFUSE_ABOVE (0.95 here); a right
    # sentence stays far below FLAG_ABOVE.
    from desktop_app.core.answers.model_check import check_messages

    question, festival = "What is the population of Marrowdene?", "Marrowdene: The Marrowdene festival is held every June."
    odds = real_generator.reply_odds(check_messages(question, festival), ("yes", "no"))
    assert odds["yes"] + odds["no"] > 0.9 and odds["no"] / (odds["yes"] + odds["no"]) > 0.85
    assert ModelCheck(real_generator, refuse_when_sure=True).doubt(question, festival) is Doubt.SURE
    assert ModelCheck(real_generator).doubt(question, festival) is Doubt.SOME  # by default a sure no only flags
    assert ModelCheck(real_generator).doubt(*CASES[0][:2]) is Doubt.NONE


SIBLINGS = [
    # (question, a sibling's fact, the sentence that answers): without the worked examples the model's no to the sibling
    # was 0.71 and 0.65, not sure enough to refuse
    ("What is the wingspan of the Kestrel K2 glider?", "Kestrel gliders: The K1 glider has a wingspan of 15 metres.", "Kestrel K2 glider: Its wings measure 18 metres from tip to tip."),
    ("Wie schwer ist der Kran K40?", "Kräne: Der Kran K30 wiegt 12 Tonnen.", "Kran K40: Der K40 bringt 14 Tonnen auf die Waage."),
]


@pytest.mark.parametrize("question, sibling, answer", SIBLINGS)
def test_the_model_is_sure_a_sibling_models_figure_does_not_answer_and_keeps_the_right_one(real_generator, question, sibling, answer):
    check = ModelCheck(real_generator, refuse_when_sure=True)
    assert check.doubt(question, sibling) is Doubt.SURE
    assert check.doubt(question, answer) is Doubt.NONE


def test_a_right_answer_is_checked_against_the_sentence_that_states_it_not_its_sibling(real_embedder, real_generator):
    # "The maximum ..." is nearer in meaning to a claim about the minimum than "The minimum ..." is: shown the
    # sibling, the model said no and a right answer was flagged in the window. The real model reads the sentence
    # holding the claim's words, and the right citation stays unflagged.
    from desktop_app.core.answers.review import review_answer
    from desktop_app.core.types import Passage, Source

    limits = "The maximum operating temperature of the Harrowgate H2 is 70 degrees Celsius. The minimum operating temperature is minus 15 degrees Celsius. The enclosure is rated IP54."
    sources = [Source(1, Passage(1, 1, "/docs/h2.pdf", "Harrowgate H2 datasheet", 3, 0, len(limits), limits), 0.1, {}, 0.5)]

    class Recorded:  # the real model, its prompts kept
        prompts: list[str] = []

        def reply_odds(self, messages, words):
            Recorded.prompts.append(messages[-1]["content"])
            return real_generator.reply_odds(messages, words)

    answer = "The minimum operating temperature of the Harrowgate H2 is minus 15 degrees Celsius [1]."
    reviewed = review_answer(answer, True, "What is the minimum operating temperature of the Harrowgate H2?", sources, sources, embedder=real_embedder, model_check=ModelCheck(Recorded()))
    assert Recorded.prompts[0].startswith("Text: Harrowgate H2 datasheet: The minimum operating temperature is minus 15 degrees Celsius.\n")
    assert reviewed.found and reviewed.answer == answer and all(c.supported for c in reviewed.citations) and not reviewed.notices


def test_an_answer_is_kept_when_its_second_sentence_answers_and_refused_when_none_does(real_embedder, real_generator):
    # A small model often copies an article's opening. Refusing on, the check reads on past a first sentence that
    # only sets the scene; before, a sure no refused only one-claim answers, so a copied opening was shown, flagged.
    from desktop_app.core.answers.review import review_answer
    from desktop_app.core.types import Passage, Source

    lead = "Quarvik is a harbour town on the west coast of Solvara. It has a population of 31,400 people. Its ferry crosses to Tenholm twice a day."
    sources = [Source(1, Passage(1, 1, "/docs/quarvik.pdf", "Quarvik", 1, 0, len(lead), lead), 0.1, {}, 0.5)]
    check = ModelCheck(real_generator, refuse_when_sure=True)
    answer = "Quarvik is a harbour town on the west coast of Solvara [1]. It has a population of 31,400 people [1]."
    kept = review_answer(answer, True, "What is the population of Quarvik?", sources, sources, embedder=real_embedder, model_check=check)
    assert kept.found and all(c.supported for c in kept.citations)
    copied = "Quarvik is a harbour town on the west coast of Solvara [1]. Its ferry crosses to Tenholm twice a day [1]."
    refused = review_answer(copied, True, "Who founded Quarvik?", sources, sources, embedder=real_embedder, model_check=check)
    assert not refused.found and "does not answer the question" in refused.notices[0]


def test_a_list_answer_is_checked_line_by_line_with_each_things_own_query(real_embedder, real_generator):
    # Asked the whole question ("Where were the members of ... born?"), the model is sure a line giving one member's
    # birthplace is no answer (odds of no 0.87 here): the page does not say she was on the team, another page does.
    # Asked its own search query ("Ilse Vantor: birthplace"), each right line is kept; a line giving a club for a
    # birthplace says not found, and the rest of the list stays.
    from desktop_app.core.answers.review import review_answer
    from desktop_app.core.types import Passage, Source

    pages = [("Ilse Vantor", "Ilse Vantor (born 3 May 1940 in Dunmere) is a retired sprinter."), ("Oda Brell", "Oda Brell was born in Tolvik, a mining town in the north."),
             ("Mira Osk", "Mira Osk ran four seasons for the Harrow Falcons before she retired.")]
    sources = [Source(n, Passage(n, 1, f"/docs/{name}.pdf", name, n, 0, len(text), text), 0.1, {}, 0.5) for n, (name, text) in enumerate(pages, 1)]
    names = tuple(name for name, _ in pages)
    queries = tuple(q for name in names for q in (name, f"{name} birthplace"))
    check = ModelCheck(real_generator, refuse_when_sure=True)
    question = "Where were the members of the 1962 Corran relay team born?"
    right = "- Ilse Vantor: born in Dunmere [1]\n- Oda Brell: born in Tolvik [2]"
    kept = review_answer(right, True, question, sources, sources, names=names, embedder=real_embedder, model_check=check, queries=queries)
    assert kept.found and kept.answer == right and all(c.supported for c in kept.citations)
    wrong = right + "\n- Mira Osk: the Harrow Falcons [3]"
    mixed = review_answer(wrong, True, question, sources, sources, names=names, embedder=real_embedder, model_check=check, queries=queries)
    assert mixed.found and mixed.answer == right + "\n- Mira Osk: not found in your documents."


CLAIMS = [
    # (claim, the cited sentence, does it state the claim): the claims' words are not the sentences'
    ("Ilse Varga is in charge of the lab at Tamsin.", "Tamsin laboratory: The Tamsin laboratory is headed by the chemist Ilse Varga.", True),
    ("Ilse Varga is in charge of the lab at Tamsin.", "Tamsin laboratory: Its freezers keep samples at minus 80 degrees.", False),
    ("Die Brücke von Selmtal ist für Lastwagen gesperrt.", "Selmtal: Lastwagen dürfen die Brücke von Selmtal nicht befahren.", True),
    ("Die Brücke von Selmtal ist für Lastwagen gesperrt.", "Selmtal: Die Brücke von Selmtal wurde aus Sandstein gebaut.", False),
    ("Музей в Ракове закрыт по понедельникам.", "Раков: По понедельникам музей в Ракове не работает.", True),
    ("Музей в Ракове закрыт по понедельникам.", "Раков: Музей в Ракове находится в старой мельнице.", False),
]


@pytest.mark.parametrize("claim, sentence, stated", CLAIMS)
def test_the_model_reads_a_claim_in_other_words_in_the_sentence_that_says_it_in_any_language(real_generator, claim, sentence, stated):
    assert ModelCheck(real_generator).states(claim, sentence) is stated


def test_a_check_reads_the_same_odds_whatever_was_checked_before(real_generator):
    # The check after one about a sentence of the same document used to read on top of that call's tokens ("Text:
    # Marrowdene: Marrowdene"), and its odds differed in the last digits from the same check read alone: enough to move a
    # check sitting at its line, so whether an answer was flagged could depend on which claim was checked first.
    from desktop_app.core.answers.model_check import check_messages, claim_messages

    question = "What is the population of Marrowdene?"
    sentence = "Marrowdene: Marrowdene is the second-most populous town in the county, after the port of Orsa."
    real_generator.reply_odds(claim_messages("Marrowdene is a town.", "Orsa is a port."), ("yes", "no"))  # another prompt first
    alone = real_generator.reply_odds(check_messages(question, sentence), ("yes", "no"))
    real_generator.reply_odds(check_messages(question, "Marrowdene: Marrowdene lies on the north shore of the sound."), ("yes", "no"))
    after_a_sibling = real_generator.reply_odds(check_messages(question, sentence), ("yes", "no"))
    assert after_a_sibling == alone
