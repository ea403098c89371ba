"""No measuring set inside the product: desktop_app/ holds none of their entity names, answers or questions.

A rule, prompt example or comment written from a benchmark's own questions makes that benchmark measure how well
the code remembers it, not how well it works. This scans every text file of desktop_app/ for
- the entity names and answers of every measuring set: the near misses' articles and the words that would answer
  them (bench/near_miss.py), the unanswerable questions' key terms (bench/refusals.py), the labelled sets' fields
  in bench/data/ and tests/data/ (*.jsonl), and, when built under .cache/, the dev sets' relevant articles
  (titles of their qrels) and gold answers (the latency benches' questions are not measuring sets: no verdict
  depends on what they ask, and they ask about the product's own sample datasheet and R's manuals);
- any run of RUN consecutive words of their questions.
Report halves are scanned too; a hit there is reported by its place in the product only, so the question is never
shown to anyone tuning. Matches are whole words, casefolded, in any script (a plural "s" included).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ROOT / "desktop_app"
RUN = 4  # consecutive words of a measuring question that may not appear in the product
# What people write: code, prompts, comments and docs (not the bundled model files in resources/).
TEXT_SUFFIXES = {".py", ".md", ".txt", ".html", ".qss", ".toml", ".cfg", ".ini", ".sql"}
LONG = 5  # a run is a measuring question's own words when LONG-letter words are two of it: function words are short
# The split sets built under .cache/ (<set>/tune, <set>/report); the main checkout's too, which a worktree shares.
CACHES = (ROOT / ".cache", Path("/work/main/.cache"))
# Entries written about the product's own made-up sample datasheet (desktop_app/sample_datasheet.py, which the demo
# and the screenshots ask about): the product wrote those words first, the set copied them.
OWN_SAMPLE = re.compile(r"PX-?40|Norrwave|SK-40", re.IGNORECASE)
# Words the product needs for its own sake that a dev set also has an article about: the platforms it runs on.
PRODUCT_WORDS = frozenset({"Linux", "Unix", "Windows", "macOS", "Python", "SQLite", "Qt"})


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", _joined_numbers(text).casefold())


def _joined_numbers(text: str) -> str:
    """ "1,708" and "1 708" as "1708", so a figure is one word wherever it is written."""
    return re.sub(r"(?<=\d)[,\u00a0\u202f](?=\d{3}\b)", "", text)


def _jsonl(path: Path) -> Iterator[dict]:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            yield json.loads(line)


class Sets:
    """What the measuring sets hold: names and answers (matched as words), questions (matched by runs of words)."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}  # a name (casefolded, or as written when `exact`) -> where it comes from
        self.questions: dict[tuple[str, ...], str] = {}  # a run of RUN words -> where it comes from

    def name(self, text: str, where: str, exact: bool = False) -> None:
        """`exact`: matched only as written, for the titles of a dev set's ten thousand articles, many of them
        common words ("Lead", "Iron"); the hand-written sets' names match in any case ("oboe" for "Oboe")."""
        # "Time (magazine)": the word alone is common; the name is the word with what it names, "Time magazine".
        text = re.sub(r"\s*\((.*?)\)\s*", r" \1 ", str(text)).strip()
        key = " ".join(re.findall(r"\w+", _joined_numbers(text))) if exact else " ".join(_words(text))
        # "500" species, "4000" inhabitants, "2.2" km: a number alone names nothing ("every 500 records", "round(x * 2) / 2")
        bare_number = key.replace(" ", "").isdigit()
        if len(key) >= 3 and key not in PRODUCT_WORDS and not OWN_SAMPLE.search(text) and not bare_number:
            self.names.setdefault(key, where)

    def question(self, text: str, where: str) -> None:
        if OWN_SAMPLE.search(str(text)):
            return
        words = _words(str(text))
        for i in range(len(words) - RUN + 1):
            run = tuple(words[i : i + RUN])
            if sum(len(w) >= LONG for w in run) >= 2:
                self.questions.setdefault(run, where)


def _bench_sets(sets: Sets) -> None:
    from bench import near_miss, refusals

    for miss in near_miss.NEAR_MISSES:
        sets.name(miss.title, "bench/near_miss.py")
        for word in re.findall(r"\w+", miss.title):  # a surname alone names the person ("Knuth")
            if word[:1].isupper() and len(word) >= 4:
                sets.name(word, "bench/near_miss.py", exact=True)
        for figure in re.findall(r"\d[\d,.]*\d{2}", _joined_numbers(miss.reason)):  # what the article does say
            sets.name(figure, "bench/near_miss.py")
        sets.question(miss.question, "bench/near_miss.py")
        for term in miss.absent:  # the words that would answer it: its names and figures
            if term != term.casefold() or any(c.isdigit() for c in term):
                sets.name(term, "bench/near_miss.py")
    for question, terms in refusals.UNANSWERABLE:
        sets.question(question, "bench/refusals.py")
        for term in terms:
            sets.name(term, "bench/refusals.py")


def _labelled_sets(sets: Sets) -> None:
    for folder in (ROOT / "bench" / "data", ROOT / "tests" / "data"):
        for path in sorted(folder.glob("*.jsonl")) if folder.is_dir() else ():
            where = str(path.relative_to(ROOT))
            for row in _jsonl(path):
                if OWN_SAMPLE.search(json.dumps(row, ensure_ascii=False)):
                    continue
                for key in ("question", "query", "sentence", "claim"):
                    if isinstance(row.get(key), str):
                        sets.question(row[key], where)
                for key in ("entity", "name", "title", "answer"):
                    if isinstance(row.get(key), str):
                        sets.name(row[key], where)
                for answer in row.get("answers") or ():
                    sets.name(answer, where)


def _dev_sets(sets: Sets) -> list[Path]:
    """The built dev sets' questions, gold answers and relevant articles' titles; the folders found."""
    found = []
    # Sets built one folder deeper (.cache/answer-trust/near-hit/tune) count too.
    halves = [half for cache in CACHES if cache.is_dir() for pattern in ("*/tune", "*/report", "*/*/tune", "*/*/report") for half in sorted(cache.glob(pattern))]
    for folder in halves:
        if not all((folder / f).is_file() for f in ("queries.jsonl", "qrels.tsv", "corpus.jsonl")) or folder.resolve() in found:
            continue
        found.append(folder.resolve())
        where = f"{folder.parent.name}/{folder.name}"
        for row in _jsonl(folder / "queries.jsonl"):
            sets.question(row.get("text", ""), where)
            for answer in row.get("answers") or ():
                sets.name(answer, where)
        relevant = {line.split("\t")[1] for line in (folder / "qrels.tsv").read_text(encoding="utf-8").splitlines()[1:] if "\t" in line}
        for row in _jsonl(folder / "corpus.jsonl"):
            if row["_id"] in relevant:
                sets.name(row.get("title", ""), where, exact=True)
    return found


def _product_texts() -> Iterator[tuple[str, str]]:
    for path in sorted(PRODUCT.rglob("*")):
        if path.suffix in TEXT_SUFFIXES and path.is_file() and "__pycache__" not in path.parts:
            yield str(path.relative_to(ROOT)), path.read_text(encoding="utf-8", errors="replace")


def hits(sets: Sets) -> list[str]:
    longest = max((len(n.split()) for n in sets.names), default=1)
    out = []
    for file, text in _product_texts():
        for number, line in enumerate(text.splitlines(), 1):
            words = _words(line)
            plain = [re.sub(r"(?:e?s)$", "", w) if len(w) > 4 else w for w in words]
            written = re.findall(r"\w+", _joined_numbers(line))
            for i in range(len(words)):
                for size in range(1, longest + 1):
                    for form in (words, plain, written):
                        key = " ".join(form[i : i + size])
                        where = sets.names.get(key)
                        if where:
                            shown = key if "report" not in where else "(a report-half name, not shown)"
                            out.append(f"{file}:{number}: {shown} [{where}]")
                run = tuple(words[i : i + RUN])
                if len(run) == RUN and run in sets.questions:
                    where = sets.questions[run]
                    shown = " ".join(run) if "report" not in where else "(a report-half question's words, not shown)"
                    out.append(f"{file}:{number}: \u201c{shown}\u201d [{where}]")
    return list(dict.fromkeys(out))


def test_the_product_holds_no_name_answer_or_question_of_a_measuring_set():
    sets = Sets()
    _bench_sets(sets)
    _labelled_sets(sets)
    _dev_sets(sets)
    found = hits(sets)
    assert not found, f"{len(found)} benchmark words in desktop_app/:\n" + "\n".join(found[:80])


def test_the_dev_sets_are_scanned_when_built():
    sets = Sets()
    if not _dev_sets(sets):
        pytest.skip("no dev set built under .cache/ (bench.gold_answers / the eval harness build them)")
    assert sets.questions and sets.names
