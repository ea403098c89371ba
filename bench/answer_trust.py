"""Can a person trust the answers? Issue 30's targets in one command, fusion beside plain RAG, with paired intervals.

    python -m bench.answer_trust --half tune [--sample 12] [--multihop-sample 8] [--modes fusion,rag] [--judge-only] [--refuse-when-sure]
    make answer-trust HALF=tune

Reads the sets built by bench/build_near_sets.py and bench/build_made_up_sets.py (OUT, default .cache/answer-trust)
and the dev set (--devset), one half of each (--half tune|report; read report once, when the work is done), and
prints for every mode:
- near misses refused (the article is in the library, the fact is not: refusing is right);
- near hits refused (the fact is in its article: refusing is wrong), and apart: of the model's right replies (an
  answer lost) and of its wrong ones (a wrong answer kept from the person);
- near-hit loose accuracy with the checks, and with every check switched off (the model's raw reply);
- (d) German questions over made-up German PDFs, and the same questions in English: loose accuracy of each; the
  same for Chinese (set "chinese": no spaces between words);
- multi-hop cited recall on the dev set's FanOutQA questions (--multihop-sample of them);
- questions naming a command-line option over made-up manuals (bench/build_option_set.py): of options the manual
  has (option-hit) refused, flagged, accurate; of options it lacks (option-miss) refused;
- the same over a real HTML API reference (Node.js's, bench/section_options.py, built into OUT/api): the default of
  an option a function has (api-hit), and of one only a sibling function has (api-miss: refusing is right);
- how many replies repeat a sentence; the check's time as a share of the answer's;
and, needing no model, (c): per language, the share of right citations the grounding check flags and of wrong
citations it passes. Differences (fusion - rag, checks on - off, German - English) are paired per question with
95% bootstrap intervals (bench/paired_difference.py).

Answers are asked once and cached (bench/answer_cache.py): the raw reply and the check's inputs are kept, so a
re-run after a change to the checks only re-judges (--judge-only never asks the model). The check is the
grounding check (desktop_app.core.answers.grounding.judge_claim) when present, else the pipeline's review_answer.
Questions of all sets take turns, so a run cut short still measures each set; re-running resumes.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .answer_cache import AnswerCache, NotReviewed, Recorded, ask_recorded, rejudge, unchecked
from .common import table
from .paired_difference import bootstrap_interval

SETS = ("near-miss", "near-hit", "german", "chinese", "english", "mixed", "multihop", "option-hit", "option-miss", "api-hit", "api-miss")
# The sets asking each question in its documents' language and in English: set -> that language.
BILINGUAL = {"german": "de", "chinese": "zh", "english": "de"}  # "english": German questions over English documents
# "mixed": the German set's English questions over its 6 German PDFs among the first 200 English articles of the
# near sets' library (German 3% of the documents: one foreign datasheet among many manuals).
MIXED = "mixed"
MIXED_ENGLISH = 200
# Questions naming a command-line option, over made-up manuals (bench/build_option_set.py): set -> the label it asks.
OPTIONS = {"option-hit": "hit", "option-miss": "miss"}
# Questions about a function's option in a real API reference (bench/section_options.py): set -> the label it asks.
APIS = {"api-hit": "hit", "api-miss": "miss"}


@dataclass(frozen=True)
class Item:
    set: str
    qid: str  # the question's id, with "-en" for the English twin of a German or Chinese question
    question: str
    gold: tuple[str, ...] = ()
    relevant: tuple[str, ...] = ()
    variant: str = ""  # "de" / "zh" / "en" for set (d)


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def read_qrels(path: Path) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in path.read_text(encoding="utf-8").splitlines()[1:]:
        qid, doc, *_ = line.split("\t")
        out.setdefault(qid, []).append(doc)
    return out


def sampled(records: list[dict], n: int | None, seed: int = 0) -> list[dict]:
    order = sorted(records, key=lambda r: str(r["_id"]))
    random.Random(seed).shuffle(order)
    return order[:n] if n else order


def items_of(set_name: str, folder: Path, n: int | None) -> list[Item]:
    if not (folder / "queries.jsonl").exists():
        print(f"{set_name}: no {folder}/queries.jsonl (build the sets first: make answer-sets)", file=sys.stderr)
        return []
    qrels = read_qrels(folder / "qrels.tsv")
    out = []
    records = read_jsonl(folder / "queries.jsonl")
    if set_name in OPTIONS or set_name in APIS:
        records = [q for q in records if q["label"] == {**OPTIONS, **APIS}[set_name]]
    for q in sampled(records, n):
        qid = str(q["_id"])
        gold, relevant = tuple(q.get("answers") or ([q["default"]] if q.get("default") else ())), tuple(qrels.get(qid, ()))  # "default": the API set's
        if set_name in BILINGUAL:
            out.append(Item(set_name, qid, q["text"], gold, relevant, BILINGUAL[set_name]))
            out.append(Item(set_name, qid + "-en", q["text_en"], gold, relevant, "en"))
        elif set_name == MIXED:
            out.append(Item(set_name, qid + "-en", q["text_en"], gold, relevant, "en"))
        else:
            out.append(Item(set_name, qid, q["text"], gold, relevant))
    return out


def interleaved(groups: Sequence[list[Item]]) -> list[Item]:
    """The sets take turns (a German or Chinese question and its English twin stay together)."""
    queues = [list(g) for g in groups if g]
    out = []
    while any(queues):
        for queue in queues:
            take = 2 if queue and queue[0].variant in BILINGUAL.values() else 1
            out += queue[:take]
            del queue[:take]
    return out


# -- the libraries the questions are asked of ---------------------------------------------------------------------
@dataclass
class Libraries:
    out: Path
    devset: Path
    devset_home: Path
    opened: dict = field(default_factory=dict)  # library kind -> Library
    generator: object = None

    def of(self, set_name: str):
        kind = {"near-miss": "wiki", "near-hit": "wiki", "multihop": "devset", **dict.fromkeys(OPTIONS, "options"), **dict.fromkeys(APIS, "api")}.get(set_name, set_name)
        if kind not in self.opened:
            self.opened[kind] = self._open(kind)
        return self.opened[kind]

    def _open(self, kind: str):
        from desktop_app.core.library import Library
        from desktop_app.evaluation.answers import import_corpus
        from desktop_app.evaluation.harness import BeirSet

        home = {"wiki": self.out / "wiki-home", "devset": self.devset_home}.get(kind, self.out / f"{kind}-home")
        library = Library(home=home, generator=self.generator) if self.generator is not None else Library(home=home)
        if self.generator is None:
            self.generator = library.generator()  # one model for every library
        started = time.perf_counter()
        if kind == "api":
            from .section_options import DOCS, PAGES

            for event in library.import_paths([DOCS / f"{page}.html" for page in PAGES if (DOCS / f"{page}.html").is_file()]):
                if event.stage == "failed":
                    print(f"import failed: {event.file}: {event.message}", file=sys.stderr)
        if kind in BILINGUAL or kind in (MIXED, "options"):
            pdfs = self.out / "options" / "docs" if kind == "options" else self.out / ("german" if kind == MIXED else kind) / "pdfs"
            for event in library.import_paths([pdfs]):
                if event.stage == "failed":
                    print(f"import failed: {event.file}: {event.message}", file=sys.stderr)
        if kind == MIXED:
            source = self.out / "wiki-library.jsonl"
            corpus = {str(r["_id"]): (r.get("title", ""), r["text"]) for r in read_jsonl(source)[:MIXED_ENGLISH]}
            import_corpus(library, source.with_suffix(""), BeirSet(corpus, [], {}))
        elif kind not in BILINGUAL and kind not in ("options", "api"):
            source = self.out / "wiki-library.jsonl" if kind == "wiki" else self.devset / "corpus.jsonl"
            corpus = {str(r["_id"]): (r.get("title", ""), r["text"]) for r in read_jsonl(source)}
            # One fixed folder per library, whichever half asks (the dev set's root, as the answer eval names it,
            # so a library it imported is reused).
            import_corpus(library, source.with_suffix("") if kind == "wiki" else self.devset, BeirSet(corpus, [], {}))
        print(f"library {kind}: {len(library.documents())} documents at {home} ({time.perf_counter() - started:.0f} s)", file=sys.stderr)
        return library

    def close(self) -> None:
        for library in self.opened.values():
            library.close()


def record_names(set_name: str, out: Path, devset: Path) -> dict[str, str]:
    """Document file name -> record id for the set's library (what a citation's file is scored as)."""
    from desktop_app.evaluation.harness import record_file_name

    if set_name in BILINGUAL or set_name == MIXED:
        return {p.name: p.stem for p in (out / ("german" if set_name == MIXED else set_name) / "pdfs").glob("*.pdf")}
    if set_name != "multihop":
        return {}  # near hits and misses are scored on the answer's words, not on what it cites
    if set_name not in _NAMES:
        _NAMES[set_name] = {record_file_name(str(r["_id"])): str(r["_id"]) for r in read_jsonl(devset / "corpus.jsonl")}
    return _NAMES[set_name]


_NAMES: dict[str, dict[str, str]] = {}


# -- judging one recorded answer ---------------------------------------------------------------------------------
def sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+|\n+", text) if s.strip()]


def repeats_a_sentence(text: str) -> bool:
    """Some sentence of four or more words occurs twice (compared by its Unicode words, any case)."""
    seen = Counter(" ".join(re.findall(r"\w+", s.lower())) for s in sentences(text))
    return any(n > 1 and len(key.split()) >= 4 for key, n in seen.items())


def written_in(text: str) -> str | None:
    """The language an answer is written in (its citations and figures left out): the likeliest of those the app's
    prompts name, as the app reads a question's (core/languages.py)."""
    from desktop_app.core.languages import LANGUAGE_NAMES, _probabilities

    words = re.sub(r"\[\d+\]|\d+", " ", text)
    named = {language: p for language, p in _probabilities(words).items() if language in LANGUAGE_NAMES}
    return max(named, key=named.__getitem__) if named else None


def row_of(item: Item, recorded: Recorded, names: dict[str, str], embedder=None, model_check=None) -> dict:
    from desktop_app.evaluation import answer_metrics as metrics

    judged = rejudge(recorded, embedder, model_check)
    said = judged.answer if judged.found else ""
    raw_answer, raw_found = unchecked(recorded)
    row = {
        "set": item.set, "qid": item.qid.removesuffix("-en") if item.variant else item.qid, "variant": item.variant, "mode": recorded.mode,
        "refused": not judged.found, "refused_unchecked": not raw_found,
        "warned": judged.found and any(not c.supported for c in judged.citations),
        "unwarned": judged.found and all(c.supported for c in judged.citations),
        "repeats": repeats_a_sentence(recorded.raw), "check_share": judged.seconds / recorded.total_s if recorded.total_s else None,
        "total_s": recorded.total_s,
    }
    if item.gold:
        row["accuracy"] = metrics.loose_accuracy(item.gold, said)
        row["accuracy_unchecked"] = metrics.loose_accuracy(item.gold, raw_answer if raw_found else "")
        row["wrong_unflagged"] = row["unwarned"] and not row["accuracy"]
        if raw_found:  # a refusal of a right reply costs the person an answer; of a wrong one, it spares them one
            row["right_refused" if row["accuracy_unchecked"] else "wrong_refused"] = not judged.found
    if item.variant and judged.found:
        row["in_language"] = written_in(judged.answer) == item.variant
    if item.set == "multihop":
        cited = list(dict.fromkeys(r for c in judged.citations if (r := names.get(Path(c.file).name)) is not None))
        row["cited_recall"] = metrics.cited_evidence_recall(cited, item.relevant)
    return row


# -- (c): claims and citations, judged without a language model ---------------------------------------------------
def claim_rows(folder: Path, embedder=None, model_check=None) -> tuple[str, list[dict]]:
    """Each labelled claim judged twice: as the app judges it (evaluation/claims.py's judged_claims: the claim citing its passages,
    the rest of its made-up document as the other passages the model read, the app's embedder) and alone (the claim
    against its cited passages only, no other passage, no embedder: what the table printed before)."""
    import inspect

    from desktop_app.core.answers.grounding import judge_claim
    from desktop_app.core.answers.review import review_answer
    from desktop_app.evaluation.claims import judged_claims
    from desktop_app.core.types import Passage, Source

    if not (folder / "queries.jsonl").exists():
        return "grounding.judge_claim", []
    records = read_jsonl(folder / "corpus.jsonl")
    passages = {r["_id"]: r["text"] for r in records}
    documents: dict[str, list[dict]] = {}
    for r in records:
        documents.setdefault(r["_id"].rsplit("-p", 1)[0], []).append(r)
    parameters = inspect.signature(judged_claims).parameters
    judge_kwargs = {"embedder": embedder} if embedder is not None and "embedder" in parameters else {}
    if model_check is not None and "model_check" in parameters:
        judge_kwargs["model_check"] = model_check
    cited = read_qrels(folder / "qrels.tsv")
    rows = []
    for q in read_jsonl(folder / "queries.jsonl"):
        read = documents[cited[q["_id"]][0].rsplit("-p", 1)[0]]
        context = [Source(i, Passage(i, 1, "made-up.txt", r.get("title", ""), 1, 0, len(r["text"]), r["text"]), 0.0, {}, 1.0) for i, r in enumerate(read, 1)]
        numbers = [next(i for i, r in enumerate(read, 1) if r["_id"] == p) for p in cited[q["_id"]]]
        claim = q["text"].rstrip(".")
        judged = judged_claims(f"{claim} [{', '.join(map(str, numbers))}].", context, "", **judge_kwargs)
        alone = judge_claim(q["text"], [passages[p] for p in cited[q["_id"]]]).grounded
        rows.append({"lang": q["lang"], "label": q["label"], "joint": q["joint"], "grounded": bool(judged) and all(g.grounded for _, g in judged), "grounded_alone": alone})
        padding = next((i for i in range(1, len(read) + 1) if i not in numbers), None)
        if q["label"] == "right" and padding:  # its right pages and one page of the document it does not cite, as marks
            padded = review_answer(f"{claim} {''.join(f'[{n}]' for n in [*numbers, padding])}.", True, "", context, context, embedder=embedder)
            if padded.found:  # no model here: a claim only the model reads in other words is refused, and not counted
                kept = {c.n for c in padded.citations}
                rows[-1].update(padding_dropped=padding not in kept, right_kept=set(numbers) <= kept)
    return "grounding.judge_claim" + (" with the embedder" if "embedder" in judge_kwargs else ""), rows


# -- the report ----------------------------------------------------------------------------------------------------
def interval(values: list[float]) -> str:
    if not values:
        return "-"
    low, high = bootstrap_interval(values)
    return f"{statistics.fmean(values):.2f} [{low:.2f}, {high:.2f}]"


def signed(values: list[float]) -> str:
    if not values:
        return "-"
    low, high = bootstrap_interval(values)
    return f"{statistics.fmean(values):+.2f} [{low:+.2f}, {high:+.2f}]"


def by_question(rows: list[dict], set_name: str, mode: str, metric: str, variant: str = "") -> dict[str, float]:
    mine = [r for r in rows if r["set"] == set_name and r["mode"] == mode and r.get("variant", "") == variant]
    return {r["qid"]: float(r[metric]) for r in mine if r.get(metric) is not None}


def paired(a: dict[str, float], b: dict[str, float]) -> list[float]:
    return [a[q] - b[q] for q in a if q in b]


def report_lines(rows: list[dict], modes: list[str]) -> list[list[object]]:
    """One line per measure: N, each mode's mean [CI], and the first mode minus the second, paired."""
    measures = [
        ("near-miss", "refused (target >= 0.85)", "refused", ""),
        ("near-miss", "refused, checks off", "refused_unchecked", ""),
        ("near-miss", "answered with no citation flagged", "unwarned", ""),
        ("near-hit", "refused (target <= 0.05)", "refused", ""),
        ("near-hit", "  of the model's right replies", "right_refused", ""),
        ("near-hit", "  of its wrong replies", "wrong_refused", ""),
        ("near-hit", "answered with a citation flagged", "warned", ""),
        ("near-hit", "refused, checks off", "refused_unchecked", ""),
        ("near-hit", "loose accuracy, checks on", "accuracy", ""),
        ("near-hit", "loose accuracy, checks off", "accuracy_unchecked", ""),
        ("german", "accuracy, German questions", "accuracy", "de"),
        ("german", "accuracy, English questions", "accuracy", "en"),
        ("german", "refused, German questions", "refused", "de"),
        ("german", "refused, English questions", "refused", "en"),
        ("german", "answered in German, German questions", "in_language", "de"),
        ("german", "answered in English, English questions", "in_language", "en"),
        ("english", "accuracy, German questions", "accuracy", "de"),
        ("english", "accuracy, English questions", "accuracy", "en"),
        ("english", "refused, German questions", "refused", "de"),
        ("english", "refused, English questions", "refused", "en"),
        ("english", "answered in German, German questions", "in_language", "de"),
        ("chinese", "accuracy, Chinese questions", "accuracy", "zh"),
        ("chinese", "accuracy, English questions", "accuracy", "en"),
        ("chinese", "refused, Chinese questions", "refused", "zh"),
        ("chinese", "refused, English questions", "refused", "en"),
        ("chinese", "answered in Chinese, Chinese questions", "in_language", "zh"),
        ("chinese", "answered in English, English questions", "in_language", "en"),
        ("mixed", "accuracy, English questions", "accuracy", "en"),
        ("mixed", "refused, English questions", "refused", "en"),
        ("mixed", "wrong answer shown with no flag", "wrong_unflagged", "en"),
        ("mixed", "answer time, s", "total_s", "en"),
        ("multihop", "cited recall", "cited_recall", ""),
        ("option-miss", "refused (the manual lacks the option)", "refused", ""),
        ("option-miss", "refused, checks off", "refused_unchecked", ""),
        ("option-miss", "answered with no citation flagged", "unwarned", ""),
        ("option-hit", "refused (the manual has it)", "refused", ""),
        ("option-hit", "  of the model's right replies", "right_refused", ""),
        ("option-hit", "  of its wrong replies", "wrong_refused", ""),
        ("option-hit", "answered with a citation flagged", "warned", ""),
        ("option-hit", "accuracy, checks on", "accuracy", ""),
        ("option-hit", "accuracy, checks off", "accuracy_unchecked", ""),
        ("option-hit", "wrong answer shown with no flag", "wrong_unflagged", ""),
        ("api-miss", "refused (the function lacks the option)", "refused", ""),
        ("api-miss", "refused, checks off", "refused_unchecked", ""),
        ("api-miss", "answered with no citation flagged", "unwarned", ""),
        ("api-hit", "refused (the function has it)", "refused", ""),
        ("api-hit", "  of the model's right replies", "right_refused", ""),
        ("api-hit", "  of its wrong replies", "wrong_refused", ""),
        ("api-hit", "answered with a citation flagged", "warned", ""),
        ("api-hit", "accuracy, checks on", "accuracy", ""),
        ("api-hit", "accuracy, checks off", "accuracy_unchecked", ""),
        ("api-hit", "wrong answer shown with no flag", "wrong_unflagged", ""),
    ]
    lines = []
    for set_name, label, metric, variant in measures:
        columns = [by_question(rows, set_name, mode, metric, variant) for mode in modes]
        if not any(columns):
            continue
        diff = signed(paired(columns[0], columns[1])) if len(columns) > 1 else "-"
        lines.append([set_name, label, max(len(c) for c in columns), *(interval(list(c.values())) for c in columns), diff])
    for set_name, label, on, off, variant_on, variant_off in (
        ("near-hit", "accuracy: checks on - off", "accuracy", "accuracy_unchecked", "", ""),
        ("option-hit", "accuracy: checks on - off", "accuracy", "accuracy_unchecked", "", ""),
        ("api-hit", "accuracy: checks on - off", "accuracy", "accuracy_unchecked", "", ""),
        ("german", "accuracy: German - English", "accuracy", "accuracy", "de", "en"),
        ("chinese", "accuracy: Chinese - English", "accuracy", "accuracy", "zh", "en"),
        ("english", "accuracy: German - English", "accuracy", "accuracy", "de", "en"),
    ):
        diffs = [paired(by_question(rows, set_name, m, on, variant_on), by_question(rows, set_name, m, off, variant_off)) for m in modes]
        if any(diffs):
            lines.append([set_name, label + " (paired)", max(len(d) for d in diffs), *(signed(d) for d in diffs), "-"])
    if rows:
        per_mode = [[r for r in rows if r["mode"] == m] for m in modes]
        repeating = [f"{sum(r['repeats'] for r in mine)} of {len(mine)}" for mine in per_mode]
        lines.append(["all", "replies repeating a sentence", max(map(len, per_mode)), *repeating, "-"])
        shares = [[r["check_share"] for r in mine if r.get("check_share") is not None] for mine in per_mode]
        lines.append(["all", "check time / answer time, median", max(map(len, shares)), *(f"{statistics.median(s):.4f}" if s else "-" for s in shares), "-"])
    return lines


def claim_lines(rows: list[dict]) -> list[list[object]]:
    lines = []
    for key, how in (("grounded", ""), ("grounded_alone", ", claim alone")):
        for lang in dict.fromkeys(r["lang"] for r in rows):
            right = [not r[key] for r in rows if r["lang"] == lang and r["label"] == "right"]
            wrong = [r[key] for r in rows if r["lang"] == lang and r["label"] == "wrong"]
            joint_right = [not r[key] for r in rows if r["lang"] == lang and r["label"] == "right" and r["joint"]]
            joint = f"{sum(joint_right)} of {len(joint_right)}"
            lines.append([lang + how, len(right), interval([float(v) for v in right]), len(wrong), interval([float(v) for v in wrong]), joint])
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--half", choices=("tune", "report"), required=True)
    parser.add_argument("--out", default=".cache/answer-trust", help="where the sets, the libraries and the answer cache live")
    parser.add_argument("--devset", default=".cache/devset", help="the multi-hop dev set (BEIR, split into tune/ and report/)")
    parser.add_argument("--devset-home", default=".cache/eval/devset-home", help="the library of the whole dev corpus (reused; missing records imported)")
    parser.add_argument("--modes", default="fusion,rag")
    parser.add_argument("--sets", default=",".join(SETS), help=f"comma-separated, of {', '.join(SETS)} (claims are always judged)")
    parser.add_argument("--sample", type=int, help="questions per set (German: each asked in German and English); default all")
    parser.add_argument("--multihop-sample", type=int, default=8)
    parser.add_argument("--judge-only", action="store_true", help="never ask the model: judge the cached answers only")
    parser.add_argument("--json", help="write every row here (default OUT/answer-trust-HALF.json)")
    parser.add_argument("--no-question-check", action="store_true", help="judge without asking the model whether the answer's sentences answer the question (the check before it)")
    parser.add_argument("--refuse-when-sure", action=argparse.BooleanOptionalAction, default=None,
                        help="judge with the question check refusing when the model is sure, or not (default: as the app's Settings.refuse_when_sure)")
    parser.add_argument("--no-claim-check", action="store_true", help="judge without the model rereading claims whose words the passages lack (Settings: claim_check)")
    args = parser.parse_args(argv)
    out = Path(args.out)
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    wanted = [s.strip() for s in args.sets.split(",") if s.strip()]

    from desktop_app.core.models.model_files import open_embedder

    embedder = open_embedder()  # the bundled default, as a new library's pipeline passes it to the check
    groups = []
    for set_name in wanted:
        folder = Path(args.devset) / args.half if set_name == "multihop" else out / {MIXED: "german", **dict.fromkeys(OPTIONS, "options"), **dict.fromkeys(APIS, "api")}.get(set_name, set_name) / args.half
        groups.append(items_of(set_name, folder, args.multihop_sample if set_name == "multihop" else args.sample))
    items = interleaved(groups)

    try:
        from desktop_app.core.languages import question_language
    except ImportError:  # the app before answers came in the question's language: every prompt is the fingerprint's
        question_language = None
    from desktop_app.core.modes import mode_named
    from desktop_app.evaluation.answers import settings_fingerprint

    libraries = Libraries(out, Path(args.devset), Path(args.devset_home))
    model_check, judged_by = None, ""
    if not (args.no_question_check and args.no_claim_check):
        from desktop_app.core.answers.model_check import ModelCheck

        libraries.generator = _default_generator()  # the pipelines answer with it too
        refusing = _default_settings().refuse_when_sure if args.refuse_when_sure is None else args.refuse_when_sure
        model_check = ModelCheck(libraries.generator, refusing, not args.no_question_check, not args.no_claim_check)
        judged_by = "".join((" and the question check" * model_check.asks_question, ", refusing when sure" * refusing, " and the claim check" * model_check.rereads_claims))
    judge_name, claims = claim_rows(out / "claims" / args.half, embedder, model_check if model_check is not None and model_check.rereads_claims else None)
    judge_name += judged_by
    cache = AnswerCache(out / "answers")
    settings = _default_settings()  # a new library's settings: what every library here answers with
    rows, missing, pipelines, stale, rerouted = [], 0, {}, Counter(), 0
    for number, item in enumerate(items, start=1):
        for mode in modes:
            # The question check is re-run on every recording, so its switch does not make a new recording.
            fingerprint = settings_fingerprint(mode_named(mode).settings_for(settings), settings.model, rejudged=("question_check", "question_check_refuses", "refuse_when_sure", "claim_check"))
            # A question in another language than English may be asked to be answered in it (languages.language_clause,
            # which depends on the passages found): recorded apart from the app's before that.
            if question_language is not None and question_language(item.question) not in (None, "en"):
                fingerprint += "+own_language"  # no "-": newest_recording reads the mode before the last one
            path = cache.path(item.set, mode, fingerprint, item.qid, item.question)
            recorded = cache.load(path)
            if recorded is None and args.judge_only and (older := cache.newest_recording(path)) is not None:
                recorded = cache.load(older)
                stale[older.parent.name] += recorded is not None
            if recorded is None and not args.judge_only:
                library = libraries.of(item.set)
                if (item.set, mode) not in pipelines:
                    pipelines[item.set, mode] = library.pipeline()
                    pipelines[item.set, mode].warm_up()
                try:
                    recorded = ask_recorded(pipelines[item.set, mode], item.question, mode)
                except NotReviewed:
                    rerouted += 1
                    continue
                cache.store(path, recorded)
                print(f"[{number}/{len(items)}] {item.set:9} {mode:7} {recorded.total_s:5.0f} s", file=sys.stderr, flush=True)
            if recorded is None:
                missing += 1
                continue
            if model_check is not None:
                # As after an answer in the app: the live cache holds another prompt (not this check, judged a moment
                # ago for the other mode), the prompts' fixed starts are kept.
                libraries.generator.forget_context()
            rows.append(row_of(item, recorded, record_names(item.set, out, Path(args.devset)), embedder, model_check))
    libraries.close()

    model = _default_settings().model
    unasked = f", {missing} not asked yet" if missing else ""
    unasked += f", {rerouted} answered by another route (whole document or tables) and not judged" if rerouted else ""
    for folder, n in sorted(stale.items()):
        print(f"--judge-only: {n} answers recorded under other settings ({folder}): the newest recording of each question is judged", file=sys.stderr)
    print(f"\nanswer trust, {args.half} half; model {model}; check: {judge_name}; {len(rows)} answers judged{unasked}")
    print(table(["set", "measure", "N", *modes, f"{modes[0]} - {modes[1]} (paired)" if len(modes) > 1 else "-"], report_lines(rows, modes)))
    if claims:
        print(f"\n(c) claims cited to made-up passages, {args.half} half; check: {judge_name}")
        headers = ["language", "N right", "right citation flagged (<= 0.05)", "N wrong", "wrong citation passed (<= 0.10)", "joined claims flagged"]
        print(table(headers, claim_lines(claims)))
        for lang in dict.fromkeys(r["lang"] for r in claims):  # review.py drops a cited page that adds nothing to the others
            padded = [r for r in claims if r["lang"] == lang and "padding_dropped" in r]
            if padded:
                print(f"    {lang}: a right claim its words ground, citing one more page of its document: that page dropped {sum(r['padding_dropped'] for r in padded)} of {len(padded)}, "
                      f"its right pages kept {sum(r['right_kept'] for r in padded)} of {len(padded)}")
    target = Path(args.json) if args.json else out / f"answer-trust-{args.half}.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps({"half": args.half, "modes": modes, "check": judge_name, "rows": rows, "claims": claims}, indent=1))
    return 0


def _default_generator():
    from desktop_app.core.models.llm import LlamaGenerator
    from desktop_app.core.models.model_files import resolve_llm

    settings = _default_settings()
    return LlamaGenerator.from_settings(resolve_llm(settings.model), settings)


def _default_settings():
    from desktop_app.core.settings import Settings

    return Settings()


if __name__ == "__main__":
    sys.exit(main())
