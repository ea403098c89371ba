"""Does the answer answer the question asked? Made-up places and products, each verdict checkable by hand."""

from __future__ import annotations

from desktop_app.core.answers.question_fit import Page, asked_kind, missing_kind, off_subject
from desktop_app.core.answers.review import review_answer
from desktop_app.core.types import Passage, Source

LAKEVIEW = "Lakeview is a lake town in the north of Norland, known for its summer festival and its wooden church."
RIVERTOWN = "Rivertown has a population of 4 million, 92% of whom are expatriates. Its port opened in 1911."


def _source(n: int, text: str, title: str) -> Source:
    return Source(n, Passage(n, 1, f"/{title}.txt", title, 1, 0, len(text), text), 0.1, {}, 0.5)


def _review(answer: str, question: str, *pages: tuple[str, str]):
    context = [_source(i + 1, text, title) for i, (text, title) in enumerate(pages)]
    return review_answer(answer, True, question, context, context)


def test_the_kind_of_answer_follows_the_question_words():
    assert asked_kind("Who invented the Kestrel Nano?") == "name"
    assert asked_kind("Who is Aino Virtanen?") is None  # asks for a description, not a name
    assert asked_kind("Who should I contact about a leak?") is None  # a role or a department answers it
    assert asked_kind("Who was the first owner of the mill?") == "name"
    assert asked_kind("How many rotors does the Kestrel Nano have?") == "number"
    assert asked_kind("What is the population of Lakeview?") == "number"
    assert asked_kind("At what elevation is Lakeview?") == "number"
    assert asked_kind("In what year did the port open?") == "number"
    assert asked_kind("What is the name of the lake?") is None
    assert asked_kind("How do I reset the Kestrel Nano?") is None


def test_an_answer_without_the_kind_asked_for_says_what_it_lacks():
    assert missing_kind("The Kestrel Nano is a small drone [1].", "Who invented the Kestrel Nano?") == "a name"
    assert missing_kind("Aino Virtanen invented it [1].", "Who invented the Kestrel Nano?") is None
    # A number is not demanded: "fill to the MAX mark" answers "how much oil?"
    assert missing_kind("Fill it to the MAX mark [1].", "How much oil does the Kestrel pump take?") is None
    assert missing_kind("The capital of Norland is [1] Norland.", "What is the capital of Norland?") == "anything the question does not already say"
    assert missing_kind("She is an engineer from Tampere [1].", "Who is Aino Virtanen?") is None
    assert missing_kind("The plant operator does it [1].", "Who is responsible for the yearly inspection?") is None  # a role answers it
    # Not a wh-question: "yes" adds nothing the question lacks, and is an answer.
    assert missing_kind("Yes, the Kestrel Nano is waterproof [1].", "Is the Kestrel Nano waterproof?") is None
    assert missing_kind("Hold the power button for 5 seconds [1].", "How do I reset the Kestrel Nano?") is None


def test_a_sentence_naming_the_subject_is_off_subject_on_a_page_that_never_names_it():
    rivertown = [Page.of(RIVERTOWN, "Rivertown")]
    assert off_subject("The population of Lakeview is 4 million [1].", "What is the population of Lakeview?", rivertown) == {"lakeview"}
    assert off_subject("The population of Lakeview is 4 million [1].", "What is the population of Lakeview?", [Page.of(LAKEVIEW, "Lakeview")]) == frozenset()
    assert off_subject("It is 4 million [1].", "What is the population of Lakeview?", rivertown) == frozenset()  # names no subject


def test_a_code_or_unit_written_another_way_is_still_named():
    text = "Contracts under AB 04 suit work where the client supplies the design. Prices are 600 SEK/m2."
    page = Page.of(text)
    assert off_subject("AB04 is used when the client designs [1].", "What is AB04?", [page]) == frozenset()
    assert off_subject("It costs 600 SEK/m² [1].", "What does it cost per m²?", [page]) == frozenset()
    reviewed = _review("AB04 is for contracts where the client handles the design [1].", "What is AB04?", (text, "Contract forms"))
    assert reviewed.found


def test_another_towns_figure_cited_for_the_subject_is_not_found():
    # Every term but the town's name is in the cited page: the sentence check alone supports it (6 of 8, names twice).
    answer = "The population of Lakeview is 4 million, 92% of whom are expatriates [2]."
    reviewed = _review(answer, "What is the population of Lakeview?", (LAKEVIEW, "Lakeview"), (RIVERTOWN, "Rivertown"))
    assert not reviewed.found and reviewed.answer.startswith("Not found in your documents")
    assert any("never name Lakeview" in n for n in reviewed.notices), reviewed.notices


def test_a_figure_the_subjects_own_page_lacks_is_not_found():
    # The answer cites the right town's page, but its number comes from another page.
    answer = "Lakeview is a lake town in Norland with a population of 4 million [1]."
    reviewed = _review(answer, "What is the population of Lakeview?", (LAKEVIEW, "Lakeview"), (RIVERTOWN, "Rivertown"))
    assert not reviewed.found
    assert any("about Lakeview do not contain 4" in n for n in reviewed.notices), reviewed.notices


def test_an_answer_that_says_what_was_asked_from_the_subjects_page_is_kept():
    page = LAKEVIEW + " About 12,000 people live in Lakeview."
    reviewed = _review("About 12,000 people live in Lakeview [1].", "What is the population of Lakeview?", (page, "Lakeview"), (RIVERTOWN, "Rivertown"))
    assert reviewed.found and reviewed.citations and reviewed.citations[0].supported


def test_a_description_in_reply_to_who_is_not_found():
    reviewed = _review("Lakeview is a lake town known for its wooden church [1].", "Who built the wooden church in Lakeview?", (LAKEVIEW, "Lakeview"))
    assert not reviewed.found
    assert any("does not say a name" in n for n in reviewed.notices), reviewed.notices


def test_general_knowledge_answers_are_not_judged():
    context = [_source(1, LAKEVIEW, "Lakeview")]
    reviewed = review_answer("Lakeview is a lake town [1].", True, "Who built the wooden church in Lakeview?", context, context, general_knowledge=True)
    assert reviewed.found


def test_a_list_answer_is_left_to_the_line_checks():
    # Its lines are about the members of what the question names; pages about each river need not name the country.
    red = "The Red River is the longest river of the northern plain, flowing 300 km to the sea."
    blue = "The Blue River is the second longest river of the northern plain."
    answer = "- Red River: the longest river in Norland [1]\n- Blue River: the second longest in Norland [2]"
    reviewed = _review(answer, "Which are the longest rivers of Norland?", (red, "Red River"), (blue, "Blue River"))
    assert reviewed.found and [c.n for c in reviewed.citations] == [1, 2]
    # The same claim as one sentence is about Norland, and no cited page names it.
    sentence = _review("The longest river in Norland is the Red River [1].", "Which are the longest rivers of Norland?", (red, "Red River"))
    assert not sentence.found


def test_a_figure_given_as_another_dimension_does_not_answer_how_tall():
    from desktop_app.core.answers.question_fit import other_dimension

    falls = "Silver Falls is a waterfall on the Lakeview river. It is one of the widest falls of Norland, with a width of 1,700 m."
    wide = "Silver Falls is one of the widest falls of Norland, with a width of 1,700 m [1]."
    assert other_dimension(wide, "How tall is Silver Falls?") == ("height", "width")
    assert other_dimension("It is 90 m high and 1,700 m wide [1].", "How tall is Silver Falls?") is None  # says the height too
    assert other_dimension("The water drops 90 m [1].", "How tall is Silver Falls?") is None  # a bare figure is an answer
    assert other_dimension("It has a length of 4 km [1].", "What is the width of the Silver Falls gorge?") == ("width", "length")
    assert other_dimension("The festival lasted a long week, 9 days [1].", "How long did the festival last?") is None  # time or length: not judged
    reviewed = _review(wide, "How tall is Silver Falls?", (falls, "Silver Falls"))
    assert not reviewed.found and "does not say the height asked for (it gives a width)" in reviewed.notices[0]
    assert _review("Silver Falls is 90 m high [1].", "How tall is Silver Falls?", (falls + " It is 90 m high.", "Silver Falls")).found


def test_a_who_answer_whose_name_the_cited_page_does_not_hold_is_not_found():
    mayor = "Aino Virtanen was the mayor of Lakeview until 1987, when she was succeeded in office. She founded the summer festival."
    question = "Who succeeded Aino Virtanen as mayor of Lakeview?"
    # Every word but the answer's name is on the page: the sentence check alone lets one missing name pass.
    reviewed = _review("Aino Virtanen was succeeded by Lund as mayor of Lakeview [1].", question, (mayor, "Aino Virtanen"))
    assert not reviewed.found and "lund" in reviewed.notices[0].lower()
    named = mayor + " Her successor was Erik Lund."
    assert _review("Aino Virtanen was succeeded by Lund as mayor of Lakeview [1].", question, (named, "Aino Virtanen")).found
    # Not a "who" question: the missing name is left to the sentence check's leniency (a spelling).
    assert _review("Aino Virtanen, mayor of Lakeview, was succeeded in office by Lund [1].", "When did Aino Virtanen leave office?", (mayor, "Aino Virtanen")).found


def test_an_answer_stating_a_relation_its_page_never_mentions_is_not_found():
    architect = "Aino Virtanen is a Finnish architect. She teaches at the Lakeview Polytechnic and designed its library."
    question = "In which town was Aino Virtanen born?"
    # The page names her and Lakeview, so the sentence check supports the sentence; it never speaks of a birth or a town.
    reviewed = _review("Aino Virtanen was born in the town of Lakeview [1].", question, (architect, "Aino Virtanen"))
    assert not reviewed.found and "born" in reviewed.notices[0] and "never mention" in reviewed.notices[0]
    # A page that mentions the relation in one of the question's words supports it.
    born = architect + " She was born in Lakeview."
    assert _review("Aino Virtanen was born in the town of Lakeview [1].", question, (born, "Aino Virtanen")).found
    # The answering sentence cites nothing, the cited one is the page's own: still not from the page.
    quoted = _review("Aino Virtanen was born in Lakeview. She teaches at the Lakeview Polytechnic [1].", question, (architect, "Aino Virtanen"))
    assert not quoted.found
    # The question's words count in other forms ("certification" on a page saying "certified").
    firms = "Firms certified under Norland K7 keep a quality manual and are audited every second year."
    assert _review("K7 certification requires a quality manual [1].", "What does K7 certification require?", (firms, "Norland K7")).found
    # A relation named by one word is often said in another ("died" for a page's "1901-1975"): not judged.
    dates = "Ragnar Holm (1901-1975) was a Swedish painter of the Lakeview school."
    assert _review("Ragnar Holm died in 1975 [1].", "When did Ragnar Holm die?", (dates, "Ragnar Holm")).found
    # A page stating the figure asked for without the question's words (an answer under its FAQ heading) keeps the
    # answer; a year on the page does not, since pages about people hold many.
    grant = "Up to 4,500 EUR per household and year. Unused amounts do not carry over."
    assert _review("The garden subsidy cap is 4,500 EUR per household [1].", "How high is the garden subsidy cap?", (grant, "Household grants")).found
    works = architect + " Her Lakeview library (1998) won the Norland prize."
    retired = _review("Aino Virtanen retired from politics in 1998 [1].", "In what year did Aino Virtanen retire from politics?", (works, "Aino Virtanen"))
    assert not retired.found
    # An English question need not start with a question word.
    assert not _review("Aino Virtanen was born in Lakeview [1].", "Name the town where Aino Virtanen was born.", (architect, "Aino Virtanen")).found
    # A question in another language than the page's: its words are on no English page, so it is not judged.
    assert _review("Aino Virtanen föddes i staden Lakeview [1].", "I vilken stad föddes Aino Virtanen?", (architect, "Aino Virtanen")).found


def test_a_description_in_reply_to_a_things_measure_is_not_found():
    falls = "Silver Falls is a waterfall on the Silver River, a popular stop for hikers on the Lakeview trail."
    described = _review("Silver Falls is a waterfall on the Silver River [1].", "How far is Silver Falls from Lakeview?", (falls, "Silver Falls"))
    assert not described.found and "a figure" in described.notices[0]
    assert not _review("Lakeview is a lake town in the north of Norland [1].", "What is the population of Lakeview?", (LAKEVIEW, "Lakeview")).found
    measured = falls + " It lies 12 km from Lakeview."
    assert _review("Silver Falls is 12 km from Lakeview [1].", "How far is Silver Falls from Lakeview?", (measured, "Silver Falls")).found
    # Questions documents also answer in words keep such answers: how to do something, a price.
    tank = "Fill the tank to the MAX mark on its side before the first use."
    assert _review("Fill it to the MAX mark [1].", "How high should the tank be filled?", (tank, "Tank manual")).found
    price = "The price of a kitchen depends on its size and the cabinets chosen."
    assert _review("It depends on its size and the cabinets [1].", "What is the price of a new kitchen?", (price, "Kitchens")).found
