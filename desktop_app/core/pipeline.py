"""A question's path through the stages, each callable and testable alone.

generate queries (retrieval/query_writing.py) -> retrieve one ranked list per text (retrieval/search.py)
-> fuse (retrieval/fusion.py) -> select the evidence sentences (retrieval/evidence.py), shown at once
-> answer from them (answers/streaming.py) -> check it (answers/review.py).

`ask` runs them in order for any mode (modes.py: what a mode searches, which lists, how they merge) and yields
the typed events of events.py, which the window, the CLI and the eval harness all consume.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections.abc import Callable, Generator, Iterator, Sequence

import numpy as np

from .answers import prompts
from .answers.model_check import ModelCheck, check_messages, claim_messages
from .answers.review import ReviewedAnswer, citations_of, claim_spans, closing_marks, review_answer
from .answers.streaming import Streamed, missing_lines, not_found_answer, refuse, stream_answer
from .citation_marks import cited_numbers
from .clock import StageClock
from .events import (
    READING,
    SEARCHING,
    WRITING_QUERIES,
    AnswerDone,
    AskEvent,
    EvidenceSelected,
    FiltersRead,
    QueriesGenerated,
    QuestionRewritten,
    SourcesRanked,
    StageStarted,
    Token,
)
from .models.embedder import Embedder
from .models.embedding_memo import EmbeddingMemo
from .models.llm import Generator as LLM
from .models.reading_speed import ReadingSpeed
from .models.rerank import rerank, reranker_named
from .modes import Mode, Round, mode_named
from .overview.answering import NotFromOverview, answer_from_overviews, plan_answer, whole_document_question
from .overview.intent import WholeDocumentQuestion, page_summary
from .retrieval.evidence import Evidence, closest_with_words, headed, on_the_page, select_evidence
from .retrieval.followup import Turn, rewrite_followup
from .retrieval.fusion import reciprocal_rank_fusion
from .retrieval.on_question import stay_on_question, with_translations
from .retrieval.query_styles import DEFAULT_QUERY_STYLE, query_messages
from .retrieval.query_writing import GeneratedQueries, write_queries
from . import languages, spelled_numbers
from .languages import LANGUAGE_NAMES, MOST_TRANSLATIONS, detect_language, notable, other_languages
from .retrieval.question_filters import WithoutFilters, no_match_answer, read_filters, with_earlier
from .retrieval.translation import in_language, translation_messages
from .retrieval.scope import Scope
from .retrieval.search import Searcher
from .settings import Settings
from .sql.table_answers import ask_tables, skipped_tables_notice, tables_for_question, warm_up_messages
from .storage.store import Store
from .storage.table_store import TableStore
from .storage.vector_index import VectorIndex
from .types import AskResult, FusedHit, QuestionFilters, Quote, RankedList, Source, Timings
from .word_pieces import word_count
from .words import meaningful, tokens

log = logging.getLogger(__name__)
# Shown when the answer check itself fails (a fault of the app): the answer stays, unchecked.
CHECK_FAILED = "The app could not check this answer against its passages (an error, written to the log): read its citations yourself."

# Documents of an older library whose language is read per question (core/languages.py), until all are.
LANGUAGE_BATCH = 200
INDEXING_NOTICE = "Some documents are still being indexed; until they are, they are found by keyword only."
ASKS_NOTHING_WORDS = 2  # what is left of a question naming its pages, this short, is its frame ("What is?"), not a question


class Pipeline:
    def __init__(
        self,
        store: Store,
        index: VectorIndex,
        embedder: Embedder,
        generator: Callable[[], LLM],
        settings: Settings,
        tables: TableStore | None = None,
        reading_speed: ReadingSpeed | None = None,
    ):
        self.tables = tables  # the CSV/Excel tables; None: every question goes to passages
        # The model's measured prompt-reading speed, kept by the library across questions: the wait's estimate.
        self.reading_speed = reading_speed or ReadingSpeed()
        self._counted: tuple[str, int] = ("", 0)  # the last prompt whose tokens were counted, and their number
        self.store = store
        self.index = index
        self.embedder = EmbeddingMemo.around(embedder)  # the review re-reads the evidence's sentences: embedded once
        self._generator = generator  # loaded on first use: the window opens before the model loads
        self.settings = settings
        self.searcher = Searcher(store, index, self.embedder, settings)

    def llm(self) -> LLM:
        """The language model, loaded on first use."""
        return self._generator()

    def with_settings(self, settings: Settings) -> Pipeline:
        return Pipeline(self.store, self.index, self.embedder, self._generator, settings, self.tables, self.reading_speed)

    def warm_up(self) -> None:
        """Read the fixed prefixes of the query, answer and question-check prompts once, so the first question does not.

        A generator that keeps per-prompt KV snapshots (LlamaGenerator) then restores them, so RAG-Fusion's
        alternation between the two prompts costs only the question's own tokens.
        """
        generator = self._generator()
        warm_up = getattr(generator, "warm_up", None)
        if warm_up is None:
            return
        styles = mode_named(self.settings.mode).query_styles or mode_named("fusion").query_styles
        warmed = [query_messages("Warm-up question", self.settings.n_queries, style) for style in styles]
        warmed.append(prompts.answer_messages("Warm-up question", [], self.settings.general_knowledge))
        if self.settings.question_check:
            warmed.append(check_messages("Warm-up question", "Warm-up text"))
        if self.settings.claim_check:
            warmed.append(claim_messages("Warm-up claim", "Warm-up text"))
        languages_held = self.documents_languages() if self.settings.document_language_queries else []
        for language in [held for held in languages_held if held in LANGUAGE_NAMES][: MOST_TRANSLATIONS + 1]:
            # a question in another language than one the library holds is written in it with this prompt
            warmed.append(translation_messages("Warm-up question", LANGUAGE_NAMES[language]))
        sql_prompt = warm_up_messages(self.store, self.tables) if self.tables is not None else None
        if sql_prompt:  # only a library with tables pays for it
            warmed.append(sql_prompt)
        for messages in warmed:
            started = time.perf_counter()
            warm_up(messages)
            # A prefix read now (not loaded from the prompt cache) measures the reading speed before any question.
            use = (getattr(generator, "prefix_uses", None) or [None])[-1]
            if use is not None and use.source == "read":
                self.reading_speed.record(use.evaluated, time.perf_counter() - started)

    # -- the stages, each callable alone -------------------------------------------------------
    def generate_queries(self, question: str, n: int | None = None, styles: Sequence[str] = (DEFAULT_QUERY_STYLE,)) -> GeneratedQueries:
        """The model's queries that stay on the question (retrieval/on_question.py); none usable: its key terms."""
        generated = write_queries(self._generator, question, self.settings, styles, n)
        if (self.settings.n_queries if n is None else n) <= 0:
            return generated
        return stay_on_question(generated, question, styles, self.store.mentioned_words, self.store.holds_together)

    def retrieve(self, texts: Sequence[str], vectors: np.ndarray, scope: Scope | None = None, weights: Sequence[float] | None = None) -> list[RankedList]:
        return self.searcher.vector_lists(texts, vectors, scope, weights)

    def fuse(self, lists: Sequence[RankedList], k: float | None = None) -> list[FusedHit]:
        return reciprocal_rank_fusion(lists, self.settings.rrf_k if k is None else k)

    def sources(self, fused: Sequence[FusedHit], question_vector: np.ndarray) -> list[Source]:
        return self.searcher.sources(fused, question_vector)

    def own_passage(self, question: str, lists: Sequence[RankedList]) -> int | None:
        """The question's own passage (fusion puts it first for a question about one thing; None: no pick).

        A question naming a code the library holds ("io.readBlock"; its keyword list then weighs as the question,
        Searcher.question_keyword_list): the first passage of that keyword list, among its first top_k, that writes the
        code, one whose section heading writes it before one that only mentions it (a guide's paragraph about a function
        says less of it than the reference's item under its heading), and of those the one holding most of the
        question's words (`words.meaningful`, read under its heading): by the keyword list's order alone, a section's
        short heading passage, or a passage naming the function once, came before the item holding the option asked
        about, as the keyword ranking favours short passages and a rare term. The embedder reads such a name as pieces of words,
        so the vector search ranks a sibling function's item as close as the named one's; the keyword list, which also
        weighs the question's other words, ranks the named function's item for the asked option first
        (bench/section_options.py, docs/evaluation.md).
        Any other question: the passage of its vector search's first top_k with the best cosine plus shared words, as
        the quotes on screen are ordered (evidence.closest_with_words), read under its title and heading. By cosine
        alone the bundled embedder, which reads English best, put a passage about something else first for a question
        in another language."""
        if not lists or lists[0].kind != "vector":
            return None
        asked = next((r for r in lists if r.kind == "keyword" and r.query == question and r.weight >= self.settings.question_weight), None)
        if asked is not None and (codes := self.searcher.named_codes(question)):
            head = asked.hits[: self.settings.top_k]
            written = self.store.passages([h.chunk_id for h in head])
            read = {h.chunk_id: set(tokens(headed(written[h.chunk_id]))) for h in head if h.chunk_id in written}
            holding = [chunk_id for chunk_id, words in read.items() if codes & words]
            under = [c for c in holding if codes & set(tokens(written[c].section or ""))]
            ranked = under or holding
            if ranked:  # the one holding most of the question's words; the keyword list's order among equals
                asked_words = set(meaningful(question))
                return max(ranked, key=lambda chunk_id: len(asked_words & read[chunk_id]))
        hits = lists[0].hits[: self.settings.top_k]
        passages = self.store.passages([h.chunk_id for h in hits])
        hits = [h for h in hits if h.chunk_id in passages]
        if not hits:
            return None
        return hits[closest_with_words(question, [headed(passages[h.chunk_id]) for h in hits], [h.score for h in hits])].chunk_id

    def select_context(self, sources: Sequence[Source], top_k: int | None = None) -> list[Source]:
        return list(sources[: self.settings.top_k if top_k is None else top_k])

    def choose_context(self, question: str, sources: Sequence[Source]) -> list[Source]:
        """The passages the model reads: the fused top_k, or the reranker's pick among more candidates."""
        if not self.settings.reranker:
            return self.select_context(sources)
        judge = reranker_named(self.settings.reranker, self._generator)
        return rerank(judge, question, sources[: self.settings.rerank_candidates], self.settings.top_k)

    def is_answerable(self, context: Sequence[Source]) -> bool:
        return bool(context) and max(s.similarity for s in context) >= self.settings.min_similarity

    def select_evidence(self, question: str, found: Round) -> Evidence:
        """The sentences of the top fused passages the model reads, within Settings.evidence_tokens."""
        return select_evidence(
            question, found.question_vector, found.generated.queries, found.sources, self.embedder,
            self.settings.evidence_tokens, candidates=2 * self.settings.top_k, max_sentences=self.settings.evidence_embedded,
        )

    def first_look(self, question: str, question_vector: np.ndarray, question_list: RankedList, mode: Mode) -> tuple[Quote, ...]:
        """The best sentences of the question's own search, scored by shared words (no embedding: this runs before
        the queries are written and must not delay them), numbered 0 since the model does not read them as such."""
        sources = self.sources(mode.merge.fuse([question_list], self.settings, None), question_vector)
        found = select_evidence(question, question_vector, (), sources, self.embedder, self.settings.evidence_tokens, candidates=self.settings.top_k, max_sentences=0)
        return tuple(dataclasses.replace(q, citation=dataclasses.replace(q.citation, n=0)) for q in found.quotes)

    def answer(self, question: str, context: Sequence[Source], names: Sequence[str] = (), asked: str = "", pages_asked: bool = False) -> Iterator[str]:
        messages = prompts.answer_messages(question, context, self.settings.general_knowledge, names, asked, pages_asked)
        pieces = self._generator().stream(messages, max_tokens=self.settings.max_answer_tokens, temperature=self.settings.temperature)
        return self.reading_speed.timed(pieces, self.reading_tokens(messages))

    def reading_tokens(self, messages: Sequence[dict[str, str]]) -> int:
        """The tokens the model reads for an answer before its first word: the passages and the question (the
        fixed instructions before them come from the prompt cache). 0 when they cannot be counted.

        Counted once per prompt (the estimate and the measurement ask for the same one): a server counts over
        the network."""
        content = messages[-1]["content"]
        if self._counted[0] != content:
            try:
                self._counted = (content, self._generator().count_tokens(content))
            except Exception:  # a server that cannot be reached: no estimate, and the answer goes on
                self._counted = (content, 0)
        return self._counted[1]

    def reading_estimate(self, question: str, context: Sequence[Source], evidence: Evidence | None) -> float | None:
        """Seconds the model will take to read this answer's prompt, from the measured speed; None before any."""
        if self.reading_speed.tokens_per_second is None or not context:
            return None
        names = evidence.names if evidence is not None else ()
        return self.reading_speed.seconds_for(self.reading_tokens(prompts.answer_messages(question, context, self.settings.general_knowledge, names)))

    # -- all together --------------------------------------------------------------------------
    def search(self, question: str, mode: str | None = None, allowed_documents: Sequence[int] | None = None, **kwargs) -> Iterator[AskEvent]:
        """Everything but the answer: yields QueriesGenerated, SourcesRanked, then AnswerDone with answer ''."""
        return self.ask(question, mode, allowed_documents, generate_answer=False, **kwargs)

    def read_filters(self, question: str, ignored: Sequence[str] = ()) -> QuestionFilters:
        """The files, pages, file types and import dates the question limits itself to (retrieval/question_filters.py)."""
        return read_filters(question, self.store.document_names(), ignored)

    def ask(
        self,
        question: str,
        mode: str | None = None,
        allowed_documents: Sequence[int] | None = None,
        generate_answer: bool = True,
        cancel: threading.Event | None = None,
        queries: Sequence[str] | None = None,
        history: Sequence[Turn] = (),
        asked_at: float | None = None,
        ignored_filters: Sequence[str] = (),
    ) -> Iterator[AskEvent]:
        """Yields [QuestionRewritten], [FiltersRead], QueriesGenerated, SourcesRanked, Token..., AnswerDone.

        `queries` replaces the generated queries (the panel's edited list is searched as given).
        `history` holds the chat's earlier turns: a follow-up is rewritten into a standalone question first.
        `ignored_filters`: phrases of the question not to read as filters (chips the person removed).
        """
        chosen = mode_named(mode or self.settings.mode)
        filters = self.read_filters(question, ignored_filters)
        documents = self._filtered_documents(filters, allowed_documents)
        # Tables are asked with SQL the model writes (mode "sql", or a scope of tables only); passages go on below.
        table_infos = tables_for_question(self.store, chosen.name, documents) if self.tables is not None else None
        if table_infos is not None:
            yield from ask_tables(self._generator, self.tables, table_infos, question, self.settings, chosen.name, history, cancel, generate_answer)
            return
        settings = chosen.settings_for(self.settings)
        if settings != self.settings:  # naive-fusion runs the same stages with the paper's settings
            yield from self.with_settings(settings).ask(question, mode, allowed_documents, generate_answer, cancel, queries, history, asked_at, ignored_filters)
            return
        # `asked_at` (time.perf_counter()): when the person asked, if the question waited for the model to load first.
        started = asked_at or time.perf_counter()
        clock = StageClock(started)
        clock.seconds["model_wait"] = time.perf_counter() - started
        notices = self._skipped_tables(documents) if generate_answer else []
        asked = question
        # A whole-document question naming what it is about is routed as asked: the model's rewrite turned
        # "Summarize chapter 2 of X" into a question about the chat's last answer.
        if history and not (generate_answer and queries is None and (routed := self._whole_document(question, filters, documents)) and routed.stands_alone):
            question = rewrite_followup(self._generator(), history, question)
            yield QuestionRewritten(asked, question)
            filters = self.read_filters(question, ignored_filters)
            if question != asked:  # read with the chat, it is asked where the chat was (the rewrite often drops "in X.pdf")
                filters = with_earlier(filters, history[-1].filters, self.store.document_names())
            documents = self._filtered_documents(filters, allowed_documents)
        standalone = question if question != asked else ""  # a follow-up's rewrite: what a whole-document answer says it read
        scope = Scope.of(documents, filters.pages)
        if filters.parts:
            yield FiltersRead(filters)
            refusal = no_match_answer(filters, self.store.document_names(), self.searcher.allowed_chunks(scope))
            if refusal:
                yield Token(refusal)
                yield AnswerDone(self._unsearched(asked, chosen.name, question, refusal, filters, clock, started))
                return
        if generate_answer and queries is None:
            # Routed on the question as written: a file it names is the subject of "what is X about?" as well as a filter.
            # A question naming pages is routed only when it asks for them whole ("summarize pages 10-12 of X"); "what is
            # on page 2 of X?" asks what the page says, read whole below.
            if (yield from self._answer_whole_document(question, asked, standalone, chosen.name, documents, cancel, started, notices, filters)):
                return
        # Searched without the filters' phrases (a file's name is no word of its text), and checked so too (the search
        # applied them exactly; "does this sentence answer it?" is about the rest). Answered from the question as the
        # person asked it: "What does say about resetting?" is no question a model can answer.
        searched = filters.searched if filters.parts else question
        pages_asked = bool(filters.pages)
        # "What is on page 2 of X?" leaves "What is?" ("Was steht?", "Que dit ?"): any sentence of the page answers it,
        # and none can be checked against it. Two words or fewer, or none but function words, ask nothing of their own.
        left = not meaningful(searched) or word_count(searched) <= ASKS_NOTHING_WORDS
        # Named pages are read whole: when all their passages fit in what the model reads, queries could only reorder
        # them, in any language ("第2页讲了什么？" got the queries "讲了 了什 什么", "文章"), and cost a model call.
        fits = pages_asked and len(self.searcher.allowed_chunks(scope) or ()) <= settings.top_k
        if pages_asked and (left or fits) and queries is None:
            queries = ()  # the pages are read whole: queries would find nothing more, and the model wrote chatter for them
        found, context, evidence = yield from self._search_passages(chosen, searched, scope, queries, clock, notices, generate_answer, pages_asked)
        yield StageStarted(READING, len(context), self.reading_estimate(question, context, evidence) if generate_answer else None)
        answer_started = time.perf_counter()
        answer, ok, first_token_at = (yield from self._answer(question, context, found.sources, cancel, evidence, notices, asked, pages_asked)) if generate_answer else ("", True, None)
        end = time.perf_counter()
        names = (*evidence.names, *evidence.missing) if evidence is not None else ()
        asks = (settings.question_check or settings.claim_check) and generate_answer and ok and answer
        questioned = settings.question_check and not (pages_asked and left)
        check = ModelCheck(self._generator(), settings.refuse_when_sure, questioned, settings.claim_check) if asks else None
        # A claim restating the question's filters ("La page 2 de X.pdf décrit ...") is checked without them.
        unlocated = WithoutFilters(tuple(self.store.document_names()), filters) if filters.parts else None
        try:
            reviewed = review_answer(
                answer, ok, searched, context, found.sources, generate_answer, settings.general_knowledge, names,
                embedder=self.embedder, model_check=check, unlocated=unlocated, queries=found.generated.queries,
            )
        except Exception:  # a fault in the check must not lose the answer the person waited for: it is shown unchecked, and said
            log.exception("the answer's check failed")
            reviewed = ReviewedAnswer(answer, ok, tuple(citations_of(answer, context)), (CHECK_FAILED,) if ok and answer else ())
        review_s = time.perf_counter() - end
        yield AnswerDone(
            AskResult(
                question=asked, mode=chosen.name, queries=found.generated.queries, dropped_queries=found.generated.dropped,
                lists=found.lists, rrf_k=settings.rrf_k, sources=found.sources, context=tuple(context),
                answer=reviewed.answer, citations=on_the_page(reviewed.citations, found.sources, said_by_citation(reviewed.answer), question), found=reviewed.found,
                timings=Timings.with_answer(started, answer_started, first_token_at, end, review=review_s, **clock.seconds,
                    first_evidence=clock.moments.get("first_evidence", 0.0), fused_evidence=clock.moments.get("fused_evidence", 0.0),
                ),
                notices=(*notices, *reviewed.notices), standalone_question=searched if searched != asked else "",  # the text the question's own list searched
                quotes=evidence.quotes if evidence is not None else (), filters=filters if filters.parts else None,
            )
        )

    def _filtered_documents(self, filters: QuestionFilters, allowed_documents: Sequence[int] | None) -> list[int] | None:
        """The documents searched: the chosen ones (None: all) that the question's filters admit."""
        return filters.documents(self.store.document_names() if filters.limits_documents else (), allowed_documents)

    def _unsearched(self, asked: str, mode: str, question: str, answer: str, filters: QuestionFilters, clock: StageClock, started: float) -> AskResult:
        """The answer to a question whose filters leave nothing to search (a file the library does not have)."""
        end = time.perf_counter()
        return AskResult(
            question=asked, mode=mode, queries=(), dropped_queries=(), lists=(), rrf_k=self.settings.rrf_k, sources=(), context=(),
            answer=answer, citations=(), found=False, timings=Timings.with_answer(started, end, end, end, **clock.seconds),
            standalone_question=question if question != asked else "", filters=filters,
        )  # fmt: skip

    def _answer_whole_document(
        self, question: str, asked: str, standalone: str, mode: str, allowed_documents: Sequence[int] | None,
        cancel: threading.Event | None, started: float, notices: list[str], filters: QuestionFilters,
    ) -> Generator[AskEvent, None, bool]:
        """A question about a whole document ("what is X about", "summarize chapter 6 of X", "compare A and B",
        "which of my files covers Z") or a run of its pages ("summarize pages 10-12 of X") is answered from overviews
        or central sentences (core/overview/); False: it is not one, or they cannot answer it, and the passage search takes it."""
        routed = self._whole_document(question, filters, allowed_documents)
        if routed is None:
            return False
        try:
            plan = plan_answer(self.store, self.embedder, routed, question, allowed_documents, filters)
        except NotFromOverview as exc:
            notices.append(str(exc))
            return False
        shown = filters if filters.parts else None
        yield from answer_from_overviews(self.store, self.embedder, self._generator, self.settings, plan, asked, mode, started, cancel, standalone, shown)
        return True

    def _whole_document(self, question: str, filters: QuestionFilters, documents: Sequence[int] | None) -> WholeDocumentQuestion | None:
        """The whole-document question this is, or a run of pages of the one document searched asked for whole; None: neither."""
        if not filters.pages:
            return whole_document_question(self.store, question)
        kept = None if documents is None else set(documents)
        return page_summary(filters, [d.id for d in self.store.documents() if d.kind == "text" and (kept is None or d.id in kept)])

    def _skipped_tables(self, allowed_documents: Sequence[int] | None) -> list[str]:
        if self.tables is None or allowed_documents is None:
            return []
        notice = skipped_tables_notice(self.store, allowed_documents)
        return [notice] if notice else []

    def _search_passages(
        self,
        mode: Mode,
        question: str,
        scope: Scope,
        typed: Sequence[str] | None,
        clock: StageClock,
        notices: list[str],
        answering: bool = True,
        pages_asked: bool = False,
    ) -> Generator[AskEvent, None, tuple[Round, list[Source], Evidence | None]]:
        """Yields QueriesGenerated, SourcesRanked and EvidenceSelected; returns what was found, the passages the
        model reads and the evidence chosen from them (None when it reads whole passages, or nothing is answered:
        a search alone, such as the retrieval eval's, keeps the fused top_k as its context). `pages_asked`: the
        question names its pages, which are read whole (the sentences closest to "What is on page 12?" are no choice)."""
        if answering or (mode.writes_queries and typed is None and self.settings.document_language_queries):
            # Ready when the queries are written (in_documents_languages) and when the answer prompt asks the question's
            # language (languages.language_clause): unpacking it takes 0.7 s. The review's number words too.
            languages.preload()
            spelled_numbers.preload()
        # The question (or the text the mode writes instead) is searched first; its list can decide what follows.
        with clock.stage("query_generation"):
            searched = mode.search_text(self._generator, question)
        with clock.stage("embedding"):
            question_vector = self.embedder.embed([searched])
        with clock.stage("retrieval"):
            lists = self.retrieve([searched], question_vector, scope, [mode.question_weight(self.settings)])
        evidence_wanted = answering and self.settings.evidence_tokens > 0 and not self.settings.reranker and not pages_asked
        if mode.writes_queries and typed is None:
            if evidence_wanted:
                # Something to read while the model writes its queries (a second or more on a laptop CPU).
                with clock.stage("evidence"):
                    first_look = self.first_look(question, question_vector[0], lists[0], mode)
                if first_look:
                    yield EvidenceSelected(first_look, preliminary=True)
                    clock.mark("first_evidence")
            yield StageStarted(WRITING_QUERIES)
        with clock.stage("query_generation"):
            generated = mode.write_queries(self, question, searched, lists[0], typed)
            translations = self.in_documents_languages(question, scope) if mode.writes_queries and typed is None else {}
        with clock.stage("embedding"):
            generated, query_vectors = self._embed_queries(mode, generated, question_vector[0], guard=typed is None)
            asked_vectors = question_vector[0]  # the question in each language it is searched in: what the "not found" gate judges
            translated = tuple(text for text in dict.fromkeys(translations.values()) if text not in generated.queries)
            if translated:  # searched as written: the guard's English model cannot judge them
                written_in = [name for name, text in translations.items() if text in translated]
                generated = dataclasses.replace(generated, queries=(*generated.queries, *translated), notice=with_translations(generated.notice, written_in))
                asked_vectors = np.vstack([question_vector[0], self.embedder.embed(list(translated))])
                query_vectors = np.vstack([query_vectors.reshape(-1, question_vector.shape[1]), asked_vectors[1:]])
        if generated.notice:
            notices.append(generated.notice)
        yield QueriesGenerated(generated.queries, generated.dropped, generated.notice)
        yield StageStarted(SEARCHING)
        with clock.stage("retrieval"):
            lists += self._more_lists(mode, question, generated, query_vectors, scope, notices)
        with clock.stage("fusion"):
            sources = self.sources(mode.merge.fuse(lists, self.settings, self.own_passage(question, lists)), asked_vectors)
        found = Round(question, asked_vectors, scope, generated, tuple(lists), tuple(sources), typed is not None)
        found = mode.second_round(self, found, clock)
        evidence = None
        if evidence_wanted:
            with clock.stage("evidence"):
                evidence = self.select_evidence(question, found)
            context = list(evidence.context)
        else:
            with clock.stage("rerank"):
                context = self.choose_context(question, found.sources)
        yield SourcesRanked(found.lists, found.sources, tuple(context))
        if evidence is not None:
            yield EvidenceSelected(evidence.quotes, evidence.missing)
            clock.mark("first_evidence")
            clock.mark("fused_evidence")
        return found, context, evidence

    def documents_languages(self, scope: Scope | None = None) -> list[str]:
        """The languages that hold a notable share of the documents the question may find (`scope`; None: the whole
        library), the largest first. Documents of an older library are read here, a batch per question, since they
        were imported before languages were kept."""
        unread = self.store.documents_without_language(LANGUAGE_BATCH)
        if unread:
            self.store.set_document_languages({i: detect_language(text) or "" for i, text in unread})
        return notable(self.store.languages_held(None if scope is None else scope.documents))

    def in_documents_languages(self, question: str, scope: Scope | None = None) -> dict[str, str]:
        """The question written in each language the documents in `scope` hold a notable share of and the question is
        not in (the language's English name -> the text): in a library mostly in English, a German manual is searched
        in German too; not when only English files are ticked."""
        if not self.settings.document_language_queries:
            return {}
        names = [LANGUAGE_NAMES[language] for language in other_languages(question, self.documents_languages(scope))]
        written = {name: in_language(self._generator(), question, name, max_tokens=4 * self.settings.query_tokens_each) for name in names}
        return {name: text for name, text in written.items() if text}

    def _embed_queries(self, mode: Mode, generated: GeneratedQueries, question_vector: np.ndarray, guard: bool) -> tuple[GeneratedQueries, np.ndarray]:
        """The searched queries' vectors; with `guard`, generated queries far from the question are dropped."""
        if not (mode.writes_queries and generated.queries):
            return generated, np.zeros((0, 1), dtype=np.float32)
        vectors = self.embedder.embed(list(generated.queries))
        if not guard:  # what the user typed is searched as given
            return generated, vectors
        kept, dropped = self.searcher.drift_guard(generated.queries, vectors, question_vector)
        queries = generated.queries
        kept_queries, drifted = tuple(queries[i] for i in kept), tuple(queries[i] for i in dropped)
        return GeneratedQueries(kept_queries, (*generated.dropped, *drifted), generated.notice, generated.raw), vectors[kept]

    def _more_lists(
        self, mode: Mode, question: str, generated: GeneratedQueries, vectors: np.ndarray, scope: Scope, notices: list[str]
    ) -> list[RankedList]:
        """The lists after the question's own: one per generated query, and keyword lists."""
        lists = []
        if mode.writes_queries and generated.queries:
            lists += self.retrieve(generated.queries, vectors, scope, [1.0] * len(generated.queries))
        keyword = mode.adds_keyword_lists(self.settings)
        if keyword:
            lists += [
                self.searcher.question_keyword_list(text, scope) if text == question else self.searcher.keyword_list(text, scope)
                for text in mode.keyword_texts(question, generated.queries)
            ]
            if (named := self.searcher.named_document_list(question, scope)) is not None:  # searched inside the files it names
                lists.append(named)
        if self.store.pending_count():
            # A document still being embedded is only found by keyword: search the question that way too.
            if not keyword and mode.merge.takes_keyword_lists:
                lists.append(self.searcher.keyword_list(question, scope, weight=1.0))
            notices.append(INDEXING_NOTICE)
        return lists

    def _answer(
        self,
        question: str,
        context: Sequence[Source],
        sources: Sequence[Source],
        cancel: threading.Event | None,
        evidence: Evidence | None = None,
        notices: list[str] | None = None,
        asked: str = "",
        pages_asked: bool = False,
    ) -> Generator[AskEvent, None, Streamed]:
        """The model's answer, streamed; or the not-found answer when no passage is close enough to answer from.

        A list answer (several named things) ends with a "not found in your documents" line for each name no
        passage mentions and the answer does not name, decided by the evidence, not left to the model. The answer's
        lines are then checked like any claim (answers/review.py). A reply that starts repeating itself is stopped
        (answers/streaming.py); why goes to `notices`. `pages_asked`: the question names the pages to read ("What is
        on page 12 of …?"), so they are read however far their passages are from what is left of the question."""
        closest = sources or context
        if not self.is_answerable(context) and not self.settings.general_knowledge and not pages_asked:
            return (yield from refuse(closest))
        names = evidence.names if evidence is not None else ()
        answer, found, first_at = yield from stream_answer(self.answer(question, context, names, asked, pages_asked), lambda: not_found_answer(closest), cancel, notices)
        listed = evidence is not None and len(evidence.names) + len(evidence.missing) >= 2
        if listed and evidence is not None and found and not (cancel is not None and cancel.is_set()):
            lines = missing_lines([name for name in evidence.missing if name.casefold() not in answer.casefold()])
            if lines:
                yield Token(lines)
            answer += lines
        return answer, found, first_at


def said_by_citation(answer: str) -> dict[int, str]:
    """What the answer's sentences citing [n] say, per n: the page then highlights the sentences they rest on. A
    sentence with no mark of its own counts for its line's closing marks (review.closing_marks: "A. B [1]": [1] says both)."""
    said: dict[int, str] = {}
    for line in answer.split("\n"):
        for start, end in claim_spans(line):
            for n in cited_numbers(line[start:end]) or closing_marks(line[end:]):
                said[n] = f"{said.get(n, '')} {line[start:end]}"
    return said
