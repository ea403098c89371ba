"""The same text found in several places is one row of the fused list that names every place (issue 34)."""

from __future__ import annotations

from desktop_app.core.retrieval.duplicates import merge_duplicates
from desktop_app.core.types import Location, Passage, Source

TEXT = (
    "The Starfold Harbor board game takes two to five players. Each player builds a harbour district, trades "
    "spices with the other districts and scores points for every finished quay."
)
OTHER = "The Kestrel Nano drone flies for thirty-one minutes on one charge of its battery."


def source(n: int, chunk_id: int, file: str, text: str, page: int = 1) -> Source:
    passage = Passage(chunk_id, chunk_id, file, file, page, 0, len(text), text)
    return Source(n, passage, 1.0 / n, {"q": n}, 0.5)


def test_a_file_imported_twice_is_one_row_naming_both_copies():
    fused = [source(1, 10, "/a/rules.pdf", TEXT, 3), source(2, 20, "/a/other.pdf", OTHER), source(3, 30, "/b/rules copy.pdf", TEXT, 3)]
    merged = merge_duplicates(fused)
    assert [s.passage.chunk_id for s in merged] == [10, 20]
    assert [s.n for s in merged] == [1, 2]
    assert merged[0].also == (Location(30, 30, "/b/rules copy.pdf", 3),)
    assert merged[1].also == ()


def test_a_chunk_inside_another_is_the_same_text_but_an_overlap_of_a_sentence_is_not():
    inside = TEXT.split(". ")[1]  # the second sentence alone, as a short overlapping chunk holds it
    neighbour = TEXT.split(". ")[1] + ". " + OTHER + " " + OTHER.replace("Nano", "Mini").replace("thirty-one", "twenty")
    merged = merge_duplicates([source(1, 1, "/a.pdf", TEXT), source(2, 2, "/a.pdf", inside), source(3, 3, "/a.pdf", neighbour)])
    assert [s.passage.chunk_id for s in merged] == [1, 3]
    assert [place.chunk_id for place in merged[0].also] == [2]


def test_case_and_punctuation_do_not_make_texts_different():
    shouted = TEXT.upper().replace(",", "").replace(".", " .")
    merged = merge_duplicates([source(1, 1, "/a.pdf", TEXT), source(2, 2, "/b.pdf", shouted)])
    assert len(merged) == 1 and merged[0].also[0].file == "/b.pdf"


def test_a_saved_answer_keeps_the_other_places():
    from desktop_app.core.codec import result_from_json, result_to_json
    from tests.ui.results import ask_result

    [merged] = merge_duplicates([source(1, 10, "/a/rules.pdf", TEXT, 3), source(2, 30, "/b/rules copy.pdf", TEXT, 3)])
    again = result_from_json(result_to_json(ask_result("How many players?", "fusion", (), (merged,))))
    assert again.sources[0].also == (Location(30, 30, "/b/rules copy.pdf", 3),)


def test_two_datasheets_from_one_template_stay_two_rows_each_with_its_own_figures():
    template = (
        "The Tarnwick pump is made for clean water in small plants and farm buildings. It runs at {bar} bar with the "
        "standard impeller and needs no priming once the inlet is flooded. Mount it on a level floor, keep the inlet "
        "clear of leaves, drain it before the first frost and store the spare seals in a dry box. Its seals are "
        "changed every {months} months of service."
    )
    first = source(1, 10, "/docs/alpha.pdf", template.format(bar=4, months=6))
    second = source(2, 20, "/docs/beta.pdf", template.format(bar=14, months=16))
    merged = merge_duplicates([first, second])
    assert [s.passage.file for s in merged] == ["/docs/alpha.pdf", "/docs/beta.pdf"] and not merged[0].also
