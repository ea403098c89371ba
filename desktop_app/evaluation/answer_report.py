"""The answer eval's table: per mode, the means of the per-question metrics (answer_metrics.py).

Columns:
  R@10, nDCG@10   retrieval, as `desktop-app-cli eval` scores the fused list
  citeR           cited-evidence recall: relevant records cited / relevant records (citing nothing: 0)
  citeP           citation precision: relevant records cited / records cited, averaged over the answers
                  that cite anything (citing nothing: no precision, left out); n = those answers
  cites           share of answers that cite at least one record
  acc, all        loose accuracy (share of gold strings in the answer) and share of questions with every
                  gold string; only where queries.jsonl carries "answers" ("-" otherwise)
  supp            share of cited sentences the citation check supports, over answers that cite
  notfound        share of answers that said "Not found in your documents" (AskResult.found False)
  ttft md, tot md median seconds from the question to the first answer token / the last one
"""

from __future__ import annotations

from collections.abc import Sequence

from .answer_metrics import mean_of, median_of

MEANS = ("recall@10", "ndcg@10", "cited_recall", "citation_precision", "cites_any", "accuracy", "all_correct", "supported_share", "not_found")
MEDIANS = ("first_token_s", "total_s")


def summarize(entries: Sequence[dict], labels: Sequence[str]) -> list[dict]:
    """One summary per mode over the questions that mode answered."""
    summaries = []
    for label in labels:
        rows = [e["modes"][label] for e in entries if label in e["modes"]]
        summary: dict[str, object] = {"mode": label, "n": len(rows), "n_citing": sum(bool(r["cites_any"]) for r in rows)}
        for name in MEANS:
            value = mean_of(r.get(name) for r in rows)
            summary[name] = round(value, 4) if value is not None else None
        for name in MEDIANS:
            value = median_of(r.get(name) for r in rows)
            summary[f"median_{name}"] = round(value, 3) if value is not None else None
        summaries.append(summary)
    return summaries


def _cell(value: float | None, width: int, digits: int = 3) -> str:
    return f"{value:{width}.{digits}f}" if value is not None else f"{'-':>{width}}"


def format_table(summaries: Sequence[dict], title: str = "", has_gold: bool = True) -> str:
    header = (
        f"{'mode':32} {'N':>4} {'R@10':>6} {'nDCG@10':>7} | {'citeR':>6} {'citeP':>6} {'(n)':>5} {'cites':>6} | "
        f"{'acc':>6} {'all':>6} | {'supp':>6} {'notfnd':>6} | {'ttft md':>7} {'tot md':>7}"
    )
    lines = [title] if title else []
    lines += [header, "-" * len(header)]
    for s in summaries:
        lines.append(
            f"{s['mode'][:32]:32} {s['n']:4} {_cell(s['recall@10'], 6)} {_cell(s['ndcg@10'], 7)} | "
            f"{_cell(s['cited_recall'], 6)} {_cell(s['citation_precision'], 6)} {'(' + str(s['n_citing']) + ')':>5} {_cell(s['cites_any'], 6)} | "
            f"{_cell(s['accuracy'] if has_gold else None, 6)} {_cell(s['all_correct'] if has_gold else None, 6)} | "
            f"{_cell(s['supported_share'], 6)} {_cell(s['not_found'], 6)} | "
            f"{_cell(s['median_first_token_s'], 7, 1)} {_cell(s['median_total_s'], 7, 1)}"
        )
    lines.append(
        "citeR: relevant records cited / relevant (an answer citing nothing scores 0); citeP: relevant cited / cited, "
        "over the (n) answers that cite anything; cites: share citing anything; acc/all: loose accuracy and all parts right "
        "(gold answers only); supp: cited sentences the citation check supports; notfnd: 'not found' answers; times: medians, seconds."
    )
    return "\n".join(lines)
