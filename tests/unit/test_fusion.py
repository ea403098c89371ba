import copy

import pytest

from desktop_app.core.retrieval.fusion import own_passage_first, reciprocal_rank_fusion
from desktop_app.core.types import RankedList, SearchHit


def ranked(query, ids, weight=1.0):
    return RankedList(query=query, kind="vector", hits=tuple(SearchHit(cid, r, 0.5) for r, cid in enumerate(ids, start=1)), weight=weight)


def test_scores_match_hand_computed_values_with_k_60():
    fused = reciprocal_rank_fusion([ranked("q1", [10, 20, 30]), ranked("q2", [20, 40])], k=60)
    scores = {f.chunk_id: f.rrf_score for f in fused}
    assert scores[20] == pytest.approx(1 / 62 + 1 / 61)
    assert scores[10] == pytest.approx(1 / 61)
    assert scores[30] == pytest.approx(1 / 63)
    assert scores[40] == pytest.approx(1 / 62)
    assert [f.chunk_id for f in fused] == [20, 10, 40, 30]


def test_document_in_only_some_lists_keeps_only_those_ranks():
    fused = reciprocal_rank_fusion([ranked("a", [1, 2]), ranked("b", [3, 1])], k=60)
    by_id = {f.chunk_id: f for f in fused}
    assert by_id[1].ranks == {"a": 1, "b": 2}
    assert by_id[2].ranks == {"a": 2}
    assert by_id[3].ranks == {"b": 1}


def test_ties_keep_first_seen_order():
    # 1 and 3 are both rank 1 in one list: equal scores, the earlier list's hit comes first.
    fused = reciprocal_rank_fusion([ranked("a", [1]), ranked("b", [3])], k=60)
    assert [f.chunk_id for f in fused] == [1, 3]
    assert fused[0].rrf_score == fused[1].rrf_score


def test_small_k_rewards_top_ranks_more():
    lists = [ranked("a", [1, 2, 3]), ranked("b", [2, 4, 1]), ranked("c", [5, 6, 2])]
    assert reciprocal_rank_fusion(lists, k=0)[0].rrf_score == pytest.approx(1 / 2 + 1 / 1 + 1 / 3)
    k5 = {f.chunk_id: f.rrf_score for f in reciprocal_rank_fusion(lists, k=5)}
    assert k5[1] == pytest.approx(1 / 6 + 1 / 8)


def test_weights_scale_each_list():
    fused = reciprocal_rank_fusion([ranked("question", [7], weight=2.0), ranked("q", [8])], k=60)
    scores = {f.chunk_id: f.rrf_score for f in fused}
    assert scores[7] == pytest.approx(2 / 61)
    assert scores[8] == pytest.approx(1 / 61)


def test_inputs_are_not_mutated_and_negative_k_is_refused():
    from desktop_app.core.retrieval.fusion import union

    # Hits given as a (mutable) list, out of rank order: a fusion that sorted or trimmed them in place shows here.
    lists = [RankedList("a", "vector", [SearchHit(2, 2, 0.4), SearchHit(1, 1, 0.9)]), ranked("b", [3, 1])]
    before = copy.deepcopy(lists)
    first = reciprocal_rank_fusion(lists, k=60)
    first[0].ranks.clear()  # a caller editing one result must not change the next
    assert lists == before
    assert reciprocal_rank_fusion(lists, k=60)[0].ranks == {"a": 1, "b": 2}
    union(lists)
    assert lists == before
    with pytest.raises(ValueError):
        reciprocal_rank_fusion(lists, k=-1)


def test_empty_lists_give_nothing():
    assert reciprocal_rank_fusion([], k=60) == []
    assert reciprocal_rank_fusion([ranked("a", [])], k=60) == []


def test_interleave_lets_the_lists_take_turns_and_shows_the_score_that_ranked():
    from desktop_app.evaluation.variants import interleave

    # Without weights: every list's rank-1 hit first (earlier list first), then the rank-2 hits.
    fused = interleave([ranked("a", [1, 2, 3]), ranked("b", [2, 4, 5])])
    assert [f.chunk_id for f in fused] == [1, 2, 4, 3, 5]
    by_id = {f.chunk_id: f for f in fused}
    assert by_id[2].rrf_score == 1.0  # its best: rank 1 in "b"; agreement adds nothing
    assert by_id[2].ranks == {"a": 2, "b": 1}
    assert by_id[3].rrf_score == pytest.approx(1 / 3)


def test_interleave_weight_two_puts_rank_two_level_with_the_others_first():
    from desktop_app.evaluation.variants import interleave

    fused = interleave([ranked("q", [1, 2, 3], weight=2.0), ranked("x", [7, 8])])
    # scores: 1 -> 2, 2 -> 1, 7 -> 1 (tie: the question's list is earlier), 3 -> 2/3, 8 -> 1/2
    assert [f.chunk_id for f in fused] == [1, 2, 7, 3, 8]


def _list(query: str, *chunks: int, kind: str = "vector", weight: float = 1.0) -> RankedList:
    return RankedList(query=query, kind=kind, hits=tuple(SearchHit(c, r, 0.5) for r, c in enumerate(chunks, 1)), weight=weight)


def test_a_question_about_one_thing_has_its_own_nearest_passage_first():
    # Queries agreeing on another passage pushed the question's own best passage (a single-hop answer) to second place.
    question = _list("How do I renew a permit?", 7, 3, weight=3.0)
    queries = [_list("Permit", 3, 7), _list("Permit renewal", 3, 8), _list("renew permit", 3, 9, kind="keyword")]
    assert [h.chunk_id for h in reciprocal_rank_fusion([question, *queries], 2.0)][0] == 3
    assert [h.chunk_id for h in own_passage_first([question, *queries], 2.0)][:2] == [7, 3]
    # Several named things ("Orsa", "Orsa length"; "Vell", "Vell length") keep the fused order.
    rivers = [_list("Orsa", 3), _list("Orsa length", 3), _list("Vell", 5), _list("Vell length", 5)]
    assert [h.chunk_id for h in own_passage_first([question, *rivers], 2.0)] == [h.chunk_id for h in reciprocal_rank_fusion([question, *rivers], 2.0)]


class _LanguageBlindEmbedder:
    """Scores as an embedder that does not know the library's language: the question a little closer to a passage
    about something else than to the one that answers (MiniLM over a French manual: 0.46 against 0.41)."""

    name = "language-blind-test"
    dimension = 2

    def __init__(self, answering_word: str):
        self.answering_word = answering_word

    def embed(self, texts):
        import numpy as np

        def vector(text):
            if text.rstrip().endswith("?"):  # the question
                return [1.0, 0.0]
            cosine = 0.41 if self.answering_word in text else 0.46
            return [cosine, (1 - cosine**2) ** 0.5]

        return np.array([vector(t) for t in texts], dtype=np.float32)


def test_the_question_about_one_thing_has_the_passage_sharing_its_words_first_when_the_embedder_prefers_another(data_home, tmp_path):
    # The question's own passage went first by cosine alone, and an embedder reading English best put a passage about
    # something else there for a question in another language: the fused list's first row answered nothing.
    from desktop_app.core.events import SourcesRanked
    from desktop_app.core.library import Library
    from tests.fakes import ScriptedGenerator

    answering = "Säubern Sie das Gerät niemals mit einem Hochdruckreiniger, das Wasser dringt in die Lager ein."
    other = "Im Sparmodus schaltet sich die Anzeige des Geräts nach zwei Minuten ab, ein Tastendruck weckt sie."
    (tmp_path / "pflege.txt").write_text(answering, encoding="utf-8")
    (tmp_path / "anzeige.txt").write_text(other, encoding="utf-8")
    generator = ScriptedGenerator(["Reinigung des Geräts"])
    library = Library(data_home, embedder=_LanguageBlindEmbedder("Hochdruckreiniger"), generator=generator)
    try:
        list(library.import_paths([tmp_path / "pflege.txt", tmp_path / "anzeige.txt"]))
        ranked = next(e for e in library.ask("Darf ich das Gerät mit einem Hochdruckreiniger säubern?", "fusion") if isinstance(e, SourcesRanked))
    finally:
        library.close()
    assert [s.passage.text for s in ranked.sources] == [answering, other]


def test_a_not_found_answer_names_the_closest_pages_in_the_fused_lists_order(data_home, tmp_path):
    # "The closest pages are" listed the pages by the embedder's cosine, so it named first the page the side panel's
    # fused list put second: for a question in another language, a page about something else.
    from desktop_app.core.events import AnswerDone
    from desktop_app.core.library import Library
    from tests.fakes import ScriptedGenerator

    (tmp_path / "pflege.txt").write_text("Säubern Sie das Gerät niemals mit einem Hochdruckreiniger, das Wasser dringt in die Lager ein.", encoding="utf-8")
    (tmp_path / "anzeige.txt").write_text("Im Sparmodus schaltet sich die Anzeige des Geräts nach zwei Minuten ab, ein Tastendruck weckt sie.", encoding="utf-8")
    library = Library(data_home, embedder=_LanguageBlindEmbedder("Hochdruckreiniger"), generator=ScriptedGenerator(["Reinigung des Geräts", "NOT FOUND"]))
    try:
        list(library.import_paths([tmp_path / "pflege.txt", tmp_path / "anzeige.txt"]))
        done = next(e for e in library.ask("Darf ich das Gerät mit einem Hochdruckreiniger säubern?", "fusion") if isinstance(e, AnswerDone))
    finally:
        library.close()
    assert not done.result.found
    assert done.result.answer.endswith("The closest pages are: pflege.txt page 1; anzeige.txt page 1."), done.result.answer
