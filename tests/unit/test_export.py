"""A chat exported to Markdown keeps what the window showed: notices, citation warnings, passages verbatim."""

from __future__ import annotations

from desktop_app.core.types import AskResult, Citation, Timings

# An R session quoted from a manual: "> " prompts and line breaks are the passage, and the useful line is last.
PASSAGE = (
    "Lists are built with list().\n"
    + "A longer explanation of what lists hold and how their components are named. " * 7
    + "\n> Lst <- list(name=\"Fred\", wife=\"Mary\", no.children=3)\n> Lst$wife\n[1] \"Mary\""
)


def result(answer: str) -> AskResult:
    return AskResult(
        question="How do I make a list?", mode="fusion", queries=("R list",), dropped_queries=(), lists=(), rrf_k=2.0,
        sources=(), context=(), answer=answer, found=True, timings=Timings(total=1.0),
        citations=(
            Citation(1, "/docs/R-intro.pdf", 35, PASSAGE, chunk_id=7, start=0, end=len(PASSAGE)),
            Citation(2, "/docs/scan.pdf", 3, "Lists ```may``` nest.", chunk_id=8, start=0, end=10, supported=False, ocr=True),
        ),
        notices=("Citation [2] may not support the sentence that cites it; check the passage.",),
    )  # fmt: skip


def test_the_export_keeps_notices_warnings_and_passages_verbatim(empty_library):
    chat = empty_library.create_chat("Lists in R")
    empty_library.add_chat_turn(chat, "How do I make a list?", "Use list() [1]; lists may nest [2].", result("Use list() [1]; lists may nest [2]."))
    markdown = empty_library.export_chat(chat)
    assert "> **Note:** Citation [2] may not support the sentence that cites it; check the passage." in markdown
    source_two = markdown.split("[2] scan.pdf, page 3")[1]
    assert "**Check this source:**" in source_two and "OCR" in source_two
    # Verbatim in a fence: every line, the prompts as prompts, nothing cut before the useful part.
    assert "```text\n" + PASSAGE + "\n```" in markdown
    assert "\n> Lst$wife\n" in markdown  # inside the fence: code, not a Markdown quote
    # A passage holding backticks gets a longer fence, so it cannot close early.
    assert "````text\nLists ```may``` nest.\n````" in markdown
