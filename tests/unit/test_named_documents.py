"""A question naming a document by name is searched inside it too, the name left out: a manual's options page never
repeats the tool's name, so "the -y option of quillsort" used to find every page naming quillsort, and other manuals'
-y lines, before the one line that says what quillsort's -y does. Made-up manuals, real SQLite and HTML import."""

from __future__ import annotations

from desktop_app.core.events import AnswerDone

TOOLS = {  # tool -> (what it does, its -y option's line)
    "quillsort": ("sorts the lines of text files", "Drop the header line before sorting."),
    "brindlecopy": ("copies folders between two machines", "Answer yes to every question before copying."),
    "marrowlint": ("checks spelling in plain text files", "Mark every repeated word in yellow."),
    "tessfold": ("folds long lines to a chosen width", "Keep trailing spaces at the end of each folded line."),
    "pellwick": ("counts the words of each file", "Count a hyphenated word as two."),
    "corrandump": ("prints files as hexadecimal", "Print the offsets in octal."),
    "dunmerge": ("merges sorted files into one", "Remove a line repeated in two files."),
    "vashtee": ("splits a file into pieces", "Name the pieces by number, not by letter."),
}


def manual(tool: str, does: str, option_y: str) -> str:
    sections = [
        ("Synopsis", f"{tool} [OPTION]... FILE..."),
        ("Description", f"{tool} {does}. {tool} reads each file in turn and stops at the first error."),
        ("Options", f"<dl><dt>-v, --verbose</dt><dd><p>Print each file name as it is read.</p></dd>"
                    f"<dt>-y, --yonder</dt><dd><p>{option_y}</p></dd></dl>"),
        ("Examples", f"A typical run: {tool} -v notes.txt, and {tool} --help for the full list."),
        ("Exit status", f"{tool} exits with 0 when every file was handled, 1 when one failed."),
    ]
    body = "".join(f"<h2>{h}</h2>{text if text.startswith('<') else f'<p>{text}</p>'}" for h, text in sections)
    return f"<html><head><title>{tool} manual</title></head><body><h1>{tool}: a tool that {does}</h1>{body}</body></html>"


def test_a_question_naming_a_manual_finds_its_option_line_that_never_names_the_tool(empty_library, generator, tmp_path):
    folder = tmp_path / "manuals"
    folder.mkdir()
    for tool, (does, option_y) in TOOLS.items():
        (folder / f"{tool}.html").write_text(manual(tool, does, option_y), encoding="utf-8")
    list(empty_library.import_paths([folder]))
    generator.enqueue("quillsort -y option\nquillsort command line flags", "It drops the header line before sorting [1].")

    [result] = [e.result for e in empty_library.ask("What does the -y option of quillsort do?", "fusion") if isinstance(e, AnswerDone)]

    ranked = [s.passage.text for s in result.sources]
    line = next(n for n, text in enumerate(ranked, 1) if "Drop the header line" in text)
    assert line <= 3  # among the first passages of the panel's fused list (9th of 34 before), and what the model reads
    within = [lst for lst in result.lists if lst.query.endswith("(in quillsort.html)")]
    assert len(within) == 1 and within[0].kind == "keyword"
    assert within[0].weight == empty_library.settings.question_weight  # the question itself, where it points
    assert result.sources[line - 1].ranks.get(within[0].key) == 1
    assert any("Drop the header line" in s.passage.text for s in result.context)


def test_a_question_naming_no_document_or_the_only_one_gets_no_list_of_its_own(empty_library, generator, tmp_path):
    (tmp_path / "quillsort.html").write_text(manual("quillsort", *TOOLS["quillsort"]), encoding="utf-8")
    list(empty_library.import_paths([tmp_path / "quillsort.html"]))
    searcher = empty_library.pipeline().searcher
    assert searcher.named_document_list("What does the -y option of quillsort do?") is None  # it is the whole library
    assert searcher.named_document_list("What does the -y option do?") is None


def test_the_name_is_left_out_as_a_whole_word_and_longer_words_holding_it_stay_whole(empty_library, tmp_path):
    # A tool named "mend" and a question about "amended" lines: the list searched inside mend.html, shown in the panel,
    # searched "a ed" before (the name cut out of the longer word), and missed every line saying "amended".
    for tool, does in (("mend", "repairs broken line endings"), ("quillsort", TOOLS["quillsort"][0])):
        (tmp_path / f"{tool}.html").write_text(manual(tool, does, "Keep amended lines in a separate file."), encoding="utf-8")
    list(empty_library.import_paths([tmp_path]))
    searcher = empty_library.pipeline().searcher

    within = searcher.named_document_list("Where does mend keep amended lines?")

    assert within is not None and within.query == "Where does keep amended lines? (in mend.html)"
    assert within.hits  # "amended" is found inside the file
