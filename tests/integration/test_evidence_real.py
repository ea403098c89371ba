"""Evidence selection with the real MiniLM: which sentences of the fused passages the model reads."""

from __future__ import annotations

import pytest

from desktop_app.core.retrieval.evidence import select_evidence
from desktop_app.core.types import Passage, Source

pytestmark = pytest.mark.integration

# Made-up towns, each a page of an encyclopedia-like library: the page asked about states its height only as "It sits
# at ...", the other pages name themselves in their height sentences.
PAGES = {
    "Quillmoor": "Quillmoor is the capital and largest town of the Vell Highlands, on the river Brindle. It sits at an elevation "
    "of 2,140 metres (7,021 ft) on a plateau above the river. Quillmoor existed as a market town for four centuries "
    "before it became the capital of the highlands.",
    "Mount Tarrow": "Mount Tarrow is the highest peak of the Vell Highlands. With a summit elevation of 3,912 metres, Mount Tarrow "
    "is the highest mountain of the region.",
    "Edda Plateau": "The Edda Plateau is a high plain east of the Vell Highlands, with an average elevation of 2,650 m. The Edda "
    "Plateau is the highest farmland of the region.",
    "Brindle Falls": "Brindle Falls is a waterfall of the river Brindle. Brindle Falls drops from an elevation of 1,480 metres into "
    "a narrow gorge.",
}


def test_the_sentence_that_answers_is_read_even_when_it_names_its_subject_only_by_it(real_embedder):
    # Scored alone, "It sits at an elevation of 2,140 metres" lost to the other pages' elevation sentences, which name
    # their subjects: the model read those, and answered with a mountain's height. Scored under its page's title it is read.
    sources = [
        Source(n, Passage(n, n, f"/towns/{title}.txt", title, 1, 0, len(text), text), 1.0 / n, {}, 0.5)
        for n, (title, text) in enumerate(PAGES.items(), 1)
    ]
    question = "At what elevation is Quillmoor?"
    queries = ("Quillmoor", "Quillmoor elevation")
    evidence = select_evidence(question, real_embedder.embed([question])[0], queries, sources, real_embedder, budget_tokens=60)
    assert any("2,140 metres" in s.passage.text for s in evidence.context), [s.passage.text for s in evidence.context]


# A page of a made-up French manual: the bundled embedder (English) puts the assistance-mode sentence closer to a
# question about a pressure washer than the sentence that answers it.
MANUAL_PAGE = (
    "Le vélo propose quatre niveaux d'assistance : Éco, Tour, Sport et Turbo. En mode Turbo, l'assistance s'arrête à "
    "25 km/h, comme l'exige la réglementation européenne. Vérifiez la pression des pneus chaque semaine. N'utilisez "
    "jamais de nettoyeur haute pression : l'eau pénètre dans les roulements et dans le connecteur de la batterie."
)


def test_the_first_quote_over_a_french_page_is_the_sentence_that_answers(real_embedder):
    question = "Puis-je utiliser un nettoyeur haute pression ?"
    sources = [Source(1, Passage(1, 1, "/docs/manuel.html", "Entretien", 1, 0, len(MANUAL_PAGE), MANUAL_PAGE), 1.0, {}, 0.5)]
    evidence = select_evidence(question, real_embedder.embed([question])[0], (), sources, real_embedder, budget_tokens=200)
    assert evidence.quotes[0].citation.text.startswith("N'utilisez jamais de nettoyeur haute pression"), [q.citation.text for q in evidence.quotes]


# The same manual as two files, one page each: the question's own passage (fusion puts it first for a question about
# one thing) was its nearest by the embedder's cosine alone, the assistance page (0.48 against 0.45).
ASSISTANCE = MANUAL_PAGE[: MANUAL_PAGE.index("Vérifiez")].strip()
CLEANING = "Entretien du vélo. N'utilisez jamais de nettoyeur haute pression : l'eau pénètre dans les roulements et dans le connecteur de la batterie."


def test_the_fused_list_of_a_question_over_french_pages_starts_with_the_page_that_answers(tmp_path, real_embedder, real_generator):
    from desktop_app.core.events import SourcesRanked
    from desktop_app.core.library import Library

    (tmp_path / "assistance.txt").write_text(ASSISTANCE, encoding="utf-8")
    (tmp_path / "entretien.txt").write_text(CLEANING, encoding="utf-8")
    library = Library(tmp_path / "home", embedder=real_embedder, generator=real_generator)
    try:
        list(library.import_paths([tmp_path / "assistance.txt", tmp_path / "entretien.txt"]))
        ranked = next(e for e in library.pipeline().search("Puis-je utiliser un nettoyeur haute pression ?", "fusion") if isinstance(e, SourcesRanked))
    finally:
        library.close()
    assert ranked.sources[0].passage.text == CLEANING, [s.passage.text for s in ranked.sources]
