"""Gold answers for the FanOutQA-built dev set, from the public `fanoutqa==1.1.1` wheel (never committed).

    python -m bench.gold_answers .cache/devset                 # add "answers" to queries.jsonl where FanOutQA has them
    python -m bench.gold_answers .cache/devset --split dev --out .cache/devset-answered

Each answer (a string, number, bool, list or dict, nested) is flattened into the strings FanOutQA's loose
accuracy looks for (desktop_app/evaluation/answer_metrics.py `flatten_answer`: a dict's keys and values,
a list's items) and written as `"answers": [...]` on the question's line; the answer eval scores them.

What the wheel holds: ../shared/bench/build_devset.py builds the dev set from FanOutQA's TEST split, and the
test split ships WITHOUT answers (FanOutQA keeps them for its leaderboard), so on that set this adds none
and says so. FanOutQA's DEV split (310 questions) has answers: `--split dev --out DIR` writes a second BEIR
folder over the same corpus (corpus.jsonl linked, not copied) with those questions, their needed articles
that are in the corpus as qrels (the evidence of every step of the human decomposition) and their answers.
That split may be the team's held-out split: measure with it, never tune on it.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from desktop_app.evaluation.answer_metrics import flatten_answer

SPLITS = {"test": "fanoutqa/data/fanout-final-test.json", "dev": "fanoutqa/data/fanout-final-dev.json"}


def fanoutqa_questions(split: str, wheel: Path | None = None) -> list[dict]:
    """The split's questions, from the given wheel or one `pip download` fetches (the same file build_devset.py reads)."""
    if wheel is None:
        folder = tempfile.mkdtemp()
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "-d", folder, "fanoutqa==1.1.1"], check=True)
        wheel = Path(glob.glob(os.path.join(folder, "fanoutqa-*.whl"))[0])
    with zipfile.ZipFile(wheel) as z:
        return json.loads(z.read(SPLITS[split]))


def evidence_titles(question: dict) -> list[str]:
    """The Wikipedia titles a question needs: the test split lists them; the dev split has them on each decomposition step."""
    titles = [e["title"] for e in question.get("necessary_evidence", [])]
    stack = list(question.get("decomposition", []))
    while stack:
        step = stack.pop(0)
        if step.get("evidence"):
            titles.append(step["evidence"]["title"])
        stack.extend(step.get("decomposition", []))
    return list(dict.fromkeys(titles))


def add_answers(folder: Path, questions: list[dict]) -> tuple[int, int]:
    """Writes "answers" onto each line of folder/queries.jsonl whose question has one; returns (with answers, lines)."""
    by_id = {q["id"]: q for q in questions if "answer" in q}
    path = folder / "queries.jsonl"
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    with_answers = 0
    for record in lines:
        source = by_id.get(record["_id"])
        if source is not None and flatten_answer(source["answer"]):
            record["answers"] = flatten_answer(source["answer"])
            with_answers += 1
    if with_answers:
        tmp = path.with_suffix(".jsonl.tmp")
        tmp.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in lines), encoding="utf-8")
        os.replace(tmp, path)
    return with_answers, len(lines)


def write_answered_set(devset: Path, out: Path, questions: list[dict]) -> int:
    """A BEIR folder at `out` over devset's corpus: the questions with an answer and at least one needed article in it."""
    out.mkdir(parents=True, exist_ok=True)
    corpus = devset.resolve() / "corpus.jsonl"
    ids = {}
    for line in corpus.read_text(encoding="utf-8").splitlines():
        if line.strip():
            record = json.loads(line)
            ids[record["title"]] = record["_id"]
    link = out / "corpus.jsonl"
    if not link.exists():
        link.symlink_to(corpus)
    kept = 0
    with open(out / "queries.jsonl", "w", encoding="utf-8") as fq, open(out / "qrels.tsv", "w", encoding="utf-8") as fr:
        fr.write("query-id\tcorpus-id\tscore\n")
        for q in questions:
            relevant = sorted({ids[t] for t in evidence_titles(q) if t in ids})
            answers = flatten_answer(q.get("answer", ""))
            if not relevant or not answers:
                continue
            kept += 1
            fq.write(json.dumps({"_id": q["id"], "text": q["question"], "answers": answers}, ensure_ascii=False) + "\n")
            fr.writelines(f"{q['id']}\t{d}\t1\n" for d in relevant)
    return kept


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("devset", type=Path, help="a folder built by ../shared/bench/build_devset.py")
    parser.add_argument("--split", choices=sorted(SPLITS), default="test", help="FanOutQA split to read (the dev set is built from 'test')")
    parser.add_argument("--out", type=Path, help="with --split dev: write an answered BEIR folder here instead of editing DEVSET")
    parser.add_argument("--wheel", type=Path, help="a downloaded fanoutqa-1.1.1 wheel (default: pip download it)")
    args = parser.parse_args(argv)
    questions = fanoutqa_questions(args.split, args.wheel)
    if args.out:
        kept = write_answered_set(args.devset, args.out, questions)
        print(f"{kept} of {len(questions)} FanOutQA {args.split} questions with an answer and a needed article in the corpus -> {args.out}")
        return 0
    with_answers, total = add_answers(args.devset, questions)
    print(f"{with_answers} of {total} questions in {args.devset / 'queries.jsonl'} now carry gold answers")
    if not with_answers:
        answered = sum("answer" in q for q in questions)
        print(f"FanOutQA's {args.split} split has answers for {answered} of {len(questions)} questions (its test split ships none); "
              "for answer accuracy use --split dev --out DIR", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
