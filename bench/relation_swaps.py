"""What the grounding check's meaning signal costs: a value the cited passage states, put in another relation.

    python -m bench.relation_swaps [--per-kind 4] [--seed 77]

DEV DIAGNOSTIC, made-up data only (bench/made_up_world.py, a seed of its own, not set (c)'s), no tuning half: the
documents were looked at while the check was built. Per language, three kinds of claim, each judged as the app
judges it (evaluation/claims.py's judged_claims: the claim citing one passage, the rest of its document as the other passages
the model read, no question), with and without the embedder:
- right: the fact in other words, citing the passage that states it (should pass);
- wrong: the same claim citing a sibling passage that states another fact (should be flagged);
- swap: a claim of one fact's shape carrying the value another passage states ("the town dates back to <the year
  it was twinned>", "<the factory town> designed the pump"), citing that passage: the value is there, the relation
  is not. A lexical check flags these only when it flags right paraphrases too; the meaning signal passes some;
- other name: the right claim with its name replaced by an invented one no passage holds, citing the right
  passage (German: also asked with the document's German question, as the app always has a question).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys

from .common import table
from .made_up_world import FILLERS, LANGUAGES, SHAPES, TEMPLATES, Namer, values

# kind -> (fact whose claim shape is used, its value field, the field whose value it gets, the fact stating that value)
SWAPS = {
    "product": [("weight", "weight", "hours", "runtime"), ("runtime", "hours", "weight", "weight"),
                ("designer", "designer", "factory", "factory"), ("factory", "factory", "designer", "designer")],
    "town": [("founded", "founded", "since", "twin"), ("twin", "twin", "river", "river"),
             ("river", "river", "twin", "twin"), ("mayor", "mayor", "twin", "twin")],
    "person": [("born_year", "born", "awarded", "prize"), ("prize", "awarded", "born", "born_year"),
               ("company", "company", "book", "book"), ("book", "book", "company", "company")],
}


# kind -> (fact, its name field, how to invent another name of that field's kind)
NAMED = {
    "product": [("designer", "designer", "person"), ("factory", "factory", "town")],
    "town": [("river", "river", "river"), ("mayor", "mayor", "person"), ("twin", "twin", "town")],
    "person": [("birthplace", "birthplace", "town"), ("company", "company", "word"), ("book", "book", "word")],
}


def pairs(per_kind: int, seed: int) -> list[tuple[str, str, str, str, list[str], str]]:
    """(language, label, claim, cited passage, the document's passages, question or "")."""
    out = []
    for lang in LANGUAGES:
        names = Namer(random.Random(f"{seed}-{lang}"))
        for _ in range(per_kind):
            for kind in TEMPLATES:
                v = values(kind, lang, names)
                *rows, _ = TEMPLATES[kind][lang]
                texts = {key: texts for key, *texts in rows}
                fillers = names.rng.sample(FILLERS[kind][lang], len(texts))
                passage = {key: f"{t[0].format(**v)} {filler}" for (key, t), filler in zip(texts.items(), fillers)}
                read = list(passage.values())
                for key, t in texts.items():
                    claim = t[1].format(**v)
                    out.append((lang, "right", claim, passage[key], read, ""))
                    out.append((lang, "wrong", claim, passage[SHAPES[kind].confusable[key]], read, ""))
                for shape, field, source, stated in SWAPS[kind]:
                    out.append((lang, "swap", texts[shape][1].format(**{**v, field: v[source]}), passage[stated], read, ""))
                for key, field, make in NAMED[kind]:
                    other = getattr(names, make)(lang)
                    claim = texts[key][1].format(**{**v, field: other})
                    out.append((lang, "other name", claim, passage[key], read, ""))
                    if len(texts[key]) > 3:  # a German or Chinese fact's question
                        out.append((lang, "other name, asked", claim, passage[key], read, texts[key][3].format(**v)))
    return out


def passed(claim: str, cited: str, read: list[str], question: str, embedder) -> bool:
    from desktop_app.core.answers.review import judged_claims
    from desktop_app.core.types import Passage, Source

    context = [Source(i, Passage(i, 1, "made-up.txt", "", 1, 0, len(t), t), 0.0, {}, 1.0) for i, t in enumerate(read, 1)]
    judged = judged_claims(f"{claim.rstrip('.')} [{read.index(cited) + 1}].", context, question, embedder)
    return bool(judged) and all(g.grounded for _, g in judged)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-kind", type=int, default=4, help="documents per kind (pump, town, person) and language")
    parser.add_argument("--seed", type=int, default=77)
    args = parser.parse_args(argv)
    from desktop_app.core.models.model_files import open_embedder

    embedder, rows = open_embedder(), pairs(args.per_kind, args.seed)
    labels = ("right", "wrong", "swap", "other name", "other name, asked")
    lines = []
    for lang in LANGUAGES:
        for name, model in (("words only", None), ("with the embedder", embedder)):
            mine = {label: [passed(c, p, r, q, model) for lg, lb, c, p, r, q in rows if lg == lang and lb == label] for label in labels}
            rates = [f"{statistics.fmean(v):.2f} of {len(v)}" if v else "-" for v in mine.values()]
            rates[0] = f"{1 - statistics.fmean(mine['right']):.2f} of {len(mine['right'])}"
            lines.append([lang, name, *rates])
    print(table(["language", "check", "right flagged", "wrong passed", "swap passed", "other name passed", "other name passed, asked"], lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
