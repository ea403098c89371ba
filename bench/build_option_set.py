"""Build the option set: made-up command-line tools' manuals, and questions about their options, already split.

    python -m bench.build_option_set [--out .cache/answer-trust] [--seed 25] [--tools 10]

BENCHMARK DATA GENERATOR. Tool names and the nouns their options act on are random syllables (seeded,
bench/made_up_world.Namer), so no manual or question exists anywhere else; nothing here may be copied into
desktop_app/.

Why: a claim naming an option ("-k") must find that option, as written, on its page, or it is flagged or refused
(words.OPTION). That rule can fire only on questions naming an option, and the near sets hold none. Here it can:
- option-hit: "what does -k of TOOL do?" where the manual describes -k; the answer must name the noun -k acts on
  (each option of a tool acts on its own made-up noun). A refusal here is a false alarm.
- option-miss: the same questions about an option the manual does not have: a letter no option of that tool uses
  (sometimes one a neighbouring tool's manual does use), or the other case of a letter it does use ("-K" when only
  "-k" exists). Refusing is right.

Manuals come in three shapes, as real ones do: HTML with a definition list (DocBook, Texinfo), HTML with a table,
and a PDF laid out like a man page (option line, then its description indented below). Each has a synopsis, a
description, an examples section that names two options in passing, and an exit-status section.

OUT/options: docs/ (the manuals), corpus.jsonl (one record per manual), queries.jsonl ({"_id", "text", "label":
"hit"|"miss", "answers"}), qrels.tsv (the manual), split into tune/ and report/ by ../shared/bench/split_devset.py.
"""

from __future__ import annotations

import argparse
import html
import random
import string
import sys
from dataclasses import dataclass
from pathlib import Path

from .build_made_up_sets import split, write_beir
from .made_up_world import Namer

# What an option does, around the made-up noun it acts on ({noun}) and a number ({n}).
ACTIONS = (
    "Keep the {noun} files after the run instead of deleting them.",
    "Write a {noun} report to standard error every {n} seconds.",
    "Limit the {noun} cache to {n} megabytes.",
    "Skip every {noun} entry whose name starts with a dot.",
    "Read the list of {noun} targets from the named file.",
    "Print the version of the {noun} table format and exit.",
    "Retry a failed {noun} transfer up to {n} times.",
    "Follow symbolic links when scanning {noun} folders.",
    "Compress the {noun} archive with the fastest method.",
    "Lock the {noun} database while the tool runs.",
    "Send each {noun} record to the printer named by the PRINTER variable.",
    "Ask before overwriting an existing {noun} journal.",
)
PURPOSES = (
    "copies {noun} archives between machines",
    "checks {noun} catalogues for broken entries",
    "builds {noun} indexes from plain text",
    "watches {noun} folders and reports changes",
)
# Questions naming an option: ({letter} a short option, {long} a long one), the tool's name in {tool}.
SHORT_QUESTIONS = (
    "What does the -{letter} option of {tool} do?",
    "What does {tool} -{letter} do?",
    "What is the -{letter} flag of {tool} for?",
)
LONG_QUESTION = "What happens when I run {tool} with --{long}?"


@dataclass(frozen=True)
class Option:
    letter: str
    long: str
    noun: str
    text: str


@dataclass(frozen=True)
class Tool:
    name: str
    purpose: str
    options: tuple[Option, ...]
    shape: str  # "dl", "table" or "pdf"


def make_tool(names: Namer, shape: str, n_options: int) -> Tool:
    rng = names.rng
    letters = rng.sample(string.ascii_lowercase, n_options)
    actions = rng.sample(ACTIONS, n_options)
    options = tuple(
        Option(letter, names.latin().lower(), noun := names.latin().lower(), action.format(noun=noun, n=rng.randint(2, 60)))
        for letter, action in zip(letters, actions))
    purpose = rng.choice(PURPOSES).format(noun=names.latin().lower())
    return Tool(names.latin().lower(), purpose, options, shape)


def sections(tool: Tool, rng: random.Random) -> list[tuple[str, str]]:
    """(heading, paragraph) of everything but the options."""
    a, b = rng.sample(tool.options, 2)
    return [
        ("Synopsis", f"{tool.name} [OPTION]... FILE..."),
        ("Description", f"{tool.name} {tool.purpose}. It reads each FILE in turn and stops at the first error unless "
                        "told otherwise. Settings given on the command line override those of the configuration file."),
        ("Examples", f"A typical run combines two options: {tool.name} -{a.letter} -{b.letter} input.dat"),
        ("Exit status", f"{tool.name} exits with 0 when every file was handled, 1 when some file failed, and 2 on a usage error."),
    ]


def html_manual(tool: Tool, rng: random.Random) -> str:
    head, *rest = sections(tool, rng)
    body = [f"<h1>{tool.name}: a tool that {html.escape(tool.purpose)}</h1>", f"<h2>{head[0]}</h2><p>{html.escape(head[1])}</p>"]
    body += [f"<h2>{rest[0][0]}</h2><p>{html.escape(rest[0][1])}</p>", "<h2>Options</h2>"]
    if tool.shape == "dl":
        body.append("<dl>" + "".join(f"<dt>-{o.letter}, --{o.long}</dt><dd><p>{html.escape(o.text)}</p></dd>" for o in tool.options) + "</dl>")
    else:
        rows = "".join(f"<tr><td>-{o.letter}</td><td>--{o.long}</td><td>{html.escape(o.text)}</td></tr>" for o in tool.options)
        body.append(f"<table><tr><th>Short</th><th>Long</th><th>Meaning</th></tr>{rows}</table>")
    body += [f"<h2>{heading}</h2><p>{html.escape(text)}</p>" for heading, text in rest[1:]]
    return f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{tool.name} manual</title></head><body>{''.join(body)}</body></html>"


def write_pdf(path: Path, tool: Tool, rng: random.Random) -> None:
    import pymupdf

    head, *rest = sections(tool, rng)
    lines = [f"{tool.name}: a tool that {tool.purpose}", "", head[0].upper(), f"    {head[1]}", "", rest[0][0].upper(), f"    {rest[0][1]}", "", "OPTIONS"]
    for o in tool.options:
        lines += [f"    -{o.letter}, --{o.long}", f"        {o.text}", ""]
    for heading, text in rest[1:]:
        lines += [heading.upper(), f"    {text}", ""]
    pdf = pymupdf.open()
    page = pdf.new_page()
    box = pymupdf.Rect(56, 56, page.rect.width - 56, page.rect.height - 56)
    if page.insert_textbox(box, "\n".join(lines), fontsize=10, fontname="helv") < 0:
        raise SystemExit(f"{tool.name}: the manual does not fit on one page")
    pdf.set_metadata({"title": f"{tool.name} manual"})
    pdf.save(path)
    pdf.close()


def questions(tools: list[Tool], rng: random.Random) -> list[dict]:
    """Per tool: three options asked about (hits), then three it lacks (misses): a letter no option of it uses (once
    one a neighbouring manual does use), and the other case of one of its letters."""
    used_anywhere = {o.letter for t in tools for o in t.options}
    out = []
    for i, tool in enumerate(tools):
        own = {o.letter for o in tool.options}
        for k, option in enumerate(rng.sample(tool.options, 3)):
            if k == 2:
                text = LONG_QUESTION.format(tool=tool.name, long=option.long)
            else:
                text = rng.choice(SHORT_QUESTIONS).format(tool=tool.name, letter=option.letter)
            out.append({"_id": f"{tool.name}-hit-{option.letter}", "text": text, "label": "hit", "answers": [option.noun], "manual": tool.name})
        neighbour = sorted((used_anywhere - own) & {o.letter for o in tools[(i + 1) % len(tools)].options})
        unused = sorted(set(string.ascii_lowercase) - own - used_anywhere) or sorted(set(string.ascii_lowercase) - own)
        absent = [rng.choice(neighbour or unused), rng.choice(unused), rng.choice(sorted(own)).upper()]
        for letter in absent:
            text = rng.choice(SHORT_QUESTIONS).format(tool=tool.name, letter=letter)
            out.append({"_id": f"{tool.name}-miss-{letter}{'-upper' if letter.isupper() else ''}", "text": text, "label": "miss", "answers": [], "manual": tool.name})
    return out


def file_name(tool: Tool) -> str:
    return f"{tool.name}.{'pdf' if tool.shape == 'pdf' else 'html'}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=".cache/answer-trust")
    parser.add_argument("--seed", type=int, default=25)
    parser.add_argument("--tools", type=int, default=10)
    parser.add_argument("--options", type=int, default=6, help="options per tool")
    args = parser.parse_args(argv)
    rng = random.Random(f"options-{args.seed}")
    names = Namer(rng)
    tools = [make_tool(names, ("dl", "table", "pdf")[i % 3], args.options) for i in range(args.tools)]
    folder = Path(args.out) / "options"
    docs = folder / "docs"
    docs.mkdir(parents=True, exist_ok=True)
    corpus = []
    for tool in tools:
        path = docs / file_name(tool)
        if tool.shape == "pdf":
            write_pdf(path, tool, rng)
        else:
            path.write_text(html_manual(tool, rng), encoding="utf-8")
        corpus.append({"_id": tool.name, "title": f"{tool.name} manual", "text": " ".join(o.text for o in tool.options)})
    asked = questions(tools, rng)
    write_beir(folder, corpus, asked, [(q["_id"], q["manual"]) for q in asked])
    hits = sum(q["label"] == "hit" for q in asked)
    print(f"options: {hits} near hits and {len(asked) - hits} near misses over {len(tools)} made-up manuals in {docs}")
    split(folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
