"""`docs --overview FILE`: a document's overview (its outline with pages, its abstract when there is one, and
each section's central sentences); and the overview queue that `ingest` runs after the meaning index."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..core.codec import to_json
from ..core.document_overview import SOURCE_WORDS, Overview
from ..core.library import Library
from .progress import ProgressBar


def overview_text(overview: Overview, unit: str = "page") -> str:
    """The overview as a person reads it on a terminal."""
    lines = [f"{overview.title}  ({Path(overview.file).name})", f"Outline from {SOURCE_WORDS.get(overview.outline_source, overview.outline_source)}."]
    if overview.abstract:
        lines += ["", "Abstract:", overview.abstract]
    lines.append("")
    top = min((s.level for s in overview.sections), default=1)
    short = "p." if unit == "page" else "§"
    for section in overview.sections:
        indent = "  " * (section.level - top)
        lines.append(f"{indent}{section.title}  ({short} {section.page})")
        for sentence in section.sentences:
            lines.append(f"{indent}    · {sentence.text}  ({short} {sentence.page})")
    return "\n".join(lines)


def show_overview(library: Library, ref: str, as_json: bool) -> int:
    document = library.find_document(ref)
    if document is None:
        print(f"No document matches '{ref}'. List them with: desktop-app-cli docs", file=sys.stderr)
        return 1
    if document.kind != "text":
        print(f"{document.title} is a table; ask about it with SQL (mode sql).", file=sys.stderr)
        return 1
    overview = library.overview(document.id, build=True)
    if overview is None:
        print(f"{document.title} has no overview yet: its meaning index is still being built ({document.status}).", file=sys.stderr)
        return 1
    print(json.dumps(to_json(overview), indent=2, ensure_ascii=False) if as_json else overview_text(overview, document.unit))
    return 0


def run_overview_queue(library: Library) -> None:
    """Builds the overviews the library lacks, with a bar on stderr (after `ingest`'s meaning index)."""
    bar: ProgressBar | None = None
    for progress in library.overview_queue().run():
        bar = bar or ProgressBar("overviews", progress.total, progress.done)
        bar.update(progress.done, progress.total)
        if progress.message:
            print(f"warning  {progress.message}", file=sys.stderr)
    if bar is not None:
        bar.close()


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--overview", metavar="FILE", help="show a document's overview: outline, abstract, central sentences")
