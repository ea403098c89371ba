"""Index and contents passages stay in the library and its keyword search, out of the vector index and the
fused passages (issue 34)."""

from __future__ import annotations

from desktop_app.core.ingest.importer import Importer
from desktop_app.core.library import Library

CONTENTS = (
    "Contents\n1 Charging the battery . . . . . . . . . . 4\n2 Battery care . . . . . . . . . . . . 9\n"
    "3 Replacing the battery . . . . . . . . 12\n4 Battery warnings . . . . . . . . . 15"
)
PROSE = "Charge the battery of the Kestrel Nano for 90 minutes before its first flight; the light turns green when it is full."


def import_both(library: Library) -> dict[str, int]:
    records = [("/docs/contents.txt", "Contents", CONTENTS), ("/docs/charging.txt", "Charging", PROSE)]
    list(Importer(library.store, library.index, library.embedder).import_texts(records))
    return {p.file: p.chunk_id for p in library.store.passages(library.store.chunk_ids()).values()}


def test_a_contents_passage_is_found_by_keyword_but_not_by_a_question(empty_library):
    ids = import_both(empty_library)
    assert ids["/docs/contents.txt"] not in empty_library.index.ids()
    assert ids["/docs/contents.txt"] in {h.chunk_id for h in empty_library.store.keyword_search("battery", 10)}
    for mode in ("rag", "fusion"):
        result = list(empty_library.pipeline().ask("How long do I charge the battery?", mode, generate_answer=False, queries=["battery charging"]))[-1].result
        assert [s.passage.file for s in result.sources] == ["/docs/charging.txt"], mode


def test_the_setting_lets_keyword_search_bring_them_back(empty_library):
    ids = import_both(empty_library)
    settings = empty_library.settings.replace(navigation_pages=True)
    result = list(empty_library.pipeline(settings).ask("battery", "fusion", generate_answer=False, queries=["battery"]))[-1].result
    assert ids["/docs/contents.txt"] in {s.passage.chunk_id for s in result.sources}


def test_a_library_reopened_after_the_marking_drops_them_from_its_vector_index(data_home):
    from tests.fakes import HashingEmbedder, ScriptedGenerator

    library = Library(data_home, embedder=HashingEmbedder(), generator=ScriptedGenerator())
    ids = import_both(library)
    library.index.add([ids["/docs/contents.txt"]], library.embedder.embed([CONTENTS]))  # as an older version indexed it
    library.index.save()
    library.close()
    again = Library(data_home, embedder=HashingEmbedder(), generator=ScriptedGenerator())
    assert ids["/docs/contents.txt"] not in again.index.ids() and ids["/docs/charging.txt"] in again.index.ids()
    again.close()
