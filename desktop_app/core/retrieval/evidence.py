"""Evidence selection: the sentences of the fused passages that the answer prompt and the on-screen preview use.

One place decides what the model reads and what the user sees before the answer (issues 13 and 14):
1. the top fused passages are split into sentences (ingest/chunking.py's splitter, so offsets are the page's);
2. a lexical prefilter keeps the sentences sharing words with the question or a generated query (embedding
   every sentence of ten passages would cost more than the stage's budget on a 2-core laptop);
3. the kept sentences are embedded in one batch with the generated queries and scored by cosine against the
   question and each query;
4. coverage first: the best sentence holding each command-line option the question names ("-k", "--keep"); then, when the
   query step named several things (name-fact lines "Tarrow Works: founder"), each name that some candidate
   passage mentions gets its best sentence in the prompt; a name no passage mentions is
   `missing`, and the answer gets its "not found in your documents" line from code (answers/streaming.py
   `missing_lines`);
5. the rest of the token budget is filled with the best remaining sentences;
6. the chosen sentences are regrouped by passage, in page order, as shortened passages: the answer prompt
   numbers and cites them like whole passages, and their offsets span the chosen sentences so the page
   highlight still lands on them.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..ingest.chunking import reading_spans
from ..models.embedder import Embedder
from ..name_facts import extends, most, names_of
from ..stopwords import FUNCTION_WORDS
from ..types import Citation, Passage, Quote, Source
from ..word_pieces import is_spaceless, spaced, word_count
from ..words import DASHES, MARK, OPTION, Vocabulary, content, is_number, telling

# Tokens per character of English prose for Qwen's tokenizer, rounded up (about 4 characters a token);
# an estimate is enough for a budget and keeps this stage free of the model.
CHARS_PER_TOKEN = 4
PASSAGE_MARK_TOKENS = 4  # "[3]", its line break and the blank line before it: what a passage costs besides its text
MIN_WORDS = 4  # shorter pieces are headings, captions, page numbers: they match a name query, answer nothing
SENTENCE_CHARS = 400  # a longer "sentence" (a table row run, a list without stops) is cut: it is evidence, not a page
# A list question's room per named thing: its best sentence (about 40-60 tokens in an encyclopedia or a manual), its
# passage's mark and its file's line, about 80 tokens of the default 280. With four or more names the shared budget gave
# the first names' long sentences all the room and left the others unread (multi-hop tune half: 0.46 of the needed
# articles read, 0.51 with this), so a question naming more things than this gets the budget scaled up to their number.
NAMES_PER_BUDGET = 3.5
LEXICAL_POOL = 48  # sentences scored when none is embedded (scoring by words costs next to nothing)
# The quotes on screen are ordered by the embedder's cosine plus this weight times the sentence's shared-word score
# with the question or a query (lexical_vectors: rarity-weighted, any script). The bundled embedder knows English best:
# over a French manual it put "En mode Turbo ..." above the sentence saying the pressure washer must never be used, for
# a question naming the pressure washer. What the model reads is chosen by cosine as before. Tune halves of
# bench.first_quote (made-up German, Chinese and English documents asked in theirs and in another language, near hits):
# the first quote held the answer for 70 of 113 questions by cosine alone, 81 at 0.5, 79 at 1.0 (which lost two asked
# across languages, where no word is shared).
QUOTE_WORDS = 0.5
# The same measure picks the question's own passage, which fusion puts first for a question about one thing, at half the
# weight: whole passages share more words by chance than sentences. Tune halves: the made-up Chinese documents' first
# fused passage held the answer for 12 of 15 questions by cosine alone, 13 at 0.1, 14 at 0.25 and 0.5; the FAQ's single-hop
# nDCG@10 was the cosine's (0.777) at 0.1 and 0.25 and fell to 0.750 at 0.5.
OWN_PASSAGE_WORDS = 0.25

_WORD = re.compile(r"[^\W_][\w'-]*")  # a word in any script ("Москва", "Malmö")


@dataclass(frozen=True)
class Evidence:
    context: tuple[Source, ...]  # what the model reads: passages cut down to their chosen sentences, numbered [1]..[n]
    quotes: tuple[Quote, ...]  # the preview, best first
    names: tuple[str, ...]  # the named things (from name-fact queries) that have evidence in the context
    missing: tuple[str, ...]  # the named things no candidate passage mentions


@dataclass(frozen=True)
class _Sentence:
    source: Source
    start: int  # offsets into the passage's text
    end: int
    text: str  # whitespace collapsed

    @property
    def tokens(self) -> int:
        return len(self.text) // CHARS_PER_TOKEN + 1

    @property
    def scored(self) -> str:
        """The sentence as it is scored: under its document's title and heading, so "It opens at 9 a.m. on weekdays"
        is about its page's subject, which the sentence itself names only by "it" (as a reader takes it)."""
        return headed(self.source.passage, self.text)


def headed(passage: Passage, text: str | None = None) -> str:
    """`text` (the passage's own when None) under its document's title and its section's heading, as a reader takes it."""
    text = passage.text if text is None else text
    return f"{' / '.join(filter(None, (passage.title, passage.section)))}: {text}" if passage.title or passage.section else text


def file_line_tokens(file: str) -> int:
    """"From R-intro.pdf:" and its blank line: once per file, however many of its passages the prompt holds."""
    return len(Path(file).name) // CHARS_PER_TOKEN + 3


def words(text: str) -> set[str]:
    options = {m.group(0) for m in OPTION.finditer(text.translate(DASHES))}  # "-k" (not "-K"): the line about it (words.OPTION)
    return options | {w for w in (m.group(0).casefold() for m in _WORD.finditer(spaced(text))) if (len(w) > 2 or is_spaceless(w)) and w not in FUNCTION_WORDS}


# A long option ("--keep"), as a manual's option line writes it: the line a question naming it asks about, as for "-k".
_LONG_OPTION = re.compile(r"(?<![\w-])--[^\W\d_][\w-]*")


def options_named(text: str) -> set[str]:
    """The command-line options a text names: letters ("-k", case kept) and long ones ("--keep")."""
    text = text.translate(DASHES)
    return {m.group(0) for m in OPTION.finditer(text)} | set(_LONG_OPTION.findall(text))


def mentions(name: str, source: Source, asked: set[str] | frozenset[str] = frozenset()) -> bool:
    """The passage (or its file's title) names it. A name the question states (`asked`: its words): any distinctive word of
    it, so "Edda Tarrow" is found in a passage saying "Tarrow" (lenient: a false "not found" line is worse than a weak
    sentence). A name the model brought: most of its own words (those the question lacks), with one of its others if it
    has any. So "Tarrow Works Ltd" is found where "Tarrow Works" is; "SAS Cloud Edition", asked about SAS, is found
    neither in a page about SAS alone nor in references saying "Cloud ... Edition". A thing the model guessed gets a
    line of a list answer only where a passage names it (retrieval/on_question.py reads names the same way)."""
    wanted = words(name)
    held = wanted & (words(source.passage.text) | words(source.passage.title))
    own, anchors = wanted - asked, wanted & asked
    return bool(held) if not own else len(own & held) >= most(len(own)) and (not anchors or bool(anchors & held))


def split_sentences(source: Source) -> list[_Sentence]:
    passage = source.passage
    if passage.kind == "table":  # a table is read whole: its rows mean nothing apart
        return [_Sentence(source, 0, len(passage.text), passage.text)]
    out = []
    for s, e, labelled in reading_spans(passage.text):
        text = " ".join(passage.text[s:e].split())
        if len(text) > SENTENCE_CHARS:
            cut = text.rfind(" ", 0, SENTENCE_CHARS)
            text = text[: cut if cut > 0 else SENTENCE_CHARS] + " ..."
        if word_count(text) >= MIN_WORDS or labelled:  # "Weight: 7.4 kg" says something, however short
            out.append(_Sentence(source, s, e, text))
    return out


def _distinct(sentences: list[_Sentence]) -> list[_Sentence]:
    """Each sentence once: neighbouring passages overlap, so the same sentence is often in two of them, and the
    model would read it twice in the budget of one. The copy in the better-ranked passage is kept."""
    seen: set[str] = set()
    out = []
    for sentence in sentences:
        key = sentence.text.lower()
        if key not in seen:
            seen.add(key)
            out.append(sentence)
    return out


def _prefilter(sentences: list[_Sentence], texts: Sequence[str], names: Sequence[str], cap: int) -> list[_Sentence]:
    """At most `cap` sentences, those sharing the rarest words with the question or a query (a word in every
    candidate sentence tells none apart); each name's best sentences first, so every name keeps some; ties keep
    fused order."""
    wanted = set().union(*(words(t) for t in texts)) if texts else set()
    vocab = [words(s.scored) for s in sentences]
    df: dict[str, int] = {}
    for have in vocab:
        for w in have & wanted:
            df[w] = df.get(w, 0) + 1
    weight = {w: math.log(1 + len(sentences) / n) for w, n in df.items()}
    score = [sum(weight[w] for w in have & wanted) for have in vocab]
    order = sorted(range(len(sentences)), key=lambda i: (-score[i], i))
    kept: list[int] = []
    for name in names:  # coverage survives the cap: each name's two best sentences among those naming it
        named = words(name)
        kept += [i for i in order if named & vocab[i] and i not in kept][:2]
    kept += [i for i in order if i not in kept]
    return [sentences[i] for i in kept[:cap]]


def lexical_vectors(texts: Sequence[str]) -> np.ndarray:
    """Bags of words weighted by rarity among `texts`, unit length: their cosine is a shared-word score that
    costs nothing, for `max_sentences=0` (no sentence embedding at all)."""
    bags = [words(t) for t in texts]
    vocab = {w: i for i, w in enumerate(sorted(set().union(*bags)))} if bags else {}
    df: dict[str, int] = {}
    for bag in bags:
        for w in bag:
            df[w] = df.get(w, 0) + 1
    out = np.zeros((len(texts), max(1, len(vocab))), dtype=np.float32)
    for row, bag in enumerate(bags):
        for w in bag:
            out[row, vocab[w]] = math.log(1 + len(texts) / df[w])
        norm = float(np.linalg.norm(out[row]))
        if norm:
            out[row] /= norm
    return out


def select_evidence(
    question: str,
    question_vector: np.ndarray,
    queries: Sequence[str],
    sources: Sequence[Source],
    embedder: Embedder,
    budget_tokens: int,
    candidates: int = 10,
    max_sentences: int = 16,
    preview: int = 3,
) -> Evidence:
    """The evidence for `question` among the first `candidates` fused `sources`, within `budget_tokens` (scaled up for a
    list question naming more things than NAMES_PER_BUDGET).

    `max_sentences` caps what is embedded, the stage's whole cost: MiniLM took 8.8 s for 48 sentences and 4.0 s
    for 16 on 2 cores at load average 14 (0.44 s for one text), so 16 is near a second there and a fraction of it
    on a quiet laptop; the lexical prefilter picks them. 0 embeds nothing: sentences are scored by shared words
    (lexical_vectors) among the best 48 of the prefilter."""
    pool = list(sources[:candidates])
    names = names_of(queries)
    asked = words(question)
    found_names = [n for n in names if any(mentions(n, s, asked) for s in pool)]
    budget_tokens = round(budget_tokens * max(1.0, len(found_names) / NAMES_PER_BUDGET))  # room for each named thing's sentence
    # Only a name the question states gets its "not found" line: one the model brought itself is its guess, not the person's.
    missing = tuple(n for n in names if n not in found_names and words(n) <= asked)
    sentences = _distinct([s for source in pool for s in split_sentences(source)])
    sentences = _prefilter(sentences, [question, *queries], found_names, max_sentences if max_sentences > 0 else LEXICAL_POOL)
    if not sentences:
        return Evidence((), (), tuple(found_names), missing)
    texts = [s.scored for s in sentences] + list(queries)
    if max_sentences > 0:
        vectors = embedder.embed(texts)
    else:
        vectors = lexical_vectors([*texts, question])
        vectors, question_vector = vectors[:-1], vectors[-1]
    sentence_vectors, query_vectors = vectors[: len(sentences)], vectors[len(sentences):]
    to_question = (sentence_vectors @ np.atleast_2d(np.asarray(question_vector, dtype=np.float32)).T).max(axis=1)  # each language it was asked in
    to_queries = sentence_vectors @ query_vectors.T if len(queries) else np.zeros((len(sentences), 0), dtype=np.float32)
    overall = np.maximum(to_question, to_queries.max(axis=1)) if len(queries) else to_question

    chosen: dict[int, str] = {}  # sentence index -> the name it covers ("" for the question)
    spent = 0

    def cost(i: int) -> int:
        """The sentence's tokens, plus its passage's mark and its file's line if the prompt does not hold them yet."""
        source = sentences[i].source
        new_passage = not any(sentences[j].source is source for j in chosen)
        new_file = not any(sentences[j].source.passage.file == source.passage.file for j in chosen)
        return sentences[i].tokens + (PASSAGE_MARK_TOKENS if new_passage else 0) + (file_line_tokens(source.passage.file) if new_file else 0)

    # The person's own first: the line of an option the question names ("-k", "--keep") is what is asked, however a query scores it.
    option_lines = []  # quoted first too: the line the person asked about
    for option in sorted(options_named(question)):
        best = max((i for i, s in enumerate(sentences) if i not in chosen and option in options_named(s.text)), key=lambda i: float(overall[i]), default=None)
        if best is not None and spent + (price := cost(best)) <= budget_tokens:
            spent += price
            chosen[best] = ""
            option_lines.append(best)
    for name in found_names:  # then coverage: each name that found something gets its best sentence
        # Scored against the name WITH its fact ("Tarrow Works founder"): the name alone is closest to headings.
        columns = [i for i, q in enumerate(queries) if extends(q, name)]
        best = max(
            (i for i, s in enumerate(sentences) if i not in chosen and mentions(name, s.source, asked)),
            key=lambda i: float(to_queries[i, columns].max()) if columns else float(overall[i]),
            default=None,
        )
        if best is not None and spent + (price := cost(best)) <= budget_tokens:
            spent += price
            chosen[best] = name
    for i in map(int, np.argsort(-overall, kind="stable")):
        if i in chosen or spent + (price := cost(i)) > budget_tokens:
            continue  # a shorter sentence further down may still fit
        spent += price
        chosen[i] = ""

    # A shortened passage is as close to the question as its closest sentence (the "not found" gate judges what the
    # model reads: a page of many topics is far from a question that one of its sentences answers).
    context, number_of = _regroup(sentences, chosen, overall, to_question if max_sentences > 0 else None)
    shown = overall + QUOTE_WORDS * _shared_words(sentences, [question, *queries]) if QUOTE_WORDS else overall
    by_score = option_lines + sorted((i for i in chosen if i not in option_lines), key=lambda i: -float(shown[i]))
    if len(found_names) >= 2:  # a list question: one quote per name first, in the order named
        firsts = [next(i for i in chosen if chosen[i] == n) for n in found_names if n in chosen.values()]
        by_score = firsts + [i for i in by_score if i not in firsts]
    quotes = tuple(_quote(sentences[i], number_of[i], float(shown[i]), [chosen[i], *found_names]) for i in by_score[: max(preview, len(found_names))])
    if len(found_names) < 2:  # labels tell the things of a list question apart; one thing's name ("Python:" thrice) tells nothing
        quotes = tuple(dataclasses.replace(q, name="") for q in quotes)
    return Evidence(tuple(context), quotes, tuple(n for n in found_names if n in chosen.values()), missing)


def closest_with_words(asked: str, texts: Sequence[str], cosines: Sequence[float]) -> int:
    """The index of the passage with the best cosine plus OWN_PASSAGE_WORDS times its shared-word score with `asked`:
    the measure the quotes on screen are ordered by, for whole passages (fusion puts the question's own passage first)."""
    vectors = lexical_vectors([*texts, asked])
    shown = np.asarray(cosines, dtype=np.float32) + OWN_PASSAGE_WORDS * (vectors[:-1] @ vectors[-1])
    return int(np.argmax(shown))


def _shared_words(sentences: list[_Sentence], asked: Sequence[str]) -> np.ndarray:
    """Each sentence's best shared-word cosine with one of `asked` (the question and the queries)."""
    vectors = lexical_vectors([*(s.scored for s in sentences), *asked])
    return (vectors[: len(sentences)] @ vectors[len(sentences):].T).max(axis=1)


def _regroup(sentences: list[_Sentence], chosen: dict[int, str], overall: np.ndarray, to_question: np.ndarray | None = None) -> tuple[list[Source], dict[int, int]]:
    """The chosen sentences as shortened passages, best passage first but a file's passages together (the
    prompt names each file once, answer_messages), each passage's sentences in page order; with `to_question` (the
    sentences' cosines to it), a passage's similarity is at least its closest sentence's."""
    groups: dict[int, list[int]] = {}
    for i in sorted(chosen, key=lambda i: -float(overall[i])):
        groups.setdefault(id(sentences[i].source), []).append(i)
    file_rank = {file: rank for rank, file in enumerate(dict.fromkeys(sentences[m[0]].source.passage.file for m in groups.values()))}
    ordered = sorted(groups.values(), key=lambda members: file_rank[sentences[members[0]].source.passage.file])
    context: list[Source] = []
    number_of: dict[int, int] = {}
    for number, members in enumerate(ordered, start=1):
        members.sort(key=lambda i: sentences[i].start)
        source = sentences[members[0]].source
        pieces = [sentences[members[0]].text]
        for previous, current in itertools.pairwise(members):
            # "..." marks left-out sentences, so the model does not read two distant sentences as one thought.
            gap = sentences[previous].end < sentences[current].start - 2
            pieces.append(("... " if gap else "") + sentences[current].text)
        start, end = sentences[members[0]].start, sentences[members[-1]].end
        passage = dataclasses.replace(
            source.passage, text=" ".join(pieces), start=source.passage.start + start, end=source.passage.start + end
        )
        similarity = max(source.similarity, *(float(to_question[i]) for i in members)) if to_question is not None else source.similarity
        kept = passage if source.passage.kind != "table" else source.passage
        context.append(dataclasses.replace(source, n=number, passage=kept, similarity=similarity))
        number_of.update({i: number for i in members})
    return context, number_of


def sentence_citation(sentence: _Sentence, number: int) -> Citation:
    """[number] citing just this sentence of its passage (a table: the whole table), with its place on the page."""
    passage = sentence.source.passage
    if passage.kind == "table":
        return Citation.from_passage(number, passage, sentence.source.also)
    return dataclasses.replace(
        Citation.from_passage(number, passage, sentence.source.also), text=sentence.text, start=passage.start + sentence.start, end=passage.start + sentence.end
    )


def _quote(sentence: _Sentence, number: int, score: float, names: Sequence[str]) -> Quote:
    """The quote, labelled from the document: with the first of `names` (the one it was chosen for first) that
    the sentence, its heading or its document's title states in full (a query's name may be the model's, even
    one from its prompt's examples, not the document's), else unlabelled (its place, shown beside it, names its heading)."""
    stated = words(sentence.scored)  # the sentence, its heading and its title
    label = next((name for name in names if name and words(name) <= stated), "")
    return Quote(sentence_citation(sentence, number), round(score, 4), label)


def on_the_page(citations: Sequence[Citation], sources: Sequence[Source], said: dict[int, str] | None = None, question: str = "") -> tuple[Citation, ...]:
    """Citations of shortened passages with their span's own page text (the model read the chosen sentences,
    whitespace collapsed): the page and text views check a citation's text against the page to highlight it.
    `said`: what the answer's sentences citing [n] say; a citation spanning several sentences is narrowed to the
    one that holds the most of it, so the page highlights the sentence the answer rests on (`_narrowed`)."""
    originals = {s.passage.chunk_id: s.passage for s in sources}
    out = []
    for citation in citations:
        passage = originals.get(citation.chunk_id)
        if passage is not None and passage.kind != "table" and passage.start <= citation.start < citation.end <= passage.end:
            citation = dataclasses.replace(citation, text=passage.text[citation.start - passage.start : citation.end - passage.start])
            if said and said.get(citation.n):
                citation = _narrowed(citation, said[citation.n], question)
        out.append(citation)
    return tuple(out)


def _narrowed(citation: Citation, said: str, question: str = "") -> Citation:
    """The citation's sentence holding the most of what `said` says, its words compared as the grounding check compares
    them (core/words.py: any script, accents dropped, forms of a word, numbers in words in the sentence's language: an
    English "three years" finds a German "drei Jahre"), and weighed as it weighs them (`telling`: 4 when the question does
    not hold it, what the answer adds: "IP67", not "PX-40", for "What is the IP rating of the PX-40?"; a number twice),
    widened to the sentences holding the numbers it lacks that the question does not hold (a sentence joining two facts:
    "85 °C at 6 bar"). The whole citation when none holds any, or when `said` holds every sentence's words (a quote of
    the whole passage). Its sentences are the ones the model read (a label with its value, a lead-in with what it introduces)."""
    spans = [(a, b) for a, b, _ in reading_spans(citation.text)]
    if len(spans) < 2:
        return citation
    said = MARK.sub(" ", said)  # its "[1]" is no number it says
    asked, wanted, whole = Vocabulary([question]), set(content(said, spelled=True)), Vocabulary([said])
    sentences = [Vocabulary([citation.text[a:b]]) for a, b in spans]
    held = [sum(telling(w, asked) for w in wanted if sentence.holds(w)) for sentence in sentences]
    quoted = all(whole.holds(w) for a, b in spans for w in content(citation.text[a:b]))
    if max(held) == 0 or quoted:  # an answer quoting the passage whole ("the following code: “...”") rests on all of it
        return citation
    first = last = held.index(max(held))
    numbers = {w for w in wanted if is_number(w) and not asked.holds(w)}
    for i, sentence in enumerate(sentences):  # every number the answer took from here is highlighted (not the question's own: "PX-40")
        if any(sentence.holds(n) and not any(s.holds(n) for s in sentences[first : last + 1]) for n in numbers):
            first, last = min(first, i), max(last, i)
    a, b = spans[first][0], spans[last][1]
    return dataclasses.replace(citation, start=citation.start + a, end=citation.start + b, text=citation.text[a:b])
