"""RAG-Fusion and plain RAG as explicit stages, each callable and testable alone.

generate_queries -> retrieve (one ranked list per query) -> fuse (RRF) -> select context -> answer.
`ask` runs them in order and yields typed events that the window and the CLI both consume.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import prompts
from .embedder import Embedder
from .fusion import reciprocal_rank_fusion
from .llm import Generator
from .query_parsing import parse_queries
from .settings import Settings
from .store import Store
from .types import (
    AnswerDone,
    AskResult,
    Citation,
    FusedHit,
    QueriesGenerated,
    RankedList,
    Source,
    SourcesRanked,
    Timings,
    Token,
)
from .vector_index import VectorIndex

NOT_FOUND_TEXT = "Not found in your documents."
_CITATION = re.compile(r"\[(\d+(?:\s*,\s*\d+)*)\]")


@dataclass(frozen=True)
class GeneratedQueries:
    queries: tuple[str, ...]
    dropped: tuple[str, ...]  # off-topic queries the drift guard removed
    notice: str | None
    raw: str


def not_found_answer(sources: Sequence[Source], limit: int = 3) -> str:
    closest = []
    seen = set()
    for source in sorted(sources, key=lambda s: -s.similarity):
        key = (source.passage.file, source.passage.page)
        if key in seen:
            continue
        seen.add(key)
        closest.append(f"{Path(source.passage.file).name} page {source.passage.page}")
        if len(closest) >= limit:
            break
    if not closest:
        return NOT_FOUND_TEXT + " Your library has no passages to search yet."
    return f"{NOT_FOUND_TEXT} The closest pages are: {'; '.join(closest)}."


def read_queries(pieces: Iterable[str], question: str, n: int) -> str:
    """The streamed query text, cut as soon as `n` usable queries are complete.

    Small models often keep talking after the list (explanations, more queries); every token
    not generated is time the user does not wait.
    """
    raw = ""
    try:
        for piece in pieces:
            raw += piece
            if "\n" in piece:
                complete = raw[: raw.rfind("\n")]
                if len(parse_queries(complete, question, n)) >= n:
                    return complete
    finally:
        close = getattr(pieces, "close", None)
        if close:
            close()
    return raw


def cited_numbers(answer: str) -> list[int]:
    numbers: list[int] = []
    for match in _CITATION.finditer(answer):
        for part in match.group(1).split(","):
            n = int(part)
            if n not in numbers:
                numbers.append(n)
    return numbers


class Pipeline:
    def __init__(self, store: Store, index: VectorIndex, embedder: Embedder, generator: Callable[[], Generator], settings: Settings):
        self.store = store
        self.index = index
        self.embedder = embedder
        self._generator = generator  # loaded on first use: the window opens before the model loads
        self.settings = settings

    # -- stage 1 -------------------------------------------------------------------------------
    def generate_queries(self, question: str, n: int | None = None) -> GeneratedQueries:
        n = self.settings.n_queries if n is None else n
        if n <= 0:
            return GeneratedQueries((), (), None, "")
        try:
            settings = self.settings
            system = prompts.answer_system(settings.general_knowledge) if settings.share_system_prompt else None
            pieces = self._generator().stream(prompts.query_messages(question, n, system), max_tokens=settings.query_tokens_each * n + 8, temperature=0.0)
            raw = read_queries(pieces, question, n) if settings.query_early_stop else "".join(pieces)
        except Exception as exc:  # a failed model must not fail the question: search it alone
            return GeneratedQueries((), (), f"Query generation failed ({exc}); searched the question alone.", "")
        queries = parse_queries(raw, question, n)
        if not queries:
            return GeneratedQueries((), (), "The model wrote no usable search queries; searched the question alone.", raw)
        return GeneratedQueries(tuple(queries), (), None, raw)

    # -- stage 2 -------------------------------------------------------------------------------
    def retrieve(self, texts: Sequence[str], vectors: np.ndarray, allowed_documents: Sequence[int] | None = None, weights: Sequence[float] | None = None) -> list[RankedList]:
        allowed = None
        if allowed_documents is not None:
            ids = self.store.chunk_ids_of_documents(allowed_documents)
            allowed = ids.__contains__
        lists = []
        for i, (text, vector) in enumerate(zip(texts, vectors)):
            hits = self.index.search(vector, self.settings.list_depth, allowed)
            weight = weights[i] if weights else 1.0
            lists.append(RankedList(query=text, kind="vector", hits=tuple(hits), weight=weight))
        return lists

    # -- stage 3 -------------------------------------------------------------------------------
    def fuse(self, lists: Sequence[RankedList], k: float | None = None) -> list[FusedHit]:
        return reciprocal_rank_fusion(lists, self.settings.rrf_k if k is None else k)

    def sources(self, fused: Sequence[FusedHit], lists: Sequence[RankedList]) -> list[Source]:
        passages = self.store.passages([f.chunk_id for f in fused])
        best: dict[int, float] = {}
        for ranked in lists:
            for hit in ranked.hits:
                if ranked.kind == "vector":
                    best[hit.chunk_id] = max(best.get(hit.chunk_id, -1.0), hit.score)
        out = []
        for hit in fused:
            passage = passages.get(hit.chunk_id)
            if passage is None:  # removed while we searched
                continue
            out.append(Source(len(out) + 1, passage, hit.rrf_score, hit.ranks, best.get(hit.chunk_id, 0.0)))
        return out

    # -- stage 4 -------------------------------------------------------------------------------
    def select_context(self, sources: Sequence[Source], top_k: int | None = None) -> list[Source]:
        return list(sources[: self.settings.top_k if top_k is None else top_k])

    def is_answerable(self, context: Sequence[Source]) -> bool:
        return bool(context) and max(s.similarity for s in context) >= self.settings.min_similarity

    # -- stage 5 -------------------------------------------------------------------------------
    def answer(self, question: str, context: Sequence[Source]) -> Iterator[str]:
        messages = prompts.answer_messages(question, context, self.settings.general_knowledge)
        return self._generator().stream(messages, max_tokens=self.settings.max_answer_tokens, temperature=self.settings.temperature)

    # -- all together --------------------------------------------------------------------------
    def search(self, question: str, mode: str | None = None, allowed_documents: Sequence[int] | None = None) -> Iterator[object]:
        """Everything but the answer: yields QueriesGenerated, SourcesRanked, then AnswerDone with answer ''."""
        return self.ask(question, mode, allowed_documents, generate_answer=False)

    def ask(
        self,
        question: str,
        mode: str | None = None,
        allowed_documents: Sequence[int] | None = None,
        generate_answer: bool = True,
        cancel: threading.Event | None = None,
        queries: Sequence[str] | None = None,
    ) -> Iterator[object]:
        """Yields QueriesGenerated, SourcesRanked, Token..., AnswerDone.

        `queries` replaces the generated queries (the panel's edited list is searched as given).
        """
        settings = self.settings
        mode = mode or settings.mode
        started = time.perf_counter()
        t = {}
        notices: list[str] = []

        if mode == "fusion":
            if queries is None:
                generated = self.generate_queries(question)
            else:
                generated = GeneratedQueries(tuple(q for q in queries if q.strip()), (), None, "")
        else:
            generated = GeneratedQueries((), (), None, "")
        t["query_generation"] = time.perf_counter() - started
        if generated.notice:
            notices.append(generated.notice)
        yield QueriesGenerated(generated.queries, generated.dropped, generated.notice)

        mark = time.perf_counter()
        texts = [question, *generated.queries]
        vectors = self.embedder.embed(texts)
        t["embedding"] = time.perf_counter() - mark

        mark = time.perf_counter()
        weights = [settings.question_weight] + [1.0] * len(generated.queries)
        lists = self.retrieve(texts, vectors, allowed_documents, weights)
        t["retrieval"] = time.perf_counter() - mark

        mark = time.perf_counter()
        fused = self.fuse(lists) if mode == "fusion" else self.fuse(lists[:1])
        sources = self.sources(fused, lists)
        context = self.select_context(sources)
        t["fusion"] = time.perf_counter() - mark
        yield SourcesRanked(tuple(lists), tuple(sources), tuple(context))

        answer = ""
        found = True
        first_token_at = None
        answer_started = time.perf_counter()
        if generate_answer:
            if not self.is_answerable(context) and not settings.general_knowledge:
                found = False
                answer = not_found_answer(sources or context)
                first_token_at = time.perf_counter()
                yield Token(answer)
            else:
                answer, found, first_token_at = yield from self._stream_answer(question, context, sources, cancel)
        end = time.perf_counter()
        citations = self._citations(answer, context) if found else ()
        if generate_answer and found and not citations:
            notices.append("The answer cites no passage; check it against the sources.")
        timings = Timings(
            query_generation=t["query_generation"],
            embedding=t["embedding"],
            retrieval=t["retrieval"],
            fusion=t["fusion"],
            prompt_processing=(first_token_at - answer_started) if first_token_at else 0.0,
            first_token=(first_token_at - started) if first_token_at else 0.0,
            generation=(end - first_token_at) if first_token_at else 0.0,
            total=end - started,
        )
        result = AskResult(
            question=question,
            mode=mode,
            queries=generated.queries,
            dropped_queries=generated.dropped,
            lists=tuple(lists),
            rrf_k=settings.rrf_k,
            sources=tuple(sources),
            context=tuple(context),
            answer=answer,
            citations=tuple(citations),
            found=found,
            timings=timings,
            notices=tuple(notices),
        )
        yield AnswerDone(result)

    def _stream_answer(self, question, context, sources, cancel) -> Iterator[object]:
        """Streams tokens; holds back the first few characters to catch the model's NOT FOUND reply."""
        stream = self.answer(question, context)
        pending = ""
        text = ""
        decided = False
        first_token_at = None
        try:
            for piece in stream:
                if first_token_at is None:
                    first_token_at = time.perf_counter()
                if cancel is not None and cancel.is_set():
                    break
                if decided:
                    text += piece
                    yield Token(piece)
                    continue
                pending += piece
                probe = pending.lstrip().upper()
                if probe.startswith(prompts.NOT_FOUND_MARK) or (len(probe) < len(prompts.NOT_FOUND_MARK) and prompts.NOT_FOUND_MARK.startswith(probe)):
                    if probe.startswith(prompts.NOT_FOUND_MARK):
                        answer = not_found_answer(sources or context)
                        yield Token(answer)
                        return answer, False, first_token_at
                    continue
                decided = True
                text = pending.lstrip()
                yield Token(text)
        finally:
            close = getattr(stream, "close", None)
            if close:
                close()
        if not decided and pending.strip():
            text = pending.strip()
            yield Token(text)
        if not text.strip():
            answer = not_found_answer(sources or context)
            yield Token(answer)
            return answer, False, first_token_at
        return text, True, first_token_at

    @staticmethod
    def _citations(answer: str, context: Sequence[Source]) -> list[Citation]:
        out = []
        for n in cited_numbers(answer):
            if 1 <= n <= len(context):
                p = context[n - 1].passage
                out.append(Citation(n=n, file=p.file, page=p.page, text=p.text, chunk_id=p.chunk_id, start=p.start, end=p.end))
        return out
