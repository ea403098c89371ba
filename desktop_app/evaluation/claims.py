"""Each claim of an answer that cites a passage, with its verdict against what it cites, as the window's review
judges it (core/answers/review.py): for the evaluations' citation measures."""

from __future__ import annotations

from collections.abc import Sequence

from ..core.answers.grounding import MARK, Grounding
from ..core.answers.model_check import ModelCheck
from ..core.answers.review import ReadPassages, claim_spans
from ..core.citation_marks import cited_numbers
from ..core.models.embedder import Embedder
from ..core.types import Source


def judged_claims(
    answer: str, context: Sequence[Source], question: str = "", embedder: Embedder | None = None, model_check: ModelCheck | None = None
) -> list[tuple[str, Grounding]]:
    passages = ReadPassages(context, question, embedder)
    claims = [(c, cited_numbers(c)) for c in (answer[start:end] for start, end in claim_spans(answer))]
    return [(MARK.sub("", c).strip(), passages.reread(c, n, passages.judge(c, n), model_check)) for c, n in claims if n]
