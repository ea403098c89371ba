"""Keyword search limited to chosen documents finds all of their matches, however large the library."""

from __future__ import annotations

from desktop_app.core.storage.chunks import content_words as keyword_words
from desktop_app.core.storage.store import Store
from desktop_app.core.types import ChunkDraft, PageText


def add_document(store: Store, name: str, texts: list[str]) -> int:
    drafts = [ChunkDraft(page=1, start=0, end=len(t), text=t) for t in texts]
    document_id, _, _ = store.save_document(f"/docs/{name}", name, name, [PageText(1, " ".join(texts))], 1, drafts, None)
    return document_id


def test_a_chosen_document_gets_every_matching_chunk_in_a_large_library(tmp_path):
    store = Store(tmp_path / "library.sqlite")
    # 30,000 chunks that match the question far better (short, the words repeated) than the chosen one's.
    strong = "impeller seal leak impeller seal leak"
    for n in range(300):
        add_document(store, f"manual{n:03}.txt", [f"{strong} unit {n} part {i}" for i in range(100)])
    chosen_texts = [
        "Section 4 of the service manual covers the pump housing, its bolts and the gaskets between the halves, "
        f"and a worn impeller seal shows up as a slow leak at the shaft; part {i}."
        for i in range(5)
    ] + ["The warranty card lists the dealer address.", "Paint colours and the order codes for spare covers."]
    chosen = add_document(store, "chosen.txt", chosen_texts)
    assert store.chunk_count() == 30_007
    allowed = store.chunk_ids_of_documents([chosen])
    matching = {cid for cid, p in store.passages(allowed).items() if "impeller" in p.text}

    hits = store.keyword_search("Why does the impeller seal leak?", 20, allowed)

    assert {h.chunk_id for h in hits} == matching and len(matching) == 5
    assert [h.rank for h in hits] == [1, 2, 3, 4, 5]
    whole_library = store.keyword_search("Why does the impeller seal leak?", 20)
    assert len(whole_library) == 20 and not {h.chunk_id for h in whole_library} & allowed
    store.close()


def test_words_that_are_fts_operators_are_searched_as_words(tmp_path):
    store = Store(tmp_path / "library.sqlite")
    add_document(store, "logic.txt", ["The NOT gate and the NEAR field probe.", "Unrelated text about pumps."])
    hits = store.keyword_search('not near "gate', 5)
    assert len(hits) == 1
    store.close()


def test_a_word_inside_a_chinese_or_japanese_sentence_is_found_by_keyword(tmp_path):
    # Written without spaces: the keyword index used to hold each clause as one token, so no word inside it matched.
    store = Store(tmp_path / "library.sqlite")
    add_document(store, "zh.txt", ["这台水泵的最大流量是每小时十二立方米。", "保修期为两年，从购买之日起计算。"])
    add_document(store, "ja.txt", ["このポンプの最大流量は毎時十二立方メートルです。", "保証期間は購入日から二年間です。"])
    add_document(store, "en.txt", ["The warranty runs two years from the date of purchase."])

    def found(query):
        return [store.passages([h.chunk_id])[h.chunk_id].text for h in store.keyword_search(query, 5)]

    assert found("保修期是多久？")[0] == "保修期为两年，从购买之日起计算。"
    assert found("最大流量")[0].startswith("这台水泵")
    assert found("保証期間")[0] == "保証期間は購入日から二年間です。"
    assert found("warranty purchase") == ["The warranty runs two years from the date of purchase."]
    assert store.mentioned_words(["流量", "保証期間", "扬程"]) == {"流量", "保証期間"}
    store.close()



def test_a_letter_written_as_an_option_is_searched(tmp_path):
    # "What does the -k option of bzip2 do?" searched "option" and "bzip2" only (single letters are dropped), so the
    # options list holding "-k --keep" ranked under pages saying "option" more often.
    store = Store(tmp_path / "library.sqlite")
    add_document(store, "grinder.html", [
        "grindit compresses files with a block sorting option, one option per block; see the option list below for each option.",
        "Options: -c writes to standard output. -k keeps the input files. -q prints no warnings.",
        "Options of grindit are read from the GRINDIT variable before the command line option list.",
    ])
    hits = store.keyword_search("What does the -k option of grindit do?", 3)
    assert store.passages([hits[0].chunk_id])[hits[0].chunk_id].text.startswith("Options: -c")
    # A typeset minus sign is a dash; a letter inside a word ("x-axis") or a lone one is still no search word.
    assert keyword_words("grindit \u2212k, x-axis, a b") == ["grindit", "k", "axis"]
    store.close()


def test_a_word_typeset_with_a_ligature_or_in_full_width_is_found_by_its_plain_letters(tmp_path):
    # A PDF's text often keeps the ligature glyphs "ﬁ", "ﬂ", "ﬀ" as one character each (pymupdf passes them through):
    # "ﬁlter" was a word of its own, and a search for "filter" never found the page. Full-width Latin, as Chinese and
    # Japanese documents write a model name, and Arabic presentation forms are the same letters typeset otherwise.
    store = Store(tmp_path / "library.sqlite")
    typeset = add_document(store, "manual.pdf", ["Clean the ﬁlter and check the air ﬂow; the eﬀect is a quieter unit."])
    wide = add_document(store, "datasheet.pdf", ["型号ＰＸ４０的重量为十二公斤。"])
    plain = add_document(store, "other.pdf", ["The cabinet has two doors."])
    found = {h.chunk_id for h in store.keyword_search("How often is the filter cleaned?", 5)}
    assert found == set(store.chunk_ids_of_documents([typeset]))
    assert {h.chunk_id for h in store.keyword_search("air flow effect", 5)} == set(store.chunk_ids_of_documents([typeset]))
    assert {h.chunk_id for h in store.keyword_search("PX40 重量", 5)} == set(store.chunk_ids_of_documents([wide]))
    assert store.mentioned_words(["filter", "flow", "window"]) == {"filter", "flow"}
    assert plain and store.integrity_problems() == []
    store.close()


def test_a_code_written_with_or_without_a_hyphen_is_found_either_way(tmp_path):
    # A manual writes "SHA256" and "RS-485" where a person types "SHA-256" and "RS485": the index holds "sha256" as one
    # word and "rs-485" as two, so keyword search found neither section and ranked its neighbours (SHA3-256, a passage
    # naming "SHA" and "256" apart) above it.
    store = Store(tmp_path / "library.sqlite")
    joined = add_document(store, "crypto.html", ["SHA256 outputs hash values of 32 octets."])
    apart = add_document(store, "datasheet.pdf", ["The bus is RS-485 at up to 115200 baud."])
    add_document(store, "other.html", ["SHA3 with a 256-bit output is the most useful of its family."])
    add_document(store, "cable.pdf", ["The cable is 485 mm long; its bus carries the RS signal."])

    def first(query):
        return store.keyword_search(query, 5)[0].chunk_id

    assert first("What does SHA-256 output?") in store.chunk_ids_of_documents([joined])
    assert first("Which RS485 bus?") in store.chunk_ids_of_documents([apart])
    store.close()


def reference(store: Store) -> dict[str, int]:
    """An HTML reference's sections, stored as the importer stores them: each function lists the same option, and only
    the section's heading (its first passage's first line) says whose item a later passage is."""
    sections = {"brew_pot(options)": "0 (no limit)", "brew_cup(options)": "30 seconds", "pour_cup(options)": "5 seconds"}
    pages, drafts = [], []
    for number, (heading, default) in enumerate(sections.items(), start=1):
        intro = f"{heading}\n\nStarts the machine and returns at once. Options are listed below."
        item = f"- timeout <number> The longest the machine may run. Default: {default}."
        pages.append(PageText(number, f"{intro}\n\n{item}", section=heading))
        drafts += [ChunkDraft(number, 0, len(intro), intro), ChunkDraft(number, len(intro) + 2, len(intro) + 2 + len(item), item)]
    store.save_document("/docs/reference.html", "Reference", "h", pages, len(pages), drafts, None)
    return {store.passages([h.chunk_id])[h.chunk_id].text: h.chunk_id for h in store.keyword_search("timeout", 10)}


def test_a_sections_item_is_found_by_its_sections_heading_first(tmp_path):
    store = Store(tmp_path / "library.sqlite")
    items = reference(store)

    hits = store.keyword_search("What is the default timeout of brew_cup?", 5)

    first = store.passages([hits[0].chunk_id])[hits[0].chunk_id]
    assert first.text == "- timeout <number> The longest the machine may run. Default: 30 seconds."  # not another function's
    assert first.text in items and first.section == "brew_cup(options)"  # the passage keeps its own text
    store.close()
