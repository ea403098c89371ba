"""How well does the app say "Not found in your documents"? Correct and false refusal rates.

Builds a library from a seeded sample of the dev set's Wikipedia articles (built by
../shared/bench/build_devset.py), then asks:
- answerable questions: "What is <title>?" for articles in the sample (the answer is in the library);
- unanswerable questions: hand-written questions about topics absent from the WHOLE dev corpus
  (checked at run time: a question whose key terms appear in the corpus is reported and left out).
A refusal is an answer with found == False. Prints a table and writes JSON.

Usage: python -m bench.refusals [--devset .cache/devset] [--articles 800] [--answerable 30] [--mode fusion]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from pathlib import Path

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
    parser.add_argument("--mode", default="fusion")
    parser.add_argument("--home", default=".cache/refusals-home")
    parser.add_argument("--json", default="bench/results/refusals.json")
    args = parser.parse_args(argv)

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

    def ask(question: str) -> tuple[bool, str, float]:
        started = time.perf_counter()
        result = None
        for event in library.ask(question, args.mode):
            if isinstance(event, AnswerDone):
                result = event.result
        return result.found, result.answer, time.perf_counter() - started

    rows = []
    for question, _ in answerable:
        found, answer, seconds = ask(question)
        rows.append({"set": "answerable", "question": question, "refused": not found, "answer": answer, "seconds": seconds})
        print(f"[answerable]   {'REFUSED' if not found else 'answered'}  {question}", flush=True)
    for question, _ in unanswerable:
        found, answer, seconds = ask(question)
        rows.append({"set": "unanswerable", "question": question, "refused": not found, "answer": answer, "seconds": seconds})
        print(f"[unanswerable] {'refused' if not found else 'ANSWERED'}  {question}", flush=True)

    def rate(kind: str) -> tuple[int, int]:
        subset = [r for r in rows if r["set"] == kind]
        return sum(r["refused"] for r in subset), len(subset)

    correct, n_un = rate("unanswerable")
    false, n_an = rate("answerable")
    print()
    print(f"mode {args.mode}, model {library.settings.model}, library of {args.articles} dev-set articles")
    print(f"{'set':14} {'N':>4} {'refusals':>9} {'rate':>6}")
    print(f"{'unanswerable':14} {n_un:4} {correct:9} {correct / max(n_un, 1):6.2f}   (correct refusals)")
    print(f"{'answerable':14} {n_an:4} {false:9} {false / max(n_an, 1):6.2f}   (false refusals)")
    if left_out:
        print(f"left out (their topic is in the corpus): {left_out}")
    Path(args.json).parent.mkdir(parents=True, exist_ok=True)
    Path(args.json).write_text(json.dumps({"mode": args.mode, "rows": rows, "correct_refusal_rate": correct / max(n_un, 1),
                                           "false_refusal_rate": false / max(n_an, 1), "left_out": left_out}, indent=2))
    library.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
