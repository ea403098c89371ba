"""How well does the citation check tell supported sentences from unsupported ones? Old rule vs new.

Reads tests/data/citation_support.jsonl: hand-labelled (sentence, passage) pairs written from the
sample datasheet and R-intro.pdf, each with a label, a one-line reason and a fixed split ("tune": the
half the check's threshold and rules were chosen on; "test": the held-out half). Each sentence is
checked as a model would write it, "<sentence> [1]" with the passage as source [1].

The positive class is UNSUPPORTED, what the check must flag: precision = flagged sentences that are
really unsupported; recall = unsupported sentences that get flagged. "supported kept" is the recall of
the other class: correct sentences left unflagged (a check that flags them annoys users).

"new" is answers/grounding.py `judge_claim`. The old rule is the check at main 2de59fb: supported when half the content words, or every word with a
digit in it, are in the passage (copied below so the comparison stays reproducible).

Usage: python -m bench.citation_check_quality [--errors]
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from desktop_app.core.answers.grounding import judge_claim

from .common import table, write_results

LABELLED = Path(__file__).resolve().parent.parent / "tests" / "data" / "citation_support.jsonl"


@dataclass(frozen=True)
class Quality:
    n: int
    flagged_right: int  # unsupported and flagged
    flagged_wrong: int  # supported but flagged
    missed: int  # unsupported but passed

    @property
    def precision(self) -> float:
        flagged = self.flagged_right + self.flagged_wrong
        return self.flagged_right / flagged if flagged else 1.0

    @property
    def recall(self) -> float:
        unsupported = self.flagged_right + self.missed
        return self.flagged_right / unsupported if unsupported else 1.0

    @property
    def supported_kept(self) -> float:
        supported = self.n - self.flagged_right - self.missed
        return (supported - self.flagged_wrong) / supported if supported else 1.0


def load_labelled(path: Path = LABELLED) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def new_check(sentence: str, passage: str) -> bool:
    """What the app does: the cited sentence as the model writes it, judged against its passage (answers/grounding.py)."""
    return judge_claim(f"{sentence} [1]", [passage]).grounded


_OLD_STOP = frozenset(
    "a an and are as at be been but by can could did do does for from had has have how if in into is it its of on or "
    "so than that the their them then there these they this those to was we were what when where which who will with "
    "would you your also not no yes any all more most other some such per about".split()
)


def _old_words(text: str) -> set[str]:
    words = set()
    for w in re.findall(r"[\w.,-]+", text.lower()):
        w = w.strip(".,-")
        if w and w not in _OLD_STOP:
            words.add(w.replace(",", "") if re.fullmatch(r"[\d,.]+", w) else w)
    return words


def old_check(sentence: str, passage: str) -> bool:
    """The rule at main 2de59fb (`supports` on `content_words`), on the whole sentence."""
    words, passage_words = _old_words(sentence), _old_words(passage)
    if not words:
        return True
    facts = {w for w in words if any(c.isdigit() for c in w)}
    return len(words & passage_words) / len(words) >= 0.5 or (bool(facts) and facts <= passage_words)


def measure(rows: list[dict], check: Callable[[str, str], bool]) -> Quality:
    right = wrong = missed = 0
    for row in rows:
        passed = check(row["sentence"], row["passage"])
        unsupported = row["label"] == "unsupported"
        right += unsupported and not passed
        wrong += not unsupported and not passed
        missed += unsupported and passed
    return Quality(len(rows), right, wrong, missed)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--errors", action="store_true", help="list the sentences the new check gets wrong")
    args = parser.parse_args(argv)
    rows = load_labelled()
    splits = {"tune": [r for r in rows if r["split"] == "tune"], "test": [r for r in rows if r["split"] == "test"], "all": rows}
    lines, payload = [], {}
    for split, chosen in splits.items():
        for name, check in (("old", old_check), ("new", new_check)):
            q = measure(chosen, check)
            unsupported = q.flagged_right + q.missed
            lines.append((split, q.n, unsupported, name, q.precision, q.recall, q.supported_kept, q.flagged_right, q.flagged_wrong, q.missed))
            payload[f"{split}/{name}"] = {"n": q.n, "precision": q.precision, "recall": q.recall, "supported_kept": q.supported_kept}
    print(table(("split", "n", "unsupported", "check", "precision", "recall", "supported kept", "flagged right", "flagged wrong", "missed"), lines))
    if args.errors:
        print()
        for row in rows:
            passed = new_check(row["sentence"], row["passage"])
            if passed != (row["label"] == "supported"):
                verdict = judge_claim(row["sentence"], [row["passage"]])
                print(f"{row['id']:>3} {row['split']:4} {row['label']:11} judged {'supported' if passed else 'unsupported'} "
                      f"(score {verdict.score:.2f}, missing {', '.join(verdict.missing) or '-'}): {row['sentence']}  [{row['reason']}]")
    print(f"\nwrote {write_results('citation_check_quality', payload)}")


if __name__ == "__main__":
    main()
