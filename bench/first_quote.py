"""Does the first quote on screen hold the answer? The quotes shown before the answer, ordered with and without the
question's shared words.

    python -m bench.first_quote --half tune [--weights 0,0.5,1] [--sets german,chinese,english,near-hit]
    python -m bench.first_quote --half tune --passages [--weights 0,0.25]

With --passages it scores the fused list's first passage instead (fusion mode: the model writes the queries once, then
they are searched again at each weight), and each weight is evidence.py's OWN_PASSAGE_WORDS, the shared-word weight
that picks the question's own passage (pipeline.own_passage), which fusion puts first for a question about one thing.

Asks each question of a set's half in plain-RAG mode (no model call: the quotes come from the question's own search,
evidence.py's `select_evidence`, the same ordering the fused quotes get) and scores whether the first quote, and any of
the first three, holds one of the question's answers as written. Each weight is evidence.py's QUOTE_WORDS, the
weight of the shared-word score (rarity-weighted, any script) added to the embedder's cosine when the quotes are
ordered; 0 is the order by cosine alone. Paired differences to the first weight with bootstrap intervals
(bench.paired_difference). The sets are bench.answer_trust's (built by `python -m bench.build_made_up_sets` and
`bench.build_near_sets`, split with split_devset.py): made-up documents asked in their language ("text") and in another
("text_en"; for "english", German questions over English documents are "text"), and near hits over the wiki library.
Their libraries are answer_trust's (made-up PDFs imported on first use).
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path

from .answer_trust import BILINGUAL, Libraries, read_jsonl
from .common import table
from .paired_difference import bootstrap_interval

SETS = ("german", "chinese", "english", "near-hit")


def quotes_of(library, question: str) -> list[str]:
    from desktop_app.core.events import EvidenceSelected

    for event in library.pipeline().ask(question, "rag"):
        if isinstance(event, EvidenceSelected) and not event.preliminary:
            return [q.citation.text.casefold() for q in event.quotes]
    return []


def first_passages(library, question: str, weights: list[float]) -> list[str]:
    """The fused list's first passage at each OWN_PASSAGE_WORDS weight, the queries written once."""
    import desktop_app.core.retrieval.evidence as evidence
    from desktop_app.core.events import QueriesGenerated, SourcesRanked

    firsts, queries = [], None
    for w in weights:
        evidence.OWN_PASSAGE_WORDS = w
        for event in library.pipeline().search(question, "fusion", queries=queries):
            if isinstance(event, QueriesGenerated):
                queries = event.queries
            elif isinstance(event, SourcesRanked):
                firsts.append(event.sources[0].passage.text.casefold() if event.sources else "")
    return firsts


def main(argv: list[str] | None = None) -> int:
    import desktop_app.core.retrieval.evidence as evidence

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--half", choices=("tune", "report"), required=True)
    parser.add_argument("--weights", default="0,0.5,1")
    parser.add_argument("--sets", default=",".join(SETS))
    parser.add_argument("--out", default=".cache/answer-trust")
    parser.add_argument("--passages", action="store_true", help="score the fused list's first passage at each OWN_PASSAGE_WORDS weight")
    args = parser.parse_args(argv)
    weights = [float(w) for w in args.weights.split(",")]
    out = Path(args.out)
    libraries = Libraries(out, Path(".cache/devset"), Path(".cache/eval/devset-home"))
    rows = []
    try:
        for set_name in args.sets.split(","):
            questions = read_jsonl(out / set_name / args.half / "queries.jsonl")
            library = libraries.of(set_name)
            for key in ("text", "text_en") if set_name in BILINGUAL else ("text",):
                first = {w: [] for w in weights}
                top3 = {w: [] for w in weights}
                for q in questions:
                    answers = [a.casefold() for a in q["answers"]]
                    if args.passages:
                        for w, text in zip(weights, first_passages(library, q[key], weights)):
                            first[w].append(float(any(a in text for a in answers)))
                            top3[w].append(first[w][-1])
                        continue
                    for w in weights:
                        evidence.QUOTE_WORDS = w
                        quotes = quotes_of(library, q[key])
                        first[w].append(float(bool(quotes) and any(a in quotes[0] for a in answers)))
                        top3[w].append(float(any(a in t for t in quotes[:3] for a in answers)))
                for w in weights:
                    diffs = [x - y for x, y in zip(first[w], first[weights[0]])]
                    low, high = bootstrap_interval(diffs)
                    rows.append((set_name, key, len(questions), w, f"{statistics.mean(first[w]):.2f}", f"{statistics.mean(top3[w]):.2f}",
                                 "" if w == weights[0] else f"{statistics.mean(diffs):+.2f} [{low:+.2f}, {high:+.2f}]"))
                    print(*rows[-1], flush=True)
    finally:
        libraries.close()
    shown = ("OWN_PASSAGE_WORDS", "first passage holds the answer", "(the same)") if args.passages else ("QUOTE_WORDS", "first quote holds the answer", "one of the first three")
    print(table(("set", "asked as", "questions", *shown, f"first - weight {weights[0]:g}"), rows))
    totals = {w: [] for w in weights}
    for row in rows:
        totals[row[3]].append((row[2], float(row[4])))
    for w, parts in totals.items():
        print(f"weight {w:g}: {shown[1].removesuffix(' holds the answer')} held the answer for {sum(n * s for n, s in parts):.0f} of {sum(n for n, _ in parts)} questions")
    Path(".cache/eval").mkdir(parents=True, exist_ok=True)
    Path(f".cache/eval/first-{'passage' if args.passages else 'quote'}-{args.half}.json").write_text(json.dumps(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
