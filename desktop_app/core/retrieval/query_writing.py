"""Query writing, the step RAG-Fusion adds: the LLM writes search queries from the question, in one or more styles.

Which failures fall back to searching the question alone:
- the model cannot be had (no such model file, a broken one, a server that does not answer or refuses the
  key): not here. That ModelError is raised while loading, before any query is asked for, and surfaces: the
  user must fix it, and the answer needs the model too.
- the model fails while writing (a ModelError: the server stops mid-stream, goes silent, sends garbage): the
  question is searched alone and a notice says so.
- anything else is a bug and surfaces: swallowing it would turn fusion into plain RAG unnoticed, in the app
  and in the eval's numbers.
Both fallbacks (failed, and no usable queries) start with a fixed phrase so the eval harness can count them
(`fallback_reason`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ..errors import ModelError
from ..models.llm import Generator
from ..models.token_stream import TokenStream
from ..settings import Settings
from .query_parsing import normalize, parse_queries
from .query_styles import DEFAULT_QUERY_STYLE, query_style

FAILED = "Query generation failed"
NO_QUERIES = "The model wrote no usable search queries"


@dataclass(frozen=True)
class GeneratedQueries:
    queries: tuple[str, ...]
    dropped: tuple[str, ...]  # off-topic queries the drift guard removed
    notice: str | None
    raw: str


NO_GENERATED_QUERIES = GeneratedQueries((), (), None, "")


def fallback_reason(notice: str | None) -> str | None:
    """"failed" or "empty" when query generation fell back to searching the question alone, else None."""
    if notice and notice.startswith(FAILED):
        return "failed"
    if notice and notice.startswith(NO_QUERIES):
        return "empty"
    return None


def read_queries(pieces: Iterable[str], question: str, n: int, unfold: Callable[[str], str] = str, item_ends: str = "\n") -> str:
    """The streamed query text, cut as soon as `n` usable queries are complete.

    Small models often keep talking after the list (explanations, more queries); every token
    not generated is time the user does not wait.
    """
    raw = ""
    with TokenStream(pieces) as stream:
        for piece in stream:
            raw += piece
            if any(end in piece for end in item_ends):
                complete = raw[: max(raw.rfind(end) for end in item_ends)]
                if len(parse_queries(unfold(complete), question, n)) >= n:
                    return complete
    return raw


def write_queries(
    generator: Callable[[], Generator],
    question: str,
    settings: Settings,
    styles: Sequence[str] = (DEFAULT_QUERY_STYLE,),
    n: int | None = None,
) -> GeneratedQueries:
    """The queries of every style in turn; a query an earlier style already wrote is not searched twice."""
    n = settings.n_queries if n is None else n
    if n <= 0:
        return NO_GENERATED_QUERIES
    llm = generator()
    load = getattr(llm, "load", None)  # the local model and the server client check they can work here
    if load is not None:
        load()
    queries: list[str] = []
    seen: set[str] = set()
    raws: list[str] = []
    for style in map(query_style, styles):
        limit = style.line_limit(n, settings.max_queries)
        try:
            # A tight cap and an early stop once `limit` complete queries are written: every token costs ~0.1 s.
            pieces = llm.stream(style.messages(question, n), max_tokens=settings.query_tokens_each * limit + 8, temperature=0.0)
            raw = read_queries(pieces, question, limit, style.unfold, style.item_ends) if settings.query_early_stop else "".join(pieces)
        except ModelError as exc:  # the model failed while writing: search the question alone (bugs surface)
            return GeneratedQueries((), (), f"{FAILED} ({exc}); searched the question alone.", "")
        raws.append(raw)
        for query in style.postprocess(parse_queries(style.unfold(raw), question, limit)):
            if normalize(query) not in seen:
                seen.add(normalize(query))
                queries.append(query)
    raw = "\n".join(raws)
    if not queries:
        return GeneratedQueries((), (), f"{NO_QUERIES}; searched the question alone.", raw)
    return GeneratedQueries(tuple(queries), (), None, raw)
