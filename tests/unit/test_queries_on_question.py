"""Generated queries stay on the question: echoes of the query prompt's made-up examples are dropped, and a
question with no usable query is searched by its key terms too (issue 34)."""

from __future__ import annotations

from desktop_app.core.events import QueriesGenerated
from desktop_app.core.ingest.importer import Importer
from desktop_app.core.retrieval.on_question import example_echoes, example_name_words, in_question_spelling, key_terms
from desktop_app.core.retrieval.query_styles import DEFAULT_QUERY_STYLE, query_style

QUESTION = "Which cheeses do the member farms of the Alpenrose dairy cooperative make?"


def nothing_mentioned(words):
    return set()


def generated_for(library, generator, record: tuple[str, str, str], reply: str, question: str) -> tuple[QueriesGenerated, list]:
    """The queries the pipeline searches for `question` over one record, the model replying `reply`; and all its events."""
    list(Importer(library.store, library.index, library.embedder).import_texts([record]))
    generator.enqueue(reply)
    events = list(library.pipeline().search(question, "fusion"))
    [generated] = [e for e in events if isinstance(e, QueriesGenerated)]
    return generated, events


def test_the_example_names_are_read_from_the_prompt_itself():
    words = example_name_words(query_style(DEFAULT_QUERY_STYLE))
    assert {"valdoria", "kestrel", "starfold"} <= words
    assert "which" not in words and "players" not in words  # the examples' questions' ordinary words are not names


def test_a_query_naming_a_prompt_example_that_nothing_mentions_is_an_echo():
    queries = ["Valdoria Wine Cooperative: cheeses", "Alpenrose dairy cooperative farms", "Kestrel Nano"]
    assert example_echoes(queries, QUESTION, [DEFAULT_QUERY_STYLE], nothing_mentioned) == {queries[0], queries[2]}


def test_an_example_name_that_the_question_or_the_library_mentions_is_kept():
    queries = ["Kestrel Nano battery", "Valdoria cheeses"]
    assert example_echoes(queries, "How long does the Kestrel Nano fly?", [DEFAULT_QUERY_STYLE], nothing_mentioned) == {"Valdoria cheeses"}
    assert example_echoes(queries, QUESTION, [DEFAULT_QUERY_STYLE], lambda words: set(words) & {"valdoria", "kestrel", "nano"}) == set()


def test_key_terms_leave_out_the_stop_words():
    assert key_terms(QUESTION) == "cheeses member farms alpenrose dairy cooperative make"
    assert key_terms("Alpenrose cooperative") == ""  # nothing to add to the question itself


def test_the_pipeline_drops_echoes_and_searches_the_key_terms_when_nothing_is_left(empty_library, generator):
    record = ("/docs/alpenrose.txt", "Alpenrose", "The Alpenrose dairy cooperative has four member farms that make mountain cheese.")
    generated, events = generated_for(empty_library, generator, record, "Casa Merla; Villa Corvo: cheeses", QUESTION)
    result = events[-1].result
    assert generated.dropped == ("Casa Merla", "Casa Merla cheeses", "Villa Corvo", "Villa Corvo cheeses")
    assert generated.queries == ("cheeses member farms alpenrose dairy cooperative make",)
    assert "searched the question and its key terms" in generated.notice
    assert result.sources and result.sources[0].passage.file == "/docs/alpenrose.txt"


def test_a_query_of_a_single_letter_or_of_numbers_the_question_does_not_state_says_nothing():
    from desktop_app.core.retrieval.on_question import says_nothing

    question = "How do I make a sequence from 1 to 30 in the Q language?"
    assert says_nothing("Q", question) and says_nothing("10", question) and says_nothing("Q: 10", question)
    assert not says_nothing("30", question)  # the question's own figure
    assert not says_nothing("Q sequence", question) and not says_nothing("GCC", question) and not says_nothing("Москва", question)


def test_the_pipeline_drops_queries_that_say_nothing_and_shows_them_dropped(empty_library, generator):
    record = ("/docs/kettle.txt", "Kettle", "The Q kettle switches itself off when the water boils.")
    generated, _ = generated_for(empty_library, generator, record, "Q: switch off\n10\nQ kettle: boiling", "When does the Q kettle switch itself off?")
    assert set(generated.dropped) == {"Q", "10"}, generated
    assert "Q switch off" in generated.queries and "Q kettle boiling" in generated.queries


def test_a_query_respelling_a_term_of_the_question_searches_it_as_the_question_spells_it(empty_library, generator):
    # Asked about "qx_frame_write", the model wrote "QX Frame Write": keyword search then matched its words on every page
    # about frames, and the one page defining the function, which spells it as the question does, was not read.
    record = ("/docs/qx.txt", "QX", "The qx_frame_write function stores a frame in the output buffer.")
    generated, _ = generated_for(empty_library, generator, record, "QX Frame Write\nQX Frame Write: purpose", "What does qx_frame_write do?")
    assert generated.queries == ("qx_frame_write", "qx_frame_write purpose"), generated
    assert in_question_spelling("Foo Bar settings", "How do I set up FooBar?") == "FooBar settings"
    assert in_question_spelling("frame writing", "What does qx_frame_write do?") == "frame writing"  # no run spells a term
