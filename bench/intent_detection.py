"""Whole-document questions: told by the phrase rule (core/overview/intent.py) or by the query-writing model call?

    python -m bench.intent_detection build --out DIR           the labelled questions, split by template into halves
    python -m bench.intent_detection run --set DIR/tune [--model] [--devset .cache/devset/tune] [--sample 30]
    python -m bench.intent_detection routed --home H --set .cache/devset/tune   how many eval questions are routed

Issue 31 asks to detect "what is X about / summarize chapter N of X / compare A and B / which of my files covers
Z" in the same model call as the search queries, or by a small classifier, whichever measures better. This bench
asks both on the same labelled questions and prints their accuracy side by side:

- the rule: `classify(question, documents)`, no model call;
- the model: the app's own query prompt (the default query style) with one instruction added, to write
  `KIND: about|part|compare|which|none` on a line before the queries, and the library's file names, so the
  model knows what a document name is. Its time is the whole call's (the app pays it once per question anyway);
  the rule's is printed too.

The questions are written by a script from templates (below) filled with the library's file names and made-up
topics, plus ordinary questions of the dev set's matching half (labelled "none": no dev question is about a whole
document). The templates, not the questions, are split into tune and report halves by
../shared/bench/split_devset.py, so the report half asks in phrasings neither method was looked at with.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from bench.common import median, table
from desktop_app.core.overview.intent import ABOUT, COMPARE, PART, WHICH, classify
from desktop_app.core.types import Document

NONE = "none"
KINDS = (ABOUT, PART, COMPARE, WHICH, NONE)
SPLIT_SCRIPT = Path(__file__).resolve().parents[2] / "shared" / "bench" / "split_devset.py"

# The library the questions are asked of: the R manuals' names and titles, and two made-up office files.
LIBRARY = (
    ("R-intro.pdf", "An Introduction to R"),
    ("R-data.pdf", "R Data Import/Export"),
    ("R-exts.pdf", "Writing R Extensions"),
    ("R-admin.pdf", "R Installation and Administration"),
    ("Kestrel-pump-manual.docx", "Kestrel pump manual"),
    ("harbour-tariffs-2026.html", "Harbour tariffs 2026"),
)
TOPICS = ("regression models", "installing packages", "reading spreadsheets", "memory limits", "pump maintenance", "mooring fees", "graphics devices", "character encodings")
PARTS = ("3", "6", "11", "B", "2")

# {d}, {e}: file names (or titles); {p}: a chapter; {t}: a topic. One kind per template.
TEMPLATES: tuple[tuple[str, str], ...] = (
    (ABOUT, "What is {d} about?"),
    (ABOUT, "Summarize {d}."),
    (ABOUT, "Give me an overview of {d}"),
    (ABOUT, "What's the gist of {d}?"),
    (ABOUT, "Can you sum up {d} for me?"),
    (ABOUT, "Briefly, what does {d} cover?"),
    (ABOUT, "What are the main points of {d}?"),
    (ABOUT, "Tell me what {d} is about in a few sentences."),
    (ABOUT, "I haven't read {d}. What is it about?"),
    (ABOUT, "Describe the contents of {d}."),
    (PART, "Summarize chapter {p} of {d}."),
    (PART, "What is chapter {p} of {d} about?"),
    (PART, "Give me a summary of section {p} in {d}"),
    (PART, "Sum up part {p} of {d}."),
    (PART, "What does chapter {p} of {d} cover?"),
    (PART, "Overview of appendix {p} of {d}, please"),
    (PART, "In brief, what's in chapter {p} of {d}?"),
    (PART, "What are the main ideas of chapter {p} in {d}?"),
    (COMPARE, "Compare {d} and {e}."),
    (COMPARE, "How does {d} differ from {e}?"),
    (COMPARE, "What is the difference between {d} and {e}?"),
    (COMPARE, "{d} versus {e}: which is more detailed?"),
    (COMPARE, "Contrast {d} with {e}."),
    (COMPARE, "What do {d} and {e} have in common, and where do they differ?"),
    (COMPARE, "Is {d} similar to {e}?"),
    (COMPARE, "Compare the scope of {d} and {e}."),
    (WHICH, "Which of my files is about {t}?"),
    (WHICH, "Which document covers {t}?"),
    (WHICH, "What file talks about {t}?"),
    (WHICH, "Where in my documents is {t} discussed?"),
    (WHICH, "Do I have a document about {t}?"),
    (WHICH, "Which of my PDFs deals with {t}?"),
    (WHICH, "In which file can I read about {t}?"),
    (WHICH, "Which manual explains {t}?"),
    (NONE, "What does {d} say about {t}?"),
    (NONE, "How do I handle {t} according to {d}?"),
    (NONE, "On which page of {d} is {t} explained?"),
    (NONE, "Does {d} mention {t}?"),
    (NONE, "What is the default setting for {t} in {d}?"),
    (NONE, "Why does {d} warn about {t}?"),
    (NONE, "What does {d} recommend for {t}?"),
    (NONE, "List the steps for {t} given in {d}."),
)


def documents() -> list[Document]:
    return [Document(i, f"/docs/{name}", title, 100, 400, "ready") for i, (name, title) in enumerate(LIBRARY, start=1)]


def cmd_build(args) -> None:
    """Templates -> split_devset.py (by template) -> each half's templates filled in."""
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "queries.jsonl").write_text("".join(json.dumps({"_id": f"template-{i}", "text": text, "kind": kind}) + "\n" for i, (kind, text) in enumerate(TEMPLATES)))
    (out / "qrels.tsv").write_text("query-id\tcorpus-id\tscore\n" + "".join(f"template-{i}\t{kind}\t1\n" for i, (kind, _) in enumerate(TEMPLATES)))
    subprocess.run([sys.executable, str(SPLIT_SCRIPT), str(out)], check=True)
    names = [name for name, _ in LIBRARY]
    for half in ("tune", "report"):
        templates = [json.loads(line) for line in (out / half / "queries.jsonl").read_text().splitlines() if line.strip()]
        questions = []
        for t_index, template in enumerate(templates):
            for fill in range(3):  # three fillings per template: other files, chapters and topics
                k = t_index + fill
                d, e = names[k % len(names)], names[(k + 1 + fill) % len(names)]
                if fill == 2:
                    d = LIBRARY[k % len(LIBRARY)][1]  # by its title, as people also name documents
                text = template["text"].format(d=d, e=e, p=PARTS[k % len(PARTS)], t=TOPICS[k % len(TOPICS)])
                questions.append({"_id": f"{template['_id']}-{fill}", "text": text, "kind": template["kind"]})
        (out / half / "questions.jsonl").write_text("".join(json.dumps(q) + "\n" for q in questions))
        print(f"{half}: {len(templates)} templates, {len(questions)} questions ({dict(Counter(q['kind'] for q in questions))})")


MODEL_INSTRUCTION = (
    "Before the names, write one line `KIND: x`, where x is: about (the question asks what one of the user's files "
    "is about, or for a summary of it), part (a summary of one chapter, section, part or appendix of a file), "
    "compare (it compares two files), which (it asks which of the user's files covers a topic) or none (any other "
    "question, including a question about a fact inside a file). The user's files: {files}.\n\n"
)


def model_kind(generator, question: str, settings) -> tuple[str, float]:
    from desktop_app.core.retrieval.query_styles import DEFAULT_QUERY_STYLE, query_style

    messages = query_style(DEFAULT_QUERY_STYLE).messages(question, settings.n_queries)
    files = ", ".join(name for name, _ in LIBRARY)
    messages[0] = {"role": "system", "content": MODEL_INSTRUCTION.format(files=files) + messages[0]["content"]}
    # The worked examples show the KIND line too (without it the model copies their form and never writes it),
    # and one more shows a whole-document question (a made-up file, none of the bench's).
    for message in messages[2:-1:2]:
        message["content"] = "KIND: none\n" + message["content"]
    messages[-1:-1] = [
        {"role": "user", "content": "Question: Give me the short version of Brindle-cooker-guide.pdf"},
        {"role": "assistant", "content": "KIND: about\nBrindle cooker guide: contents"},
    ]
    started = time.perf_counter()
    raw = "".join(generator.stream(messages, max_tokens=settings.query_tokens_each * settings.n_queries + 16, temperature=0.0))
    seconds = time.perf_counter() - started
    found = re.search(r"KIND:\s*`?(\w+)", raw, re.IGNORECASE)
    kind = found.group(1).lower() if found else NONE
    return (kind if kind in KINDS else NONE), seconds


def cmd_run(args) -> None:
    folder = Path(args.set)
    questions = [json.loads(line) for line in (folder / "questions.jsonl").read_text().splitlines() if line.strip()]
    if args.devset:
        dev = [json.loads(line) for line in (Path(args.devset) / "queries.jsonl").read_text().splitlines() if line.strip()]
        questions += [{"_id": f"dev-{q['_id']}", "text": q["text"], "kind": NONE} for q in dev[: args.sample]]
    docs = documents()
    generator = settings = None
    if args.model:
        from desktop_app.core.models.catalog import load_catalog
        from desktop_app.core.models.llm import LlamaGenerator
        from desktop_app.core.models.model_files import resolve_llm
        from desktop_app.core.settings import Settings

        settings = Settings()
        generator = LlamaGenerator(resolve_llm(load_catalog().default_llm), n_ctx=settings.n_ctx)
        generator.load()
    rows, rule_s, model_s = [], [], []
    for number, q in enumerate(questions, start=1):
        started = time.perf_counter()
        found = classify(q["text"], docs)
        rule_s.append(time.perf_counter() - started)
        row = {"kind": q["kind"], "rule": found.kind if found else NONE}
        if generator is not None:
            row["model"], seconds = model_kind(generator, q["text"], settings)
            model_s.append(seconds)
            print(f"[{number}/{len(questions)}] {seconds:4.1f} s  {row['kind']} rule {row['rule']} model {row['model']}", file=sys.stderr, flush=True)
        rows.append(row)
    methods = ["rule"] + (["model"] if generator is not None else [])
    lines = []
    for kind in KINDS:
        mine = [r for r in rows if r["kind"] == kind]
        lines.append([kind, len(mine), *(f"{sum(r[m] == kind for r in mine) / len(mine):.2f}" if mine else "-" for m in methods)])
    lines.append(["all", len(rows), *(f"{sum(r[m] == r['kind'] for r in rows) / len(rows):.3f}" for m in methods)])
    ordinary = [r for r in rows if r["kind"] == NONE]
    lines.append(["ordinary routed (wrongly)", len(ordinary), *(f"{sum(r[m] != NONE for r in ordinary)}" for m in methods)])
    print(f"\n{folder.name} half: share of each kind told right")
    print(table(["kind", "N", *methods], lines))
    print(f"rule: median {median(rule_s) * 1000:.2f} ms a question" + (f"; model call (queries and kind): median {median(model_s):.1f} s" if model_s else ""))
    if args.show_misses:  # tune half only
        for r, q in zip(rows, questions):
            for m in methods:
                if r[m] != r["kind"]:
                    print(f"  {m}: {r['kind']} -> {r[m]}: {q['text']}")


def cmd_routed(args) -> None:
    """How many of an answer eval's questions the rule sends to a document overview, over that eval's own library
    (the dev and FAQ answer evals ask ordinary questions: any routed one would be answered differently)."""
    from desktop_app.core.library import Library

    library = Library(home=Path(args.home))
    docs = library.documents()
    for folder in args.set:
        questions = [json.loads(line)["text"] for line in (Path(folder) / "queries.jsonl").read_text().splitlines() if line.strip()]
        kinds = Counter(found.kind for q in questions if (found := classify(q, docs)) is not None)
        print(f"{folder}: {sum(kinds.values())} of {len(questions)} questions routed to an overview {dict(kinds) or ''} ({len(docs):,} documents)")
    library.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    build = sub.add_parser("build")
    build.add_argument("--out", required=True)
    run = sub.add_parser("run")
    run.add_argument("--set", required=True, help="a half built by `build` (tune or report)")
    run.add_argument("--model", action="store_true", help="also ask the default LLM (slow: one query-writing call a question)")
    run.add_argument("--devset", help="add this many ordinary questions (--sample) of a dev-set half, labelled none")
    run.add_argument("--sample", type=int, default=30)
    run.add_argument("--show-misses", action="store_true", help="tune half only")
    routed = sub.add_parser("routed")
    routed.add_argument("--home", required=True, help="the eval's library (data folder)")
    routed.add_argument("--set", action="append", required=True, help="a BEIR folder whose queries.jsonl is asked (repeatable)")
    args = parser.parse_args()
    {"build": cmd_build, "run": cmd_run, "routed": cmd_routed}[args.command](args)


if __name__ == "__main__":
    main()
