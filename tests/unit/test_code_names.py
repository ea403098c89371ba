"""A question naming a term written as code ("tessFold", "io.readBlock", "PX40"): its own keyword list weighs as the
question does. In an API reference every function lists the same options, the embedder reads "tessFold" as pieces of
other words, and the model's queries often leave the name out, so only the question's keyword list (which reads the
section's heading) tells the named function's item from its siblings'. Made-up reference, real SQLite and HTML import."""

from __future__ import annotations

import re
from collections.abc import Callable

from desktop_app.core.events import AnswerDone
from desktop_app.core.words import code_names

FUNCTIONS = {  # function -> (what it does, its timeout's default)
    "quillSort": ("sorts the lines of a text file in place", "250"),
    "brindleCopy": ("copies a folder to another machine", "4000"),
    "marrowLint": ("checks the spelling of a plain text file", "90"),
    "tessFold": ("folds long lines to a chosen width", "1200"),
    "pellWick": ("counts the words of each file it is given", "30"),
    "corranDump": ("prints a file as hexadecimal", "600"),
    "dunMerge": ("merges sorted files into one", "75"),
    "vashTee": ("splits a file into numbered pieces", "8000"),
    "orrinPack": ("packs a folder into one archive", "150"),
    "feldSync": ("mirrors a folder onto a second disk", "2500"),
    "kestrelGrep": ("finds the lines that match a pattern", "45"),
    "lumenTail": ("follows the end of a growing log file", "300"),
}
INTRO = (
    "It reads its input in blocks and reports progress through the returned handle. The call returns at once; the work "
    "happens on a worker thread, and errors arrive through the handle's error event rather than as exceptions. "
)


def reference(heading: Callable[[str], str] = str, more: str = "", opening: str = "") -> str:
    """Each function's section under the heading `heading` gives its name (opening with `opening`), then the sections `more`."""
    sections = []
    for name, (does, default) in FUNCTIONS.items():
        items = (
            f"<li>cwd &lt;string&gt; The folder the work starts in. Default: the current folder.</li>"
            f"<li>timeout &lt;number&gt; The most milliseconds the work may take. Default: {default}.</li>"
            f"<li>encoding &lt;string&gt; How text is read. Default: utf8.</li>"
        )
        sections.append(f"<h2>{heading(name)}(path[, options])</h2>{opening}<p>{does.capitalize()}. {INTRO * 4}</p><ul>{items}</ul>")
    return f"<html><head><title>Toolkit reference</title></head><body><h1>Toolkit API</h1>{''.join(sections)}{more}</body></html>"


def test_a_question_naming_a_function_reads_that_functions_own_item(empty_library, generator, tmp_path):
    (tmp_path / "toolkit.html").write_text(reference(), encoding="utf-8")
    list(empty_library.import_paths([tmp_path / "toolkit.html"]))
    generator.enqueue("default timeout option\ntimeout milliseconds setting", "The default is 1200 milliseconds [1].")

    [result] = [e.result for e in empty_library.ask("What is the default timeout of tessFold?", "fusion") if isinstance(e, AnswerDone)]

    own = [lst for lst in result.lists if lst.kind == "keyword" and lst.query == "What is the default timeout of tessFold?"]
    assert len(own) == 1 and own[0].weight == empty_library.settings.question_weight
    first = next(n for n, s in enumerate(result.sources, 1) if "Default: 1200" in s.passage.text)
    # The first passage, the question's own (3rd before, under a sibling's that the vector search ranked closer; 7th
    # before the keyword list weighed as the question).
    assert first == 1


def test_a_question_in_plain_words_keeps_the_usual_keyword_weight(empty_library, generator, tmp_path):
    (tmp_path / "toolkit.html").write_text(reference(), encoding="utf-8")
    list(empty_library.import_paths([tmp_path / "toolkit.html"]))
    searcher = empty_library.pipeline().searcher

    assert searcher.question_keyword_list("Which function folds long lines?").weight == empty_library.settings.keyword_weight
    # A code the library does not hold is no reason to trust the keyword list more.
    assert searcher.question_keyword_list("What is the default timeout of fooBar?").weight == empty_library.settings.keyword_weight


def test_a_function_asked_by_its_short_name_reads_that_functions_own_item(empty_library, generator, tmp_path):
    # Headings name each function under its module, "toolkit.tess(path[, options])"; the person asks for it by the
    # short name alone, a plain word to the question.
    (tmp_path / "toolkit.html").write_text(reference(lambda name: f"toolkit.{short(name)}"), encoding="utf-8")
    list(empty_library.import_paths([tmp_path / "toolkit.html"]))
    generator.enqueue("default timeout option\ntimeout milliseconds setting", "The default is 1200 milliseconds [1].")

    [result] = [e.result for e in empty_library.ask("What is the default timeout of tess?", "fusion") if isinstance(e, AnswerDone)]

    first = next(n for n, s in enumerate(result.sources, 1) if "Default: 1200" in s.passage.text)
    assert first == 1  # 7th before: a sibling's "timeout" item, which the vector search ranked closer, came first
    searcher = empty_library.pipeline().searcher
    # A word of the heading that names no function keeps the usual weight.
    assert searcher.question_keyword_list("What is the default timeout of path?").weight == empty_library.settings.keyword_weight


def test_a_question_naming_a_function_reads_the_item_under_its_heading_before_a_passage_that_mentions_it(empty_library, generator, tmp_path):
    # A guide section talks about tessFold's timeout at length; the reference's own item, under tessFold's heading, is
    # what says its default.
    guide = ("<h2>Choosing timeouts</h2><p>The default timeout of tessFold suits short files. A tessFold timeout that is too "
             "short stops tessFold before the default width is reached, so raise the tessFold timeout for long files.</p>")
    (tmp_path / "toolkit.html").write_text(reference(more=guide), encoding="utf-8")
    list(empty_library.import_paths([tmp_path / "toolkit.html"]))
    generator.enqueue("default timeout option\ntimeout milliseconds setting", "The default is 1200 milliseconds [1].")

    [result] = [e.result for e in empty_library.ask("What is the default timeout of tessFold?", "fusion") if isinstance(e, AnswerDone)]

    assert "Default: 1200" in result.sources[0].passage.text  # the guide's passage came first


def short(name: str) -> str:
    """The function's name as a plain word: "tessFold" -> "tess"."""
    return re.match("[a-z]+", name).group(0)


def test_terms_written_as_code_in_any_script():
    assert code_names("What does proc_util.runSync use, and io.readBlock?") == ["proc_util.runSync", "io.readBlock"]
    assert code_names("Is the RS485 port or sha256_digest faster than iPhone apps?") == ["RS485", "sha256_digest", "iPhone"]
    assert code_names("Что делает функция readФайл и модуль ПО2?") == ["readФайл", "ПО2"]
    # Plain words, numbers with a suffix, abbreviations, units and names with capitals are not code.
    assert code_names("In the 1990s, e.g. in the U.S., McDonald sold 4th-quarter meals of 20 m² each.") == []


def test_a_question_naming_a_function_reads_the_item_holding_the_option_before_its_sections_other_passages(empty_library, generator, tmp_path):
    # Each function's section opens with a history table that names the option again; the heading above the table is a
    # passage of its own, two lines long. The keyword list ranks those short passages first; the item that says the
    # option's default holds more of the question's words.
    history = "<p>History</p><table><tr><th>Version</th><th>Changes</th></tr><tr><td>v2.0</td><td>The timeout option was added.</td></tr></table>"
    (tmp_path / "toolkit.html").write_text(reference(opening=history), encoding="utf-8")
    list(empty_library.import_paths([tmp_path / "toolkit.html"]))
    generator.enqueue("default timeout option\ntimeout milliseconds setting", "The default is 1200 milliseconds [1].")

    [result] = [e.result for e in empty_library.ask("What is the default timeout of tessFold?", "fusion") if isinstance(e, AnswerDone)]

    # First before: the two-line passage "tessFold(path[, options])" / "History".
    assert "Default: 1200" in result.sources[0].passage.text, result.sources[0].passage.text
