from desktop_app.core.ingest.chunking import chunk_page, chunk_pages, sentence_spans
from desktop_app.core.types import PageText


def test_every_chunk_is_the_exact_span_of_its_page():
    text = " ".join(f"Sentence number {i} says something about pumps." for i in range(80))
    chunks = chunk_page(PageText(3, text), max_chars=300, overlap=80)
    assert len(chunks) > 5
    for c in chunks:
        assert c.page == 3
        assert text[c.start : c.end] == c.text
        assert len(c.text) <= 300


def test_chunks_end_at_sentence_boundaries_and_overlap():
    text = " ".join(f"Sentence {i} is here." for i in range(60))
    chunks = chunk_page(PageText(1, text), max_chars=200, overlap=60)
    for c in chunks[:-1]:
        assert c.text.endswith(".")
    for a, b in zip(chunks, chunks[1:]):
        assert b.start < a.end  # overlap
        assert b.start > a.start  # progress


def test_the_whole_page_is_covered():
    text = " ".join(f"Fact {i} matters." for i in range(100))
    chunks = chunk_page(PageText(1, text), max_chars=250, overlap=50)
    covered = set()
    for c in chunks:
        covered.update(range(c.start, c.end))
    words = [i for i, ch in enumerate(text) if not ch.isspace()]
    assert all(i in covered for i in words)


def test_a_sentence_longer_than_a_chunk_is_cut_at_spaces():
    text = "word " * 500
    chunks = chunk_page(PageText(1, text.strip()), max_chars=200, overlap=0)
    assert all(len(c.text) <= 200 for c in chunks)
    assert all(not c.text.startswith(" ") and not c.text.endswith(" ") for c in chunks)


def test_chunks_never_cross_pages():
    pages = [PageText(1, "First page text. " * 10), PageText(2, "Second page text. " * 10)]
    chunks = chunk_pages(pages, max_chars=120, overlap=30)
    assert {c.page for c in chunks} == {1, 2}
    for c in chunks:
        assert ("First" in c.text) != ("Second" in c.text)


def test_empty_page_gives_no_chunk_and_blank_lines_split_sentences():
    assert chunk_page(PageText(1, "   \n  ")) == []
    assert len(sentence_spans("Heading\n\nBody text without a stop")) == 2


def test_chinese_and_japanese_sentences_end_at_their_full_stops_without_a_space():
    from desktop_app.core.ingest.chunking import sentence_spans

    text = "该泵有两个端口。它的重量是十二公斤！このポンプは軽い。"
    assert [text[s:e] for s, e in sentence_spans(text)] == ["该泵有两个端口。", "它的重量是十二公斤！", "このポンプは軽い。"]


def test_a_chunk_never_ends_inside_brackets():
    # A manual's web address broken at a line's end ("(https://example.org/\nparts.html)" reads "(https://example." then
    # a stop): a chunk ended there, and its last sentence, quoted and highlighted, was half of one.
    from desktop_app.core.ingest.chunking import chunk_page
    from desktop_app.core.types import PageText

    filler = "The pump has two ports on its back panel and one switch. " * 7
    sentence = "Spare filters are sold by the maker (see https://pump.example.\norg/parts for the list) and by shops."
    text = filler + sentence + " The manual ends with a list of spare parts."
    cut = len(filler) + sentence.index("example.") + len("example.")
    chunks = chunk_page(PageText(1, text), max_chars=cut + 20, overlap=60)
    assert all(not c.text.endswith("example.") for c in chunks)
    assert any(sentence in c.text for c in chunks)


def test_a_semicolon_ends_a_sentence_only_before_a_capital_as_a_greek_question_mark_does():
    # A semicolon joins two clauses of one sentence ("a slope of 0.4; for radiators, 1.0"), and a chunk cut there left
    # the second without the first; Greek writes its question mark as ";", and a new sentence follows it.
    text = "Use a slope of 0.4 for floors; for radiators, 1.0. Τι ώρα ανοίγει το μουσείο; Ανοίγει στις 9."
    assert [text[s:e] for s, e in sentence_spans(text)] == [
        "Use a slope of 0.4 for floors; for radiators, 1.0.", "Τι ώρα ανοίγει το μουσείο;", "Ανοίγει στις 9.",
    ]


def test_no_chunk_starts_or_ends_inside_a_short_list_item():
    # A reference's option list: each item names its option, then says what it does in sentences, the last giving its
    # default. The next chunk's overlap began inside an item, at "See the note on limits. Default: 64.", so that chunk
    # said whose default it was nowhere.
    options = [
        f"- option{i} <number> Largest number of jobs of kind {i} waiting in the queue. If exceeded, the oldest job is "
        f"dropped and logged. See the note on limits. Default: {i * 8}."
        for i in range(12)
    ]
    text = "Options:\n\n" + "\n\n".join(options)
    chunks = chunk_page(PageText(1, text), max_chars=900, overlap=150)
    assert len(chunks) > 2
    item_starts = {text.index(option) for option in options}
    for chunk in chunks:
        assert chunk.start in item_starts or chunk.start == 0, chunk.text[:60]
        assert any(chunk.text.endswith(option) for option in options), chunk.text[-60:]
    for option in options:  # every item is whole in some chunk
        assert any(option in chunk.text for chunk in chunks)
