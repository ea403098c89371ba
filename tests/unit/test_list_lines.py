"""A list answer checked line by line against the names the evidence found and did not find."""

from __future__ import annotations

from desktop_app.core.answers.list_lines import check_list_answer
from desktop_app.core.types import Citation, Quote


def quote(name: str, text: str, n: int) -> Quote:
    return Quote(Citation(n=n, file="f.txt", page=1, text=text, chunk_id=n, start=0, end=len(text)), 0.5, name)


QUOTES = (quote("Toyota", "Toyota was founded by Kiichiro Toyoda in 1937.", 2), quote("Honda", "Honda was founded by Soichiro Honda.", 1))


def test_lines_stating_facts_stay_as_written():
    answer = "- Toyota was founded by Kiichiro Toyoda [2].\n- Honda: Soichiro Honda founded it [1]."
    checked = check_list_answer(answer, ["Toyota", "Honda"], [], QUOTES)
    assert checked.answer == answer and checked.quoted == () and checked.unfounded == ()


def test_a_name_with_only_a_citation_gets_its_quote():
    checked = check_list_answer("- Toyota: [3]\n- Honda [1]", ["Toyota", "Honda"], [], QUOTES)
    assert checked.answer.splitlines() == [
        "- Toyota: \u201cToyota was founded by Kiichiro Toyoda in 1937.\u201d [2]",
        "- Honda: \u201cHonda was founded by Soichiro Honda.\u201d [1]",
    ]
    assert checked.quoted == ("Toyota", "Honda")


def test_a_line_about_a_missing_name_is_replaced_and_not_repeated():
    answer = "Here they are:\n- Toyota was founded by Kiichiro Toyoda [2].\n- Mazda was founded by Jujiro Matsuda [1].\n- Mazda: founded 1920 [2]"
    checked = check_list_answer(answer, ["Toyota"], ["Mazda", "Subaru"], QUOTES)
    assert checked.answer.splitlines() == ["Here they are:", "- Toyota was founded by Kiichiro Toyoda [2].", "- Mazda: not found in your documents."]
    assert checked.unfounded == ("Mazda",)
    assert checked.unlisted == ("Subaru",)  # the caller appends its not-found line


def test_a_found_name_inside_a_longer_missing_one_keeps_its_line():
    # "Honda" is found, "Honda Jet" is not: a line about Honda is not taken for the missing one.
    checked = check_list_answer("- Honda was founded by Soichiro Honda [1].", ["Honda"], ["Honda Jet"], QUOTES)
    assert checked.answer == "- Honda was founded by Soichiro Honda [1]." and checked.unlisted == ("Honda Jet",)


def test_the_model_saying_not_found_itself_is_not_called_unfounded():
    checked = check_list_answer("- Toyota: [2]\n- Subaru: not found in your documents.", ["Toyota"], ["Subaru"], QUOTES)
    assert checked.answer.splitlines()[1] == "- Subaru: not found in your documents."
    assert checked.unfounded == () and checked.unlisted == ()


def source(n: int, text: str):
    from desktop_app.core.types import Passage, Source

    return Source(n=n, passage=Passage(chunk_id=n, document_id=n, file=f"f{n}.txt", title="", page=1, text=text, start=100, end=100 + len(text)), rrf_score=1.0, ranks={}, similarity=0.5)


def test_a_name_only_line_keeps_its_own_citation_when_that_passage_names_it():
    context = [
        source(1, "Honda was founded by Soichiro Honda in 1948 in Hamamatsu."),
        source(2, "The Toyota Motor Corporation was founded by Kiichiro Toyoda. Its head office is in Toyota City."),
    ]
    checked = check_list_answer("- Toyota: [2]\n- Honda - [1]", ["Toyota", "Honda"], [], QUOTES, context)
    lines = checked.answer.splitlines()
    assert lines[0] == "- Toyota: \u201cThe Toyota Motor Corporation was founded by Kiichiro Toyoda.\u201d [2]"  # the cited passage's sentence
    assert lines[1] == "- Honda: \u201cHonda was founded by Soichiro Honda in 1948 in Hamamatsu.\u201d [1]"  # "Honda - [1]": no dangling dash


def test_a_number_is_something_said():
    checked = check_list_answer("- Toyota: 1937 [2]\n- Honda: 6 [1]", ["Toyota", "Honda"], [], QUOTES)
    assert checked.answer == "- Toyota: 1937 [2]\n- Honda: 6 [1]" and checked.quoted == ()
