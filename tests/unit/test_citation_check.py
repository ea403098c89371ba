"""The citation check judges what a cited sentence says, not only what it names."""

from __future__ import annotations

import pytest

from bench.citation_check_quality import load_labelled, measure, new_check
from desktop_app.core.answers.citation_check import check_citations, cite_uncited, repair_citations, support
from desktop_app.core.answers.review import review_answer
from desktop_app.core.types import Passage, Source
from desktop_app.sample_datasheet import SAMPLE_PAGES

TITLE = "PX-40 Industrial Pump Datasheet"


def datasheet() -> list[Source]:
    """The sample datasheet's four pages as sources [1]..[4], as the app would pass them."""
    texts = [f"{heading}\n\n{body}" for heading, body in SAMPLE_PAGES]
    return [Source(n, Passage(n, 1, "/px40.pdf", TITLE, n, 0, len(t), t), 0.1, {}, 0.5) for n, t in enumerate(texts, 1)]


def verdicts(answer: str, context: list[Source]) -> list[bool]:
    return [c.supported for c in check_citations(answer, context)]


def test_naming_the_product_does_not_support_a_fact_the_passage_lacks():
    # Every page names the PX-40; none says where it is made.
    assert verdicts("The PX-40 is made in Germany [2].", datasheet()) == [False]
    assert verdicts("The PX-40 is made in Germany. [1]", datasheet()) == [False]
    verdict = support("The PX-40 is made in Germany.", datasheet()[0].passage.text)
    assert "germany" in verdict.missing and "px40" not in verdict.missing


def test_the_right_fact_with_a_wrong_number_is_unsupported():
    assert verdicts("The maximum operating temperature of the PX-40 is 95 degrees Celsius [3].", datasheet()) == [False]
    assert verdicts("The shaft seals must be replaced every 5,000 operating hours [4].", datasheet()) == [False]


def test_a_supported_clause_does_not_carry_an_invented_one():
    answer = "The maximum system pressure is 6 bar, and the pump is certified for use in explosive atmospheres [3]."
    assert verdicts(answer, datasheet()) == [False]


def test_faithful_paraphrases_stay_supported():
    context = datasheet()
    for answer in (
        "The PX-40 handles coolant up to 85 °C, measured at the inlet [3].",  # unit symbol, other verb
        "Every 2 000 operating hours the shaft seals need replacing [4].",  # space as thousands separator
        "A 24 volt DC supply powers the PX-40, which draws 120 watts at full flow [2].",  # units written out
        "According to the datasheet, the enclosure has an IP67 rating [3].",  # answer framing, "rating" for "rated"
        "Its max operating temp is 85 °C [3].",  # abbreviations
        "The shaft seals are changed every 2000 h [4].",  # unit symbol for hours, "changed" for "replaced"
        "It withstands temporary immersion in water up to 1 m deep [3].",  # "one metre" as 1 m
    ):
        assert verdicts(answer, context) == [True], answer


def test_a_decimal_point_does_not_end_the_sentence():
    context = [Source(1, Passage(1, 1, "/m.pdf", "Flow meter", 1, 0, 40, "The flow meter reads 12.5 litres per minute."), 0.1, {}, 0.5)]
    assert verdicts("The flow meter reads 12.5 L/min [1].", context) == [True]
    assert verdicts("The flow meter reads 12.4 L/min [1].", context) == [False]


def test_a_citation_to_a_page_that_only_names_the_product_is_moved_to_the_page_that_says_it():
    fixed, changes = repair_citations("The PX-40 pump is protected against reverse polarity [3].", datasheet())
    assert fixed == "The PX-40 pump is protected against reverse polarity [2]." and changes == {3: 2}
    # A fact no page holds stays where it is (and is flagged by check_citations).
    same, none = repair_citations("The PX-40 is made in Germany [3].", datasheet())
    assert same == "The PX-40 is made in Germany [3]." and none == {}


def test_the_answers_own_fact_with_no_citation_gets_the_page_that_says_it():
    # The model stated the answer, then cited only a sentence about something else: the user would be shown the overview.
    answer = "The IP rating of the PX-40 pump is IP67. This datasheet covers installation, electrical data, operating limits and maintenance. [1]"
    reviewed = review_answer(answer, True, "What is the IP rating of the PX-40 pump?", datasheet(), datasheet())
    assert reviewed.answer.startswith("The IP rating of the PX-40 pump is IP67 [3]. This datasheet")
    assert [c.n for c in reviewed.citations] == [3, 1] and all(c.supported for c in reviewed.citations)
    assert any("now cites [3]" in notice for notice in reviewed.notices)
    # No figure to check, a figure no page states, a sentence cited by the markers after it, a not-found line: unchanged.
    # So does a paragraph whose one closing citation is the page that holds it.
    for same in (
        "The PX-40 is a reliable pump.",
        "The PX-40 weighs 12 kg.",
        "The maximum system pressure is 6 bar. [3]",
        "The PX-40's weight is not found in the documents, only its 6 bar.",
        "The enclosure is rated IP67. The pump withstands temporary immersion in water. [3]",
    ):
        assert cite_uncited(same, datasheet()) == (same, [])


# The floor under the numbers in citation_check's docstring (a regression guard on fixed data).
@pytest.mark.parametrize(("split", "precision", "recall", "kept"), [("tune", 1.0, 0.62, 1.0), ("test", 1.0, 0.79, 1.0)])
def test_measured_precision_and_recall_hold_on_the_labelled_set(split, precision, recall, kept):
    rows = [r for r in load_labelled() if r["split"] == split]
    assert {r["label"] for r in rows} == {"supported", "unsupported"}
    quality = measure(rows, new_check)
    assert quality.precision >= precision and quality.recall >= recall and quality.supported_kept >= kept, quality
