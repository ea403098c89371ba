"""Searching the library: one ranked list per text, and the fused hits turned into passages.

Vector lists come from the hnswlib index, keyword lists from SQLite FTS5; both can be limited to chosen
documents and pages (the scope: ticked files, a collection, the question's filters). Every passage then gets its cosine similarity to the question itself, which is what
the "not found" gate judges.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ..document_names import named_documents, without_names
from ..models.embedder import Embedder
from ..settings import Settings
from ..storage.chunks import content_words
from ..storage.store import Store
from ..storage.vector_index import VectorIndex
from ..types import FusedHit, RankedList, Source
from ..words import code_names, code_terms
from .duplicates import merge_duplicates
from .scope import Scope


class Searcher:
    def __init__(self, store: Store, index: VectorIndex, embedder: Embedder, settings: Settings):
        self.store = store
        self.index = index
        self.embedder = embedder
        self.settings = settings

    def allowed_chunks(self, scope: Scope | None) -> set[int] | None:
        """The chunk ids a search may find (None: all of them)."""
        if scope is None or scope.everything:
            return None
        return self.store.chunk_ids_in(scope.documents, scope.pages)

    def vector_lists(self, texts: Sequence[str], vectors: np.ndarray, scope: Scope | None = None, weights: Sequence[float] | None = None) -> list[RankedList]:
        allowed = self.allowed_chunks(scope)
        lists = []
        for i, (text, vector) in enumerate(zip(texts, vectors)):
            hits = self.index.search(vector, self.settings.list_depth, allowed)
            weight = weights[i] if weights else 1.0
            lists.append(RankedList(query=text, kind="vector", hits=tuple(hits), weight=weight))
        return lists

    def keyword_list(self, text: str, scope: Scope | None = None, weight: float | None = None) -> RankedList:
        allowed = self.allowed_chunks(scope)
        hits = self.store.keyword_search(text, self.settings.list_depth, allowed, navigation=self.settings.navigation_pages)
        return RankedList(query=text, kind="keyword", hits=tuple(hits), weight=self.settings.keyword_weight if weight is None else weight)

    def question_keyword_list(self, question: str, scope: Scope | None = None) -> RankedList:
        """The question's own keyword list. It weighs as the question's own list (question_weight) when the question names
        code the library holds (`named_codes`), and as any keyword list otherwise. The embedder reads such a term as
        pieces of other words, so the vector lists find every function's "timeout" item alike, and the queries the model
        writes often leave the term out; only the question's keyword list finds the item of the function it names. A
        question in plain words is ranked as before."""
        weight = self.settings.question_weight if self.named_codes(question) else None
        return self.keyword_list(question, scope, weight)

    def named_codes(self, question: str) -> set[str]:
        """The question's terms, folded, that name code the library holds: written as code (words.code_names: "tessFold",
        "io.readBlock", "PX40"), or, when none is, its words that a section heading writes as a code's last part ("drain"
        under "io.drain(path[, options])": a reader names a reference's function as its heading does, without the module)."""
        if codes := code_names(question):
            return code_terms(question) if self.store.mentioned_words(codes) else set()
        return self.store.heading_names(content_words(question))

    def named_document_list(self, question: str, scope: Scope | None = None) -> RankedList | None:
        """The question's words searched inside the files it names (by file name, with or without extension), the names
        left out, weighed as the question's own list; None when it names none (or every document in scope). A manual's
        pages rarely repeat the tool's name: asked about "the -y option of <tool>", the other lists find every page naming
        the tool before the one line that says what -y does. Not by title: a title is often a common word or place name,
        which a question names in passing, and a file name is what the person sees in the library's list."""
        documents = [d for d in self.store.documents() if scope is None or scope.documents is None or d.id in scope.documents]
        named = tuple(dict.fromkeys(i for i, _, _ in named_documents(question, documents, titles=False)))
        if not named or len(named) == len(documents):
            return None
        chosen = [d for d in documents if d.id in named]
        rest = without_names(question, chosen, titles=False)
        if not content_words(rest):
            return None
        within = self.keyword_list(rest, Scope.of(named, scope.pages if scope else ()))
        shown = f"{' '.join(rest.split())} (in {', '.join(Path(d.path).name for d in chosen)})"
        return dataclasses.replace(within, query=shown, weight=self.settings.question_weight)

    def drift_guard(self, queries: Sequence[str], vectors: np.ndarray, question_vector: np.ndarray) -> tuple[list[int], list[int]]:
        """Indices of the queries kept and dropped: a query far from the question searches for something else."""
        threshold = self.settings.drift_guard
        similarities = vectors @ question_vector if len(queries) else np.zeros(0)
        kept = [i for i, sim in enumerate(similarities) if sim >= threshold]
        return kept, [i for i in range(len(queries)) if i not in kept]

    def sources(self, fused: Sequence[FusedHit], question_vector: np.ndarray) -> list[Source]:
        """The fused hits as passages, each with its cosine similarity to the question itself; the same text
        found in several places is one passage that names them all (duplicates.py).

        Not to the query that found it: a generated name ("QX-9 coolant", "Brindle Torva") is very close to a
        passage about refrigerants or cars in general, and the "not found" gate must judge the question.
        `question_vector` may hold several rows, the question in each language it was searched in (`closeness`).
        Passages still being embedded get theirs computed here (`score_unembedded`).
        """
        passages = self.store.passages([f.chunk_id for f in fused])
        vectors = self.store.embeddings_of(passages)
        out = []
        for hit in fused:
            passage = passages.get(hit.chunk_id)
            if passage is None:  # removed while we searched
                continue
            vector = vectors.get(hit.chunk_id)
            similarity = closeness(vector, question_vector) if vector is not None else 0.0  # 0: still being embedded
            out.append(Source(len(out) + 1, passage, hit.rrf_score, hit.ranks, similarity))
        return self.score_unembedded(merge_duplicates(out), question_vector)

    def score_unembedded(self, sources: Sequence[Source], question_vector: np.ndarray) -> list[Source]:
        """Passages found by keyword while their document is still being embedded get their similarity now,
        so the "not found" gate judges them like every other passage (a handful of texts: well under a second)."""
        head = sources[: max(self.settings.top_k, self.settings.rerank_candidates)]
        pending = self.store.pending_among(s.passage.chunk_id for s in head if s.similarity == 0.0)
        if not pending:
            return list(sources)
        targets = [s for s in head if s.passage.chunk_id in pending]
        vectors = self.embedder.embed([s.passage.text for s in targets])
        similarity = {s.passage.chunk_id: closeness(v, question_vector) for s, v in zip(targets, vectors)}
        return [dataclasses.replace(s, similarity=similarity[s.passage.chunk_id]) if s.passage.chunk_id in similarity else s for s in sources]


def closeness(vector: np.ndarray, question_vectors: np.ndarray) -> float:
    """The cosine of a passage to the question: to the closest of its vectors, the question as asked and, when the
    library holds another language, as the model wrote it in that one. The embedder reads mostly English: an English
    question's cosine to a German page it answers stayed under the "not found" gate's line, which refused it unasked."""
    return float(np.max(np.atleast_2d(question_vectors) @ vector))
