"""Generated queries stay on the question: echoes of the query prompt's made-up examples are dropped, and a
question with no usable query is searched by its key terms too (issue 34)."""

from __future__ import annotations

from desktop_app.core.events import QueriesGenerated
from desktop_app.core.ingest.importer import Importer
from desktop_app.core.retrieval.on_question import example_echoes, example_name_words, in_question_spelling, invented_names, key_terms
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


def held_in_one_passage(passages: list[set[str]]):
    return lambda words, least, anchors=(): any(len(set(words) & passage) >= least and (not anchors or set(anchors) & passage) for passage in passages)


def test_a_thing_the_model_names_that_no_passage_names_is_dropped_with_its_fact():
    queries = ["Quillon Office", "Quillon Office export chart", "Tessel", "Tessel export chart", "Tessel Pro", "Tessel Pro export chart"]
    question = "How do I export a chart from Tessel?"
    library = [{"tessel", "chart", "export", "pro"}, {"office", "hours"}]
    assert invented_names(queries, question, held_in_one_passage(library)) == {"Quillon Office", "Quillon Office export chart"}
    # a passage holding most of a thing's own words names it: both of two, not "Quillon" alone
    assert invented_names(queries, question, held_in_one_passage([*library, {"quillon"}])) == {"Quillon Office", "Quillon Office export chart"}
    assert invented_names(queries, question, held_in_one_passage([*library, {"quillon", "office"}])) == set()
    # a thing the question names is never the model's invention, whatever the library holds
    assert invented_names(queries, question, held_in_one_passage([])) == {"Quillon Office", "Quillon Office export chart", "Tessel Pro", "Tessel Pro export chart"}
    assert invented_names(["export chart", "Tessel chart export"], question, held_in_one_passage([])) == set()  # no name-fact pair: no named thing
    # "Tessel Pro" refines the question's Tessel: a page saying "pro" of something else does not name it
    assert invented_names(queries, question, held_in_one_passage([{"pro", "hours"}, {"quillon", "office"}])) == {"Tessel Pro", "Tessel Pro export chart"}


def test_a_name_of_three_words_is_named_by_a_passage_holding_two_of_them_together(empty_library):
    from desktop_app.core.ingest.importer import Importer

    texts = [("/docs/a.txt", "A", "The Quillon suite runs on laptops."), ("/docs/b.txt", "B", "Our office opens at nine. The cloud is grey.")]
    list(Importer(empty_library.store, empty_library.index, empty_library.embedder).import_texts(texts))
    together = empty_library.store.holds_together
    assert together(["quillon", "office", "cloud"], 2)  # office and cloud, in b.txt
    assert not together(["quillon", "office"], 2) and together(["quillon", "office"], 1)
    assert not together(["quillon", "laptops", "office"], 3)
    assert together(["suite"], 1, ["laptops", "cloud"]) and not together(["suite"], 1, ["cloud", "office"])  # with one of the anchors


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


def test_the_pipeline_does_not_search_a_product_the_library_never_names(empty_library, generator):
    # Asked how to save a plot as PDF, the model named word processors and PDF readers that the manuals never mention: their
    # queries searched for them, and each became a line of a list answer. Only the library's own names are searched.
    record = ("/docs/plots.txt", "Plots", "The pdf() device writes every plot to a PDF file until dev.off() closes it.")
    reply = "Quillon Office: save plot as PDF\nPlots: save as PDF"
    generated, events = generated_for(empty_library, generator, record, reply, "How do I save a plot as a PDF file?")
    assert generated.dropped == ("Quillon Office", "Quillon Office save plot as PDF"), generated
    assert generated.queries == ("Plots", "Plots save as PDF")
    assert events[-1].result.sources[0].passage.file == "/docs/plots.txt"
