"""How well does the app say "Not found in your documents"? Correct and false refusal rates, per mode.

Builds a library from a seeded sample of the dev set's Wikipedia articles (built by
../shared/bench/build_devset.py), then asks:
- answerable questions: "What is <title>?" for articles in the sample (the answer is in the library);
- unanswerable questions: hand-written questions about topics absent from the WHOLE dev corpus
  (checked at run time: a question whose key terms appear in the corpus is reported and left out);
- near-miss questions (bench/near_miss.py): about an entity whose article IS in the library, asking a fact
  the article does not state (checked at run time: the words that would state it are not in the article).
Every question is asked in every mode (--modes, default rag,fusion), modes interleaved question by question.
A refusal is an answer with found == False. Prints a table and writes JSON; each finished answer is also
appended to JSON.rows.jsonl, so an interrupted run resumes (--fresh starts over).

Usage: python -m bench.refusals [--devset .cache/devset] [--articles 800] [--answerable 30] [--modes rag,fusion] [--sets near-miss,answerable]
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import re
import sys
import time
from pathlib import Path

from bench.near_miss import NEAR_MISSES, NearMiss, absent_from

# (question, key terms that must NOT occur anywhere in the dev corpus)
UNANSWERABLE = [
    ("What is the maximum operating temperature of the Norrwave PX-40 pump?", ["Norrwave", "PX-40"]),
    ("Who is the head coach of the Linköping HC ice hockey team?", ["Linköping HC"]),
    ("What is the recommended tyre pressure for a 2019 Skoda Octavia?", ["Octavia"]),
    ("How many seats does the Aula Magna at Stockholm University have?", ["Aula Magna"]),
    ("What firmware version fixed the Bluetooth bug in the Garmin Forerunner 245?", ["Forerunner"]),
    ("What is the boiling point of the refrigerant R-1234yf?", ["R-1234yf", "1234yf"]),
    ("What is the population of the village of Brösarp?", ["Brösarp"]),
    ("What is the default port of the Redis database server?", ["Redis"]),
    ("How much does a monthly bus pass cost in Tampere?", ["Tampere"]),
    ("How long is the warranty on an IKEA Malm dresser?", ["IKEA"]),
    ("What is the battery capacity of the Nintendo Switch Lite?", ["Switch Lite"]),
    ("Who wrote the novel The Thursday Murder Club?", ["Thursday Murder Club"]),
    ("What is the main ingredient of the Swedish dish kalops?", ["kalops"]),
    ("What is the maximum payload of the DJI Matrice 300 drone?", ["Matrice", "DJI"]),
    ("How many calories are in a McDonald's Big Mac?", ["Big Mac"]),
    ("Who won the 2023 Eurovision Song Contest?", ["Loreen"]),
    ("What is the ISBN of the first edition of Gödel, Escher, Bach?", ["Escher, Bach"]),
    ("What is the wingspan of the Pipistrel Velis Electro aircraft?", ["Pipistrel"]),
    ("Which version of Kubernetes removed dockershim?", ["Kubernetes", "dockershim"]),
    ("What is the opening time of the Vasa Museum on Sundays?", ["Vasa Museum", "Vasamuseet"]),
    ("What is the torque specification for the wheel nuts of a Volvo XC60?", ["XC60"]),
    ("Who founded the bakery chain Fabrique?", ["Fabrique"]),
    ("How many employees does the company Spotify have in Gothenburg?", ["Spotify"]),
    ("What is the clock speed of the Raspberry Pi 5 processor?", ["Raspberry Pi"]),
    ("What is the interest rate of the Swedish Riksbank mortgage guideline for 2024?", ["Riksbank"]),
    ("What does error code E21 mean on a Bosch dishwasher?", ["Bosch"]),
    ("How many goals did Zlatan Ibrahimović score for Malmö FF?", ["Ibrahimović", "Ibrahimovic"]),
    ("What is the recommended dose of melatonin for jet lag in the Swedish FASS guide?", ["FASS"]),
    ("Which bus line goes from Lund Central Station to the ESS facility?", ["European Spallation"]),
    ("What is the service interval of a Husqvarna Automower 430X?", ["Automower"]),
]


def absent_everywhere(terms: list[str], corpus_text: str) -> bool:
    # Whole words only: "Redis" must not match "redistribution".
    return all(not re.search(r"\b" + re.escape(term.lower()) + r"\b", corpus_text) for term in terms)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devset", default=".cache/devset", help="folder written by ../shared/bench/build_devset.py")
    parser.add_argument("--articles", type=int, default=800)
    parser.add_argument("--answerable", type=int, default=30)
    parser.add_argument("--modes", default="rag,fusion", help="comma-separated modes, each asked every question")
    parser.add_argument("--mode", help="one mode only (the older option; replaces --modes)")
    parser.add_argument("--home", default=".cache/refusals-home")
    parser.add_argument("--json", default="bench/results/refusals.json")
    parser.add_argument("--fresh", action="store_true", help="ignore the answers of an interrupted earlier run")
    parser.add_argument("--sets", default="near-miss,answerable,unanswerable", help="comma-separated sets to ask (a shorter run)")
    args = parser.parse_args(argv)
    modes = [m.strip() for m in (args.mode or args.modes).split(",") if m.strip()]

    from desktop_app.core.events import AnswerDone
    from desktop_app.core.library import Library

    corpus = [json.loads(line) for line in open(Path(args.devset) / "corpus.jsonl")]
    corpus_text = "\n".join(r["title"] + " " + r["text"] for r in corpus).lower()
    rng = random.Random(7)
    sample = rng.sample(corpus, args.articles)
    folder = Path(args.home) / "articles"
    folder.mkdir(parents=True, exist_ok=True)
    for record in sample:
        name = re.sub(r"[^\w-]+", "_", record["title"])[:80] or record["_id"]
        path = folder / f"{record['_id']}-{name}.txt"
        if not path.exists():
            path.write_text(f"{record['title']}\n\n{record['text']}\n")
    library = Library(Path(args.home) / "data")
    t0 = time.perf_counter()
    for event in library.import_paths([folder]):
        if event.stage == "failed":
            print(f"import failed: {event.file}: {event.message}", file=sys.stderr)
    print(f"library: {len(library.documents())} articles ({time.perf_counter() - t0:.0f} s to import)")

    titled = [r for r in sample if re.fullmatch(r"[A-Za-z][A-Za-z .'-]{3,40}", r["title"])]
    answerable = [(f"What is {r['title']}?", r["title"]) for r in rng.sample(titled, min(args.answerable, len(titled)))]
    unanswerable = [(q, terms) for q, terms in UNANSWERABLE if absent_everywhere(terms, corpus_text)]
    left_out = [q for q, terms in UNANSWERABLE if not absent_everywhere(terms, corpus_text)]
    near_misses, near_left_out = near_miss_questions(sample)
    # The sets take turns, so a run cut short (they take hours on a busy machine) still measures each of them.
    sets = [[("near-miss", q.question) for q in near_misses], [("answerable", q) for q, _ in answerable], [("unanswerable", q) for q, _ in unanswerable]]
    wanted_sets = {s.strip() for s in args.sets.split(",")}
    sets = [group for group in sets if group and group[0][0] in wanted_sets]
    questions = [item for group in itertools.zip_longest(*sets) for item in group if item is not None]

    checkpoint = Path(args.json + ".rows.jsonl")
    if args.fresh and checkpoint.exists():
        checkpoint.unlink()
    done = {(r["set"], r["question"], r["mode"]): r for r in map(json.loads, checkpoint.read_text().splitlines())} if checkpoint.exists() else {}
    checkpoint.parent.mkdir(parents=True, exist_ok=True)

    def ask(question: str, mode: str) -> tuple[bool, str, float]:
        started = time.perf_counter()
        result = None
        for event in library.ask(question, mode):
            if isinstance(event, AnswerDone):
                result = event.result
        return result.found, result.answer, time.perf_counter() - started

    rows = []
    for kind, question in questions:
        for mode in modes:  # interleaved: a cut-short run still compares the modes on the same questions
            row = done.get((kind, question, mode))
            if row is None:
                found, answer, seconds = ask(question, mode)
                row = {"set": kind, "mode": mode, "question": question, "refused": not found, "answer": answer, "seconds": seconds}
                with checkpoint.open("a") as f:
                    f.write(json.dumps(row) + "\n")
            rows.append(row)
            wanted = kind != "answerable"  # a refusal is right for unanswerable and near-miss questions
            verdict = ("refused" if wanted else "REFUSED") if row["refused"] else ("ANSWERED" if wanted else "answered")
            print(f"[{kind:12}] {mode:8} {verdict:8}  {question}", flush=True)

    table = refusal_table(rows, modes)
    print()
    print(f"model {library.settings.model}, library of {args.articles} dev-set articles")
    print(table)
    if left_out:
        print(f"left out (their topic is in the corpus): {left_out}")
    if near_left_out:
        print(f"near-miss left out (article not in the sample, or it states the fact): {near_left_out}")
    Path(args.json).parent.mkdir(parents=True, exist_ok=True)
    Path(args.json).write_text(json.dumps({"modes": modes, "rows": rows, "rates": rates(rows, modes), "left_out": left_out, "near_miss_left_out": near_left_out}, indent=2))
    library.close()
    return 0


def near_miss_questions(sample: list[dict]) -> tuple[list[NearMiss], list[str]]:
    """The near-miss questions whose article is in the library and does not state the fact; the others, with why."""
    in_library = {r["_id"]: r for r in sample}
    kept, left_out = [], []
    for q in NEAR_MISSES:
        record = in_library.get(q.record)
        if record is None:
            left_out.append(f"{q.question} (its article {q.title} is not in the sample)")
            continue
        present = absent_from(q.absent, record["title"] + "\n" + record["text"])
        if present:
            left_out.append(f"{q.question} (its article says {', '.join(present)})")
        else:
            kept.append(q)
    return kept, left_out


SETS = (("near-miss", "correct refusals"), ("unanswerable", "correct refusals"), ("answerable", "false refusals"))


def rates(rows: list[dict], modes: list[str]) -> dict[str, dict[str, dict[str, float]]]:
    """set -> mode -> {n, refusals, rate}."""
    out: dict[str, dict[str, dict[str, float]]] = {}
    for kind, _ in SETS:
        for mode in modes:
            subset = [r for r in rows if r["set"] == kind and r["mode"] == mode]
            refused = sum(r["refused"] for r in subset)
            out.setdefault(kind, {})[mode] = {"n": len(subset), "refusals": refused, "rate": refused / len(subset) if subset else 0.0}
    return out


def refusal_table(rows: list[dict], modes: list[str]) -> str:
    lines = [f"{'set':14} {'mode':14} {'N':>4} {'refusals':>9} {'rate':>6}"]
    for kind, meaning in SETS:
        for mode, r in rates(rows, modes)[kind].items():
            lines.append(f"{kind:14} {mode:14} {r['n']:4} {r['refusals']:9} {r['rate']:6.2f}   ({meaning})")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
