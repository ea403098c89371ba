"""Words in any script, including those written without spaces between words (Chinese, Japanese, Thai ...).

Chinese and Japanese run their words together, so `\\w+` reads a whole clause as one "word": two sentences saying the
same thing share none, and a sentence counts as one word (too short to be a sentence). Where the app compares or
counts words, a run of these scripts is read as its overlapping pairs of characters instead, the bigrams a CJK search
analyzer indexes (Lucene's CJKBigramFilter); a run of one or two characters stays whole. No dictionary; text in other
scripts is left as it is. Thai, Lao, Khmer and Burmese run their words together too, and write most vowels and tones as
combining marks, which `\\w` does not match (it cut "กรุงเทพ" at each one): their runs are read as pairs of letters with
the marks left out, as the grounding check leaves accents out of Latin words.
"""

from __future__ import annotations

import functools
import re
import unicodedata

# Kana (and their extension), CJK ideographs (Extension A, the main block, compatibility ideographs, the supplementary
# planes' extensions).
_SPACELESS = "\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f"
# Thai, Lao, Burmese and Khmer letters and their combining marks (not their digits and punctuation).
_MARKED = "\u0e01-\u0e4e\u0e81-\u0ece\u1000-\u103f\u1050-\u108f\u109a-\u109f\u1780-\u17d3\u17dc\u17dd"
_SPACELESS += _MARKED
SPACELESS = _SPACELESS  # as a regular expression character class's ranges
# Scripts whose words touch the words around them: those written without spaces, and Korean, which glues its particles
# to the word before ("R-data.pdf에서"). Next to one of these characters a name or a phrase may end.
GLUED = SPACELESS + "\u1100-\u11ff\u3130-\u318f\uac00-\ud7af"
_RUN = re.compile(f"[{_SPACELESS}]+")
# A word with its place in the text, for counting in order (a loop in a reply): a spaceless run is read two characters
# at a time, so ten of its words are about as long as ten words of a spaced script.
WORD = re.compile(f"[{_SPACELESS}]{{1,2}}|(?:(?![{_SPACELESS}])\\w)+")


def pairs(run: str) -> list[str]:
    """"温度计" -> ["温度", "度计"]; a run of one or two characters is one piece."""
    return [run] if len(run) <= 2 else [run[i : i + 2] for i in range(len(run) - 1)]


def _letters(run: str) -> str:
    return "".join(ch for ch in run if not unicodedata.category(ch).startswith("M"))


def spaced(text: str) -> str:
    """The text with each spaceless run written as its pairs (of letters: combining marks left out), between spaces:
    `\\w+` then finds its words. Text in other scripts is returned unchanged."""
    return _RUN.sub(lambda m: f" {' '.join(pairs(_letters(m.group(0))))} ", text)


def is_spaceless(word: str) -> bool:
    """A piece of a spaceless script: short as it is, it is a word (MIN_LETTERS-style length rules do not apply)."""
    return bool(_RUN.search(word))


def word_count(text: str) -> int:
    """Words as a reader counts them: whitespace-separated, a spaceless run counting its pairs."""
    return len(spaced(text).split())


@functools.cache
def _compatibility_letters() -> dict[int, str]:
    """Each letter or digit Unicode also writes another way (NFKC), by that way, where it is letters and digits too: the
    ligatures "ﬁ", "ﬂ", "ﬀ" a PDF's text keeps as one character, full-width Latin and digits ("ＰＸ４０"), Arabic
    presentation forms, mathematical letters. Superscripts and fractions (no letters) stay as they are: "10²" is no 102."""
    table = {}
    for code in (*range(0xA0, 0x10000), *range(0x1D400, 0x1D800)):
        char = chr(code)
        if unicodedata.category(char)[0] == "L" or unicodedata.category(char) == "Nd":
            plain = unicodedata.normalize("NFKC", char)
            if plain != char and plain.isalnum():
                table[code] = plain
    return table


def plain_letters(text: str) -> str:
    """The text with its compatibility letters written plainly ("conﬁguration" is "configuration"), as a person types
    it: what keyword search and the embedder read. A passage keeps its text as extracted, so its offsets on the page
    stay those of the page's words."""
    return text.translate(_compatibility_letters())


def keyword_text(text: str, heading: str | None = None) -> str | None:
    """What the keyword index holds for a passage in place of its text, when that differs: its letters written plainly,
    and `spaced`, so a word inside a spaceless run is a token (FTS5's unicode61 and PostgreSQL's parser read a whole run
    as one). None: the text is indexed as it is.

    `heading`: the heading of the section the passage is in (Word, HTML, EPUB), indexed with it where the passage does
    not begin with it. In a reference every function lists the same options, and only the heading says whose they are
    ("timeout ... Default: 0." under "tessFold(path[, options])"), so a search naming the function and the
    option finds its own item first."""
    heading = (heading or "").strip()
    indexed = f"{heading}\n{text}" if heading and not text.lstrip().startswith(heading) else text
    plain = plain_letters(indexed)
    indexed = spaced(plain) if is_spaceless(plain) else plain
    return indexed if indexed != text else None
