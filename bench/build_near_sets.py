"""Build sets (a) near hits and (b) near misses of issue 30 from the dev set's Wikipedia leads, already split.

    python -m bench.build_near_sets --devset /work/main/.cache/devset [--out .cache/answer-trust] [--per-template 10]

Both sets use the same eight templates: who, when, where born, how many, population, height, founder, capital.
- Near hit: the script picks an article and a sentence of it that states a fact of one template (a regex finds
  the answer: a year, a number, a name after "born in" / "founded by" / "capital is" ...), then the local model
  writes a question that sentence answers. The answer is in that article; a question that contains its answer,
  or names nothing, is thrown away.
- Near miss: the script picks an article of a kind the template fits (a place for population, a person for
  where born, ...) whose text holds NO answer of that kind (no number but years for how many / population /
  height; no year for when; no "born" for where born; no "found..." for founder; no "capital"; no "by <Name>"
  for who), and the model writes a question asking that fact of the article's subject.
The library is the question articles plus random other articles that never mention a near-miss subject (so no
other page answers it). Questions are written with the bench's own English patterns: this is bench data, not
product code. The sets are split into tune/report by ../shared/bench/split_devset.py before anyone reads them:
the script prints counts only.

Writes OUT/wiki-library.jsonl (the library's articles), OUT/near-hit and OUT/near-miss (BEIR: corpus.jsonl links
to the library, queries.jsonl {"_id", "text", "template", "answers"}, qrels.tsv: the article).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .build_made_up_sets import split, write_beir

TEMPLATES = ("who", "when", "where born", "how many", "population", "height", "founder", "capital")

YEAR = r"(?:1[0-9]{3}|20[0-2][0-9])"
NAME = r"(?!(?:It|Its|This|That|The|He|She|They)\b)[A-Z][\w'’.-]+(?:[ -](?:de |da |van |von |del |of )?[A-Z][\w'’.-]+)*"
PERSON = r"[A-Z][\w'’.-]+(?: [A-Z][\w'’.-]+)+"
NUMBER = r"\d[\d,.]*\d|\d"
APPROX = r"(?:about |approximately |around |over |more than |nearly |almost |roughly |some |an estimated |estimated )?"
UNITS = r"(?:m|metres|meters|ft|feet)"

# template -> pattern whose group "answer" is the fact a sentence states
STATES = {
    "population": [rf"population (?:of|was|is|at) {APPROX}(?P<answer>(?:{NUMBER})(?: million| billion)?)", rf"{APPROX}(?P<answer>(?:{NUMBER})(?: million| billion)?) (?:inhabitants|residents)"],
    "height": [rf"(?:height|elevation|tall|high) of {APPROX}(?P<answer>{NUMBER})\s?{UNITS}\b", rf"(?P<answer>{NUMBER})\s?{UNITS}\b(?: \([^)]*\))? (?:tall|high|above sea level)"],
    "how many": [r"(?<![\w.,])(?P<answer>\d{1,3}(?:,\d{3})*)(?![\d,.])\s+(?!(?:years|metres|meters|kilometres|km|miles|feet|ft|percent|per|kg|tonnes|tons|degrees|days|hours|minutes|seconds|BC|AD|million|billion)\b)[a-z]+s\b"],
    "when": [rf"\b(?:in|since|from|on \d{{1,2}} [A-Z][a-z]+|until) (?P<answer>{YEAR})\b(?![\d–-])"],
    "where born": [rf"\bborn (?:on [^,.]{{1,30}} )?in (?P<answer>[A-Z][\w'’.-]+(?: [A-Z][\w'’.-]+)?)"],
    "founder": [rf"\b(?:co-)?founded (?:in {YEAR} )?by (?P<answer>{PERSON})"],
    "capital": [rf"\bcapital(?: city)?(?: and (?:largest|most populous) city)? (?:is|was) (?P<answer>{NAME})", rf"^(?P<answer>{NAME}) is the capital(?: city)?(?: and (?:largest|most populous) city)? of"],
    "who": [rf"\b(?:written|directed|composed|invented|discovered|designed|painted|developed|created|led|built|produced|sculpted|proposed|formulated) by (?P<answer>{PERSON})"],
}

HINT = {
    "who": 'Start with "Who".',
    "when": 'Start with "When" or "In what year".',
    "where born": "Ask where the person was born.",
    "how many": 'Start with "How many".',
    "population": "Ask for the population.",
    "height": "Ask how tall or how high it is.",
    "founder": "Ask who founded it.",
    "capital": "Ask for the capital.",
}
CUE = {
    "who": r"\bwho\b", "when": r"\bwhen\b|\byear\b", "where born": r"\bborn\b|\bbirth", "how many": r"\bhow many\b",
    "population": r"\bpopulation\b|\bhow many (?:people|inhabitants|residents)\b", "height": r"\btall\b|\bhigh\b|\bheight\b|\belevation\b",
    "founder": r"\bfound", "capital": r"\bcapital\b",
}
ASK_ABSENT = {
    "who": "which person created, invented, wrote, designed or leads",
    "when": "in what year something important happened to (was founded, built, born, first made or released)",
    "where born": "where was born",
    "how many": "how many of something (members, parts, employees, works, species or similar) there are in or of",
    "population": "the population of",
    "height": "how tall or high is",
    "founder": "who founded",
    "capital": "the capital of",
}
FALLBACK = {
    "who": "Who created {e}?", "when": "In what year was {e} founded?", "where born": "Where was {e} born?",
    "how many": "How many members does {e} have?", "population": "What is the population of {e}?", "height": "How tall is {e}?",
    "founder": "Who founded {e}?", "capital": "What is the capital of {e}?",
}

KIND = {
    "place": r"\b(?:city|town|capital|country|village|municipality|island|state|province|region|nation|kingdom|republic|territory|metropolis|port)\b",
    "country": r"\b(?:country|state|nation|kingdom|republic|province|territory|empire|emirate|sultanate)\b",
    "person": r"\b(?:actor|actress|singer|writer|author|poet|painter|composer|politician|scientist|physicist|chemist|mathematician|philosopher|player|footballer|musician|director|leader|king|queen|emperor|president|engineer|inventor|explorer|artist|novelist|economist|activist|general|statesman|businessman|athlete|sculptor|architect|astronomer|biologist|theologian|saint|pope|dancer|filmmaker|rapper|cricketer)\b",
    "organisation": r"\b(?:company|corporation|band|organization|organisation|university|club|party|brand|magazine|newspaper|firm|manufacturer|league|school|airline|business|foundation|institute|agency|network|studio|group)\b",
    "structure": r"\b(?:building|tower|mountain|peak|volcano|bridge|statue|dam|skyscraper|monument|waterfall|cathedral|castle|palace|temple|pyramid|stadium|lighthouse|tree)\b",
    "work": r"\b(?:novel|film|book|song|album|painting|opera|play|poem|symphony|invention|device|theory|game|series|sculpture|machine|instrument)\b",
}
FITS = {
    "who": ("work", "organisation", "structure"), "when": ("person", "organisation", "structure", "work", "place"), "where born": ("person",),
    "how many": ("organisation", "place", "structure", "work"), "population": ("place",), "height": ("structure", "person"),
    "founder": ("organisation", "place"), "capital": ("country",),
}
NUMBER_WORDS = r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|hundreds|thousand|thousands|million|millions|billion|dozen|dozens|half)\b"


def non_year_numbers(text: str) -> list[str]:
    return [n for n in re.findall(NUMBER, text) if not re.fullmatch(YEAR, n)]


ABSENT = {  # template -> True when the article's text holds no answer of the template's kind
    "how many": lambda t: not non_year_numbers(t) and not re.search(NUMBER_WORDS, t, re.I),
    "population": lambda t: not non_year_numbers(t) and not re.search(NUMBER_WORDS, t, re.I) and not re.search(r"inhabit|resident|people", t, re.I),
    "height": lambda t: not non_year_numbers(t) and not re.search(NUMBER_WORDS, t, re.I) and not re.search(r"\b(?:tall|height|elevation)\b", t, re.I),
    "when": lambda t: not re.search(r"\d", t) and not re.search(r"\bcentur|\bdecade|\bmillenn", t, re.I),
    "where born": lambda t: not re.search(r"\bborn\b|\bnative\b|\bbirth|\bgrew up\b", t, re.I),
    "founder": lambda t: not re.search(r"\bfound|\bestablish|\bcreat|\bformed\b|\bset up\b|\bstarted\b", t, re.I),
    "capital": lambda t: not re.search(r"\bcapital\b|\bseat of government\b", t, re.I),
    "who": lambda t: not re.search(r"\bby [A-Z]", t) and not re.search(r"\binvent|\bdiscover|\bwrote\b|\bwritten\b|\bdirect|\bdesign|\bcompos|\bled\b|\bleader|\bfounder|\bheaded\b|\bcreator\b", t, re.I),
}


@dataclass(frozen=True)
class Question:
    record: str
    template: str
    text: str
    answers: tuple[str, ...]  # empty for a near miss


def sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+(?=[A-Z0-9\"(])", text) if s.strip()]


def entity(title: str) -> str:
    return re.sub(r"\s*\([^)]*\)\s*$", "", title).strip()


def kinds(record: dict) -> set[str]:
    first = " ".join(sentences(record["text"])[:1])
    found = {kind for kind, pattern in KIND.items() if re.search(pattern, first, re.I)}
    if re.search(rf"\((?:born |[^)]*{YEAR}\s*[–-]\s*[^)]*{YEAR})", record["text"][:300]):
        found.add("person")
    return found


def normalized(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())


def clean_question(reply: str) -> str:
    line = next((ln.strip() for ln in reply.strip().splitlines() if ln.strip()), "")
    line = re.sub(r"^(?:question\s*:\s*|q\s*:\s*|\d+[.)]\s*)", "", line, flags=re.I).strip().strip('"“”').strip()
    return line


def fact_of(template: str, sentence: str) -> str | None:
    for pattern in STATES[template]:
        match = re.search(pattern, sentence)
        if match:
            return match.group("answer").rstrip(".,")
    return None


def ask_model(complete: Callable[[str], str], prompt: str) -> str:
    return clean_question(complete(prompt))


def near_hit(record: dict, template: str, complete: Callable[[str], str]) -> Question | None:
    for sentence in sentences(record["text"]):
        answer = fact_of(template, sentence)
        if not answer:
            continue
        prompt = (
            f'Article: {record["title"]}\nSentence: "{sentence}"\n\nWrite one question that this sentence answers with "{answer}". '
            f"{HINT[template]} The question must name what it asks about (never \"it\" or \"this\") and must not contain \"{answer}\". "
            "Reply with the question only."
        )
        question = ask_model(complete, prompt)
        if valid(question, template) and f" {normalized(answer)} " not in f" {normalized(question)} ":
            return Question(record["_id"], template, question, (answer,))
    return None


def near_miss(record: dict, template: str, complete: Callable[[str], str]) -> Question | None:
    name = entity(record["title"])
    first = " ".join(sentences(record["text"])[:1])
    prompt = (
        f'Article: {record["title"]}\nIts first sentence: "{first}"\n\nWrite one question asking {ASK_ABSENT[template]} {name}. '
        f'{HINT[template]} The question must contain the name "{name}". Reply with the question only.'
    )
    question = ask_model(complete, prompt)
    if not (valid(question, template) and normalized(name) in normalized(question)):
        question = FALLBACK[template].format(e=name)
    return Question(record["_id"], template, question, ())


def valid(question: str, template: str) -> bool:
    return question.endswith("?") and 12 <= len(question) <= 200 and bool(re.search(CUE[template], question, re.I))


def build(corpus: list[dict], per_template: int, complete: Callable[[str], str], rng: random.Random) -> tuple[list[Question], list[Question]]:
    """Near hits and near misses, up to `per_template` of each template, one question per article and set."""
    order = rng.sample(corpus, len(corpus))
    hits: list[Question] = []
    misses: list[Question] = []
    used_hit: set[str] = set()
    used_miss: set[str] = set()
    for template in TEMPLATES:
        for record in order:
            if sum(q.template == template for q in hits) >= per_template:
                break
            if record["_id"] in used_hit or not any(fact_of(template, s) for s in sentences(record["text"])):
                continue
            question = near_hit(record, template, complete)
            if question:
                hits.append(question)
                used_hit.add(record["_id"])
        for record in order:
            if sum(q.template == template for q in misses) >= per_template:
                break
            text = record["title"] + "\n" + record["text"]
            if record["_id"] in used_miss or not kinds(record) & set(FITS[template]) or not ABSENT[template](text):
                continue
            misses.append(near_miss(record, template, complete))
            used_miss.add(record["_id"])
        print(f"{template}: {sum(q.template == template for q in hits)} near hits, {sum(q.template == template for q in misses)} near misses", flush=True)
    return hits, misses


def library(corpus: list[dict], questions: list[Question], misses: list[Question], size: int, rng: random.Random) -> list[dict]:
    """The question articles, then random articles that never mention a near miss's subject."""
    by_id = {r["_id"]: r for r in corpus}
    chosen = {q.record: by_id[q.record] for q in questions}
    subjects = [re.compile(r"(?<!\w)" + re.escape(entity(by_id[q.record]["title"])) + r"(?!\w)", re.I) for q in misses]
    for record in rng.sample(corpus, len(corpus)):
        if len(chosen) >= size:
            break
        if record["_id"] not in chosen and not any(s.search(record["title"] + " " + record["text"]) for s in subjects):
            chosen[record["_id"]] = record
    return sorted(chosen.values(), key=lambda r: r["_id"])


def model_completion(home: Path) -> Callable[[str], str]:
    from desktop_app.core.library import Library

    generator = Library(home).generator()
    messages = lambda prompt: [{"role": "system", "content": "You write short quiz questions."}, {"role": "user", "content": prompt}]  # noqa: E731
    return lambda prompt: generator.complete(messages(prompt), max_tokens=48, temperature=0.0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devset", default=".cache/devset")
    parser.add_argument("--out", default=".cache/answer-trust")
    parser.add_argument("--per-template", type=int, default=10)
    parser.add_argument("--library-size", type=int, default=600)
    parser.add_argument("--seed", type=int, default=30)
    args = parser.parse_args(argv)
    out = Path(args.out)
    corpus = [json.loads(line) for line in open(Path(args.devset) / "corpus.jsonl", encoding="utf-8")]
    rng = random.Random(args.seed)
    hits, misses = build(corpus, args.per_template, model_completion(out / "writer-home"), rng)
    articles = library(corpus, hits + misses, misses, args.library_size, rng)
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "wiki-library.jsonl", "w", encoding="utf-8") as f:
        f.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in articles)
    for name, questions, prefix in (("near-hit", hits, "h"), ("near-miss", misses, "m")):
        folder = out / name
        queries = [{"_id": f"{prefix}{i:03d}", "text": q.text, "template": q.template, "answers": list(q.answers)} for i, q in enumerate(questions)]
        write_beir(folder, [], queries, [(qid["_id"], q.record) for qid, q in zip(queries, questions)])
        (folder / "corpus.jsonl").unlink()
        (folder / "corpus.jsonl").symlink_to(Path("..") / "wiki-library.jsonl")
        print(f"{name}: {len(questions)} questions {dict(Counter(q.template for q in questions))}")
        split(folder)
    print(f"library: {len(articles)} articles")
    return 0


if __name__ == "__main__":
    sys.exit(main())
