"""How many passages of real documents core/repeated_text.py marks as repeated boilerplate (issue 34).

Extracts and chunks each file with the app's own extractor and chunker (no embedding, no library), marks the
passages and prints, per file, its pages, passages and marked passages, with the start of the first few marked,
to judge by eye whether any is content. Default: the R manuals, which have no repeated notices (target 0).

    python -m bench.boilerplate_passages [FILE ...] [--show 5]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from bench.common import require_r_manuals
from desktop_app.core.ingest.chunking import chunk_pages
from desktop_app.core.ingest.extraction import extract
from desktop_app.core.ingest.pdf_tables import chunk_pages_around_tables
from desktop_app.core.repeated_text import mark_boilerplate

MANUALS = ("R-intro.pdf", "R-data.pdf", "R-exts.pdf", "R-lang.pdf", "R-admin.pdf", "R-ints.pdf", "R-FAQ.pdf")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, help="documents to check (default: the R manuals)")
    parser.add_argument("--show", type=int, default=5, help="marked passages to print per file")
    args = parser.parse_args(argv)
    totals = [0, 0, 0]
    for path in args.files or require_r_manuals(*MANUALS):
        extracted = extract(path)
        pages = [p for p in extracted.pages if p.text.strip()]
        drafts = chunk_pages_around_tables(pages, extracted.tables) if extracted.tables else chunk_pages(pages)
        marked = [d for d in mark_boilerplate(extracted.pages, drafts) if d.boilerplate]
        print(f"{path.name}: {extracted.page_count} pages, {len(drafts)} passages, {len(marked)} marked", flush=True)
        for draft in marked[: args.show]:
            print(f"    p. {draft.page}: {' '.join(draft.text.split())[:160]!r}")
        totals = [totals[0] + extracted.page_count, totals[1] + len(drafts), totals[2] + len(marked)]
    print(f"total: {totals[0]} pages, {totals[1]} passages, {totals[2]} marked")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
