"""Build sets (a) near hits and (b) near misses of issue 30 from the dev set's Wikipedia leads, already split.

    python -m bench.build_near_sets --devset .cache/devset [--out .cache/answer-trust] [--per-template 10]
    python -m bench.build_near_sets --out .cache/answer-trust-fresh --seed 31 --exclude .cache/answer-trust  # a fresh set

Both sets use the same eight templates: who, when, where born, how many, population, height, founder, capital.
- Near hit: the script picks an article and a sentence of it that states a fact of one template (a regex finds
  the answer: a year after "founded in", a count before a plural noun, a name after "born in" / "founded by" /
  "capital is" ...) and writes the template's question about the article's subject ("Who directed <title>?",
  "How many <noun> does <title> have?"). The answer is in that article; a question containing it is dropped.
- Near miss: the script picks an article of a kind the template fits (a place for population, a person for
  where born, ...) whose text holds NO answer of that kind (no number but years for how many / population /
  height; no year for when; no "born" for where born; no "found..." for founder; no "capital"; no "by <Name>"
  for who), and writes the template's question for that kind about the article's subject.
The questions are written by the script's templates, not by the local model: on a machine shared by many jobs
the model wrote about one question a minute (the issue allows either).
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

# template -> (pattern whose group "answer" is the fact a sentence states, the question it answers about the article's
# subject {e}; other groups of the pattern fill the question too)
PAST = {"written": "wrote"}
STATES = {
    "who": [(r"\b(?P<verb>written|directed|composed|invented|discovered|designed|painted|developed|created|led|built|produced|sculpted|proposed|formulated)"
             rf" by (?P<answer>{PERSON})", "Who {verb} {e}?")],
    "when": [(r"\b(?P<verb>founded|established|built|born|completed|opened|released|published|discovered|invented|formed|launched|created|constructed"
              r"|introduced|adopted|premiered|elected|crowned|signed|first performed) (?:in|on|in [A-Z][a-z]+|on \d{1,2} [A-Z][a-z]+|on [A-Z][a-z]+ \d{1,2},) "
              rf"(?P<answer>{YEAR})\b(?![\d–-])", "In what year was {e} {verb}?")],
    "where born": [(rf"\bborn (?:on [^,.]{{1,30}} )?in (?P<answer>[A-Z][\w'’.-]+(?: [A-Z][\w'’.-]+)?)", "Where was {e} born?")],
    "how many": [(r"\b(?:has|have|had|with|contains|contained|comprises|comprised|consists of|consisted of|includes|included|features|featured) "
                  r"(?:about |around |over |more than |some |approximately |nearly |almost )?(?P<answer>\d{1,3}(?:,\d{3})+|\d+) "
                  r"(?!(?:years|metres|meters|kilometres|km|miles|feet|ft|percent|per|kg|tonnes|tons|degrees|days|hours|minutes|seconds|million|billion"
                  r"|inhabitants|residents|people)\b)"
                  r"(?:[a-z]+ )?(?P<noun>(?!(?:years|metres|meters|kilometres|miles|feet|percent|degrees|days|hours|minutes|seconds)\b)[a-z]+s)\b",
                  "How many {noun} does {e} have?")],
    "population": [(rf"population (?:of|was|is|at) {APPROX}(?P<answer>(?:{NUMBER})(?: million| billion)?)", "What is the population of {e}?"),
                   (rf"{APPROX}(?P<answer>(?:{NUMBER})(?: million| billion)?) (?:inhabitants|residents)", "What is the population of {e}?")],
    "height": [(rf"(?:height|tall|high) of {APPROX}(?P<answer>{NUMBER})\s?{UNITS}\b", "How tall is {e}?"),
               (rf"(?P<answer>{NUMBER})\s?{UNITS}\b(?: \([^)]*\))? (?:tall|high)\b", "How tall is {e}?"),
               (rf"(?:elevation|altitude) of {APPROX}(?P<answer>{NUMBER})\s?{UNITS}\b", "At what elevation is {e}?"),
               (rf"(?P<answer>{NUMBER})\s?{UNITS}\b(?: \([^)]*\))? above sea level", "At what elevation is {e}?")],
    "founder": [(rf"\b(?:co-)?founded (?:in {YEAR} )?by (?P<answer>{PERSON})", "Who founded {e}?")],
    "capital": [(rf"\bcapital(?: city)?(?: and (?:largest|most populous) city)? (?:is|was) (?P<answer>{NAME})", "What is the capital of {e}?"),
                (rf"^(?P<answer>{NAME}) is the capital(?: city)?(?: and (?:largest|most populous) city)? of (?:the )?(?P<of>{NAME})(?=[,.;]| and | in |$)",
                 "What is the capital of {of}?")],
}

# template -> the article kinds a near hit's question fits (none: any)
HIT_KINDS = {"where born": {"person"}, "population": {"place", "country"}, "height": {"structure", "place", "person"},
             "founder": {"organisation", "place", "country"}, "capital": {"place", "country"},
             "when": {"person", "organisation", "structure", "work", "place", "country"}}

# template -> article kind -> the near-miss question about the article's subject {e}
ASK_ABSENT = {
    "who": {"work": "Who created {e}?", "organisation": "Who leads {e}?", "structure": "Who designed {e}?"},
    "when": {"person": "In what year was {e} born?", "organisation": "In what year was {e} founded?", "structure": "In what year was {e} built?",
             "work": "In what year was {e} first published or released?", "place": "In what year was {e} founded?"},
    "where born": {"person": "Where was {e} born?"},
    "how many": {"organisation": "How many members does {e} have?", "place": "How many districts does {e} have?",
                 "structure": "How many visitors does {e} receive each year?", "work": "How many copies of {e} were sold?"},
    "population": {"place": "What is the population of {e}?"},
    "height": {"structure": "How tall is {e}?", "person": "How tall was {e}?"},
    "founder": {"organisation": "Who founded {e}?", "place": "Who founded {e}?"},
    "capital": {"country": "What is the capital of {e}?"},
}

def any_word(words: str) -> str:
    """A regex matching any of the space-separated words, whole."""
    return r"\b(?:" + "|".join(words.split()) + r")\b"


KIND = {
    "place": any_word("city town capital country village municipality island province region nation kingdom republic territory metropolis port"),
    "country": any_word("country nation kingdom republic province territory empire emirate sultanate"),
    "person": any_word(
        "editor journalist publisher soldier monarch emperor prince princess leader actor actress singer writer author poet painter composer politician "
        "scientist physicist chemist mathematician philosopher player footballer musician director leader king queen emperor president engineer "
        "inventor explorer artist novelist economist activist statesman businessman athlete sculptor architect astronomer biologist theologian saint "
        "pope dancer filmmaker rapper cricketer"
    ),
    "organisation": any_word(
        "company corporation band organization organisation university club party brand magazine newspaper firm manufacturer league school airline "
        "business foundation institute agency network studio"
    ),
    "structure": any_word(
        "building tower mountain peak volcano bridge statue dam skyscraper monument waterfall cathedral castle palace temple pyramid stadium lighthouse "
        "tree"
    ),
    "work": any_word("novel film book song album painting opera play poem symphony invention device theory game sculpture machine instrument"),
}
NUMBER_WORDS = any_word(
    "one two three four five six seven eight nine ten eleven twelve twenty thirty forty fifty hundred hundreds thousand thousands million millions "
    "billion dozen dozens half"
)


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
    "who": lambda t: not re.search(r"\bby [A-Z]", t)
    and not re.search(r"\binvent|\bdiscover|\bwrote\b|\bwritten\b|\bdirect|\bdesign|\bcompos|\bled\b|\bleader|\bfounder|\bheaded\b|\bcreator\b", t, re.I),
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
    """What the article is about, from the head of its first sentence's predicate ("X is a Congolese politician and
    ..." -> person; "X is a genre of ... music" -> nothing). A person is nothing else."""
    first = " ".join(sentences(record["text"])[:1])
    predicate = re.search(r"\b(?:is|was|are|were)\s+(?:(?:a|an|the|one of the|one of)\s+)?(.*)", first)
    ends = r"\s(?:of|in|on|at|from|by|for|with|that|which|who|whose|where|known|located|situated|based|and|or)\s|[,;.()]"
    head = re.split(ends, predicate.group(1))[0] if predicate else ""
    found = {kind for kind, pattern in KIND.items() if re.search(pattern, head, re.I)}
    if "person" in found or re.search(rf"\((?:born |[^)]*{YEAR}\s*[–-]\s*[^)]*{YEAR})", first[:200]):
        return {"person"}
    return found


def normalized(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())


def fact_of(template: str, sentence: str) -> re.Match | None:
    for pattern, _ in STATES[template]:
        match = re.search(pattern, sentence)
        if match:
            return match
    return None


def answer_of(match: re.Match) -> str:
    return match.group("answer").rstrip(".,")


def near_hit(record: dict, template: str) -> Question | None:
    """The first sentence of the article stating a fact of the template, asked about the article's subject: in an
    article of a kind the template fits, in a sentence whose subject is the article's (its name or a pronoun)."""
    if HIT_KINDS.get(template) and not kinds(record) & HIT_KINDS[template]:
        return None
    name = entity(record["title"])
    for sentence in sentences(record["text"]):
        if not (sentence.startswith(name.split()[0]) or re.match(r"(?:It|He|She|They|The|Its|His|Her|Their)\b", sentence)):
            continue
        for pattern, form in STATES[template]:
            match = re.search(pattern, sentence)
            if not match:
                continue
            answer = answer_of(match)
            fill = {k: PAST.get(v, v).rstrip(".,") for k, v in match.groupdict().items() if v}
            question = form.format(e=entity(record["title"]), **fill)
            if f" {normalized(answer)} " not in f" {normalized(question)} ":
                return Question(record["_id"], template, question, (answer,))
    return None


def near_miss(record: dict, template: str) -> Question | None:
    """The template's question about the article's subject, when the article is of a kind it fits and holds no answer."""
    fitting = [kind for kind in ASK_ABSENT[template] if kind in kinds(record)]
    if not fitting or not ABSENT[template](record["title"] + "\n" + record["text"]):
        return None
    return Question(record["_id"], template, ASK_ABSENT[template][fitting[0]].format(e=entity(record["title"])), ())


def build(corpus: list[dict], per_template: int, rng: random.Random, excluded: frozenset[str] = frozenset()) -> tuple[list[Question], list[Question]]:
    """Near hits and near misses, up to `per_template` of each template, one question per article and set, never
    about an `excluded` article."""
    order = [r for r in rng.sample(corpus, len(corpus)) if r["_id"] not in excluded]
    hits: list[Question] = []
    misses: list[Question] = []
    for template in TEMPLATES:
        for questions, make in ((hits, near_hit), (misses, near_miss)):
            used = {q.record for q in questions}
            found = 0
            for record in order:
                if found >= per_template:
                    break
                question = make(record, template) if record["_id"] not in used else None
                if question is not None:
                    questions.append(question)
                    found += 1
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devset", default=".cache/devset")
    parser.add_argument("--out", default=".cache/answer-trust")
    parser.add_argument("--per-template", type=int, default=10)
    parser.add_argument("--library-size", type=int, default=600)
    parser.add_argument("--seed", type=int, default=30)
    parser.add_argument("--exclude", action="append", default=[], metavar="OUT",
                        help="never ask about an article an earlier build (its OUT folder) asked about: a fresh set, no question of the old one's halves")
    args = parser.parse_args(argv)
    out = Path(args.out)
    corpus = [json.loads(line) for line in open(Path(args.devset) / "corpus.jsonl", encoding="utf-8")]
    rng = random.Random(args.seed)
    excluded = frozenset(line.split("\t")[1] for old in map(Path, args.exclude) for qrels in old.glob("near-*/*/qrels.tsv")
                         for line in qrels.read_text(encoding="utf-8").splitlines()[1:] if "\t" in line)
    hits, misses = build(corpus, args.per_template, rng, excluded)
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
