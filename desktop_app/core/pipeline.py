"""RAG-Fusion and plain RAG as explicit stages, each callable and testable alone.

generate_queries -> retrieve (one ranked list per query) -> fuse (RRF) -> select context -> answer.
`ask` runs them in order and yields typed events that the window and the CLI both consume.
"""

from __future__ import annotations

import dataclasses
import re
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .answers import prompts
from .answers.citation_check import (
    check_citations,
    repair_citations,
    ungrounded_numbers,
)
from .answers.followup import Turn, rewrite_followup
from .errors import AppError, ModelError
from .events import (
    AnswerDone,
    QueriesGenerated,
    QuestionRewritten,
    SourcesRanked,
    Token,
)
from .places import place_of
from .models.embedder import Embedder
from .models.llm import Generator
from .models.rerank import CrossEncoderReranker, LlmJudgeReranker, Reranker, rerank
from .retrieval.entity_round import entity_queries
from .retrieval.fusion import interleave, reciprocal_rank_fusion
from .retrieval.query_parsing import normalize, parse_queries
from .retrieval.strategies import hypothetical_passage, rewrite_query, union
from .settings import FUSION_MODES, Settings
from .sql.table_answers import (
    ask_tables,
    skipped_tables_notice,
    tables_for_question,
    warm_up_messages,
)
from .storage.store import Store
from .storage.table_store import TableStore
from .storage.vector_index import VectorIndex
from .types import AskResult, Citation, FusedHit, RankedList, Source, Timings

NOT_FOUND_TEXT = "Not found in your documents."
_CROSS_ENCODERS: dict[str, Reranker] = {}  # loaded once per process: loading takes seconds
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
        key = (source.passage.file, source.passage.page, source.passage.kind)  # sections are numbered like pages
        if key in seen:
            continue
        seen.add(key)
        closest.append(f"{Path(source.passage.file).name} {place_of(source.passage)}")
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


def split_name_facts(lines: Sequence[str]) -> list[str]:
    """"Nigeria: capital" -> "Nigeria" and "Nigeria capital": the name alone finds the document about it,
    the name with its fact finds the passage that states it."""
    out: list[str] = []
    for line in lines:
        name, colon, fact = line.partition(":")
        name, fact = name.strip(), fact.strip()
        for query in ((name, f"{name} {fact}") if colon and name and fact else (line.replace(":", " ").strip(),)):
            if query and query not in out:
                out.append(query)
    return out


def cited_numbers(answer: str) -> list[int]:
    numbers: list[int] = []
    for match in _CITATION.finditer(answer):
        for part in match.group(1).split(","):
            n = int(part)
            if n not in numbers:
                numbers.append(n)
    return numbers


class Pipeline:
    def __init__(
        self, store: Store, index: VectorIndex, embedder: Embedder, generator: Callable[[], Generator], settings: Settings, tables: TableStore | None = None
    ):
        self.tables = tables  # the CSV/Excel tables; None: every question goes to passages
        self.store = store
        self.index = index
        self.embedder = embedder
        self._generator = generator  # loaded on first use: the window opens before the model loads
        self.settings = settings

    def warm_up(self) -> None:
        """Read the fixed prefixes of the query and answer prompts once, so the first question does not.

        A generator that keeps per-prompt KV snapshots (LlamaGenerator) then restores them, so RAG-Fusion's
        alternation between the two prompts costs only the question's own tokens.
        """
        warm_up = getattr(self._generator(), "warm_up", None)
        if warm_up is None:
            return
        for style in filter(None, (self.settings.query_style, self.settings.extra_query_style)):
            warm_up(prompts.query_messages("Warm-up question", self.settings.n_queries, style))
        warm_up(prompts.answer_messages("Warm-up question", [], self.settings.general_knowledge))
        sql_prompt = warm_up_messages(self.store, self.tables) if self.tables is not None else None
        if sql_prompt:  # only a library with tables pays for it
            warm_up(sql_prompt)

    # -- stage 1 -------------------------------------------------------------------------------
    def generate_queries(self, question: str, n: int | None = None) -> GeneratedQueries:
        n = self.settings.n_queries if n is None else n
        if n <= 0:
            return GeneratedQueries((), (), None, "")
        settings = self.settings
        style = settings.query_style
        # One line per entity: a question naming five countries may get five, up to max_queries.
        limit = n if style == "naive" else max(n, settings.max_queries)
        styles = [style] + ([settings.extra_query_style] if settings.extra_query_style and style != "naive" else [])
        queries: list[str] = []
        seen: set[str] = set()
        raws: list[str] = []
        for each in styles:
            try:
                messages = prompts.query_messages(question, n, each)
                # A tight cap and an early stop once `limit` complete queries are written: every token costs ~0.1 s.
                pieces = self._generator().stream(messages, max_tokens=settings.query_tokens_each * limit + 8, temperature=0.0)
                raw = read_queries(pieces, question, limit) if settings.query_early_stop else "".join(pieces)
            except ModelError:
                raise  # a missing or broken model file is the user's to fix; the answer needs the model too
            except Exception as exc:  # a model hiccup must not fail the question: search it alone
                return GeneratedQueries((), (), f"Query generation failed ({exc}); searched the question alone.", "")
            raws.append(raw)
            parsed = parse_queries(raw, question, limit)
            if each == "name-fact":
                parsed = split_name_facts(parsed)
            for query in parsed:  # a second prompt's query already searched is not searched again
                if normalize(query) not in seen:
                    seen.add(normalize(query))
                    queries.append(query)
        raw = "\n".join(raws)
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

    def drift_guard(self, queries: Sequence[str], vectors: np.ndarray, question_vector: np.ndarray) -> tuple[list[int], list[int]]:
        """Indices of the queries kept and dropped: a query far from the question searches for something else."""
        threshold = self.settings.drift_guard
        similarities = vectors @ question_vector if len(queries) else np.zeros(0)
        kept = [i for i, sim in enumerate(similarities) if sim >= threshold]
        return kept, [i for i in range(len(queries)) if i not in kept]

    def keyword_list(self, question: str, allowed_documents: Sequence[int] | None = None) -> RankedList:
        allowed = set(self.store.chunk_ids_of_documents(allowed_documents)) if allowed_documents is not None else None
        hits = self.store.keyword_search(question, self.settings.list_depth, allowed)
        return RankedList(query=question, kind="keyword", hits=tuple(hits), weight=self.settings.keyword_weight)

    def is_confident(self, question_list: RankedList) -> bool:
        """Adaptive fusion: a question whose best passage is already this close needs no generated queries."""
        threshold = self.settings.confident_similarity
        return threshold > 0 and bool(question_list.hits) and question_list.hits[0].score >= threshold

    # -- stage 3 -------------------------------------------------------------------------------
    def fuse(self, lists: Sequence[RankedList], k: float | None = None) -> list[FusedHit]:
        if self.settings.fusion_method == "interleave":
            return interleave(lists)
        return reciprocal_rank_fusion(lists, self.settings.rrf_k if k is None else k)

    def sources(self, fused: Sequence[FusedHit], question_vector: np.ndarray) -> list[Source]:
        """The fused hits as passages, each with its cosine similarity to the question itself.

        Not to the query that found it: a generated name ("R-1234yf", "Skoda Octavia") is very close to a
        passage about refrigerants or cars in general, and the "not found" gate must judge the question.
        """
        passages = self.store.passages([f.chunk_id for f in fused])
        vectors = self.store.embeddings_of(passages)
        out = []
        for hit in fused:
            passage = passages.get(hit.chunk_id)
            if passage is None:  # removed while we searched
                continue
            vector = vectors.get(hit.chunk_id)
            similarity = float(vector @ question_vector) if vector is not None else 0.0  # 0: still being embedded
            out.append(Source(len(out) + 1, passage, hit.rrf_score, hit.ranks, similarity))
        return out

    def score_unembedded(self, sources: Sequence[Source], question_vector: np.ndarray) -> list[Source]:
        """Passages found by keyword while their document is still being embedded get their similarity now,
        so the "not found" gate judges them like every other passage (a handful of texts: well under a second)."""
        head = sources[: max(self.settings.top_k, self.settings.rerank_candidates)]
        pending = self.store.pending_among(s.passage.chunk_id for s in head if s.similarity == 0.0)
        if not pending:
            return list(sources)
        targets = [s for s in head if s.passage.chunk_id in pending]
        vectors = self.embedder.embed([s.passage.text for s in targets])
        similarity = {s.passage.chunk_id: float(v @ question_vector) for s, v in zip(targets, vectors)}
        return [dataclasses.replace(s, similarity=similarity[s.passage.chunk_id]) if s.passage.chunk_id in similarity else s for s in sources]

    # -- stage 4 -------------------------------------------------------------------------------
    def select_context(self, sources: Sequence[Source], top_k: int | None = None) -> list[Source]:
        return list(sources[: self.settings.top_k if top_k is None else top_k])

    def is_answerable(self, context: Sequence[Source]) -> bool:
        return bool(context) and max(s.similarity for s in context) >= self.settings.min_similarity

    def reranker(self) -> Reranker:
        """The judge named in settings: "llm" (the local model) or a CrossEncoder model folder."""
        name = self.settings.reranker
        if name == "llm":
            return LlmJudgeReranker(self._generator())
        if name not in _CROSS_ENCODERS:
            folder = Path(name).expanduser()
            if not folder.is_dir():
                raise AppError(f"The reranker folder {folder} does not exist", hint="Point Settings at a sentence-transformers CrossEncoder folder, or use 'llm'.")
            _CROSS_ENCODERS[name] = CrossEncoderReranker(folder)
        return _CROSS_ENCODERS[name]

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
        history: Sequence[Turn] = (),
    ) -> Iterator[object]:
        """Yields [QuestionRewritten], QueriesGenerated, SourcesRanked, Token..., AnswerDone.

        `queries` replaces the generated queries (the panel's edited list is searched as given).
        `history` holds the chat's earlier turns: a follow-up is rewritten into a standalone question first.
        """
        mode = mode or self.settings.mode
        # Tables are asked with SQL the model writes (mode "sql", or a scope of tables only); passages go on below.
        table_infos = tables_for_question(self.store, mode, allowed_documents) if self.tables is not None else None
        if table_infos is not None:
            yield from ask_tables(self._generator, self.tables, table_infos, question, self.settings, mode, history, cancel, generate_answer)
            return
        effective = self.settings.for_mode(mode)
        if effective != self.settings:  # naive-fusion runs the same stages with the paper's settings
            yield from Pipeline(self.store, self.index, self.embedder, self._generator, effective, self.tables).ask(
                question, mode, allowed_documents, generate_answer, cancel, queries, history
            )
            return
        settings = self.settings
        fusion = mode in FUSION_MODES  # these search the question plus generated queries
        started = time.perf_counter()
        t = {}
        notices: list[str] = []
        if self.tables is not None and generate_answer and allowed_documents is not None:
            notice = skipped_tables_notice(self.store, allowed_documents)
            if notice:
                notices.append(notice)
        asked = question
        if history:
            question = rewrite_followup(self._generator(), history, question)
            yield QuestionRewritten(asked, question)

        # Rewrite-retrieve-read and HyDE search one text the LLM writes instead of the question.
        strategy_text = None
        strategy_time = 0.0
        if mode in ("rewrite", "hyde"):
            mark = time.perf_counter()
            write = rewrite_query if mode == "rewrite" else hypothetical_passage
            strategy_text = write(self._generator(), question)
            strategy_time = time.perf_counter() - mark
        searched = strategy_text or question

        # The question is searched first: its list decides whether generated queries are worth their time.
        mark = time.perf_counter()
        question_vector = self.embedder.embed([searched])
        t["embedding"] = time.perf_counter() - mark
        mark = time.perf_counter()
        lists = self.retrieve([searched], question_vector, allowed_documents, [settings.question_weight if fusion else 1.0])
        t["retrieval"] = time.perf_counter() - mark

        mark = time.perf_counter()
        generated = GeneratedQueries((), (), None, "")
        if strategy_text is not None:
            generated = GeneratedQueries((strategy_text,), (), None, "")
        elif fusion and queries is not None:
            generated = GeneratedQueries(tuple(q for q in queries if q.strip()), (), None, "")
        elif fusion and self.is_confident(lists[0]):
            generated = GeneratedQueries((), (), "The question alone found a close match; no extra queries were generated.", "")
        elif fusion:
            generated = self.generate_queries(question)
        t["query_generation"] = time.perf_counter() - mark + strategy_time

        mark = time.perf_counter()
        extra = generated.queries if fusion else ()
        query_vectors = self.embedder.embed(list(extra)) if extra else np.zeros((0, 1), dtype=np.float32)
        if extra and queries is None:  # what the user typed is searched as given
            kept, dropped = self.drift_guard(generated.queries, query_vectors, question_vector[0])
            generated = GeneratedQueries(
                tuple(generated.queries[i] for i in kept), tuple(generated.queries[i] for i in dropped), generated.notice, generated.raw
            )
            query_vectors = query_vectors[kept]
        t["embedding"] += time.perf_counter() - mark
        if generated.notice:
            notices.append(generated.notice)
        yield QueriesGenerated(generated.queries, generated.dropped, generated.notice)

        mark = time.perf_counter()
        if fusion and generated.queries:
            lists += self.retrieve(generated.queries, query_vectors, allowed_documents, [1.0] * len(generated.queries))
        # Union orders by cosine similarity, which keyword scores do not share: multi-query stays vector-only.
        keyword_lists = fusion and settings.keyword_weight > 0 and mode != "multi-query"
        if keyword_lists:
            keyword_texts = {"question": [question], "queries": list(generated.queries), "both": [question, *generated.queries]}
            for text in keyword_texts[settings.keyword_source]:
                lists.append(self.keyword_list(text, allowed_documents))
        if self.store.pending_count():
            # A document still being embedded is only found by keyword: search the question that way too.
            if not keyword_lists and mode != "multi-query":
                lists.append(dataclasses.replace(self.keyword_list(question, allowed_documents), weight=1.0))
            notices.append("Some documents are still being indexed; until they are, they are found by keyword only.")
        t["retrieval"] += time.perf_counter() - mark

        mark = time.perf_counter()
        fused = union(lists) if mode == "multi-query" else self.fuse(lists)
        sources = self.score_unembedded(self.sources(fused, question_vector[0]), question_vector[0])
        t["fusion"] = time.perf_counter() - mark
        if fusion and settings.entity_round > 0 and mode != "multi-query" and sources and queries is None:
            lists, sources, named = self._entity_round(question, question_vector[0], lists, sources, generated.queries, allowed_documents, t)
            generated = dataclasses.replace(generated, queries=generated.queries + tuple(named))
        mark = time.perf_counter()
        if settings.reranker:
            context = rerank(self.reranker(), question, sources[: settings.rerank_candidates], settings.top_k)
        else:
            context = self.select_context(sources)
        t["rerank"] = time.perf_counter() - mark
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
        if generate_answer and found and answer and not settings.general_knowledge:
            invented = ungrounded_numbers(answer, question, context)
            if invented and not any(c.supported for c in check_citations(answer, context)):
                notices.append(
                    f"The model answered \u201c{answer.strip()[:200]}\u201d, but no passage contains {', '.join(sorted(invented))}: "
                    "that answer did not come from your documents."
                )
                answer, found = not_found_answer(sources or context), False
        if found and answer:
            answer, repaired = repair_citations(answer, context)
            for old, new in sorted(repaired.items()):
                notices.append(f"Citation [{old}] pointed at a passage that does not say this; it now points at [{new}].")
        citations = self._citations(answer, context) if found else []
        if generate_answer and found and not citations:
            notices.append("The answer cites no passage; check it against the sources.")
        unsupported = {c.n for c in check_citations(answer, context) if not c.supported} if found else set()
        if unsupported:
            citations = [dataclasses.replace(c, supported=c.n not in unsupported) for c in citations]
            marks = ", ".join(f"[{n}]" for n in sorted(unsupported))
            notices.append(f"Citation {marks} may not support the sentence that cites it; check the passage.")
        timings = Timings.with_answer(
            started, answer_started, first_token_at, end,
            query_generation=t["query_generation"], embedding=t["embedding"], retrieval=t["retrieval"], fusion=t["fusion"], rerank=t["rerank"],
        )
        result = AskResult(
            question=asked,
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
            standalone_question=question if question != asked else "",
        )
        yield AnswerDone(result)

    def _entity_round(self, question, question_vector, lists, sources, known, allowed_documents, t):
        """Search the names the first round's top passages give; the fused list is recomputed with them."""
        mark = time.perf_counter()
        named = entity_queries(self._generator(), question, sources[: self.settings.entity_passages], [question, *known], self.settings.entity_round)
        t["query_generation"] += time.perf_counter() - mark
        if not named:
            return lists, sources, []
        mark = time.perf_counter()
        vectors = self.embedder.embed(named)
        t["embedding"] += time.perf_counter() - mark
        mark = time.perf_counter()
        lists = [*lists, *self.retrieve(named, vectors, allowed_documents, [1.0] * len(named))]
        t["retrieval"] += time.perf_counter() - mark
        mark = time.perf_counter()
        sources = self.score_unembedded(self.sources(self.fuse(lists), question_vector), question_vector)
        t["fusion"] += time.perf_counter() - mark
        return lists, sources, named

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
                out.append(Citation.from_passage(n, context[n - 1].passage))
        return out
