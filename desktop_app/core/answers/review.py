"""After the answer: each claim checked against what it cites (grounding.py), and the citations it ends up with.
A claim is a sentence (cut again after marks inside it) or a list line, judged against its cited passages together. Grounded: kept. Not, but a passage
states it: its citation moves there (or one completing them is added). Not anywhere, no number missing: the model reads the cited sentences for it
(model_check.py). Else its citations are flagged with what they lack (list lines: "not found"). Citing nothing: it gets the passage that states it,
unless its line's closing citation, as the model wrote it, does (else that is flagged); no passage stating it, a notice names it. Saying only a name ("- Name: [2]"), it quotes the sentence naming it; ending in a colon
("the code: [3]"; a comma closing the answer: "For example, [1]"), the passage it cites. An answer no claim of which is grounded, or whose grounded
claims (the first DOUBTED sentences) rest on sentences the model is sure do not answer the question, is not found, the model's reply in the notice
(doubtful "no"s flag the first claim's citations). A list asks each cited line its thing's search query ("X: founder"); refusing, a line the model
does not say yes to says not found. Nothing else vetoes it; a NOT FOUND after an answer is taken out. Other languages: by names, numbers. A file the question names is named by the claim's passages (or is theirs)."""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import numpy as np

from ..citation_marks import CLAUSE_ENDS, COLONS, LONE_MARKS, MARK_RUN, STOPS, cited_numbers, cites_inside, given_marks, marks_after, pointers_folded, with_marks
from ..document_names import named_files, without_names
from ..languages import likeliest_among, question_language
from ..models.embedder import Embedder
from ..name_facts import fact_of
from ..ingest.chunking import passage_sentences
from ..types import Citation, Source
from ..words import Vocabulary, around, code_ends, code_names, code_terms, content, heading_names, is_number, meaningful, told, tokens
from .grounding import MARK, Grounding, judge_claim
from .model_check import MAX_CHARS, Doubt, ModelCheck
from .prompts import NOT_FOUND_MARK
from .streaming import NOT_FOUND_LINE, not_found_answer

# A claim: a list line ("- ...", "1. ..."), or a sentence with the citation marks that follow it, wherever they stand
# ("... 9 s [2].", "... 9 s. [2]"); a full stop between letters or digits ("10.4", "help.start") ends none.
_LIST_LINE = re.compile(r"^[^\S\n]*(?:[-*\u2022]|\d+[.)])[^\S\n]+\S.*$", re.M)  # matching one line, or finding each of an answer's
_MARKS_INSIDE = re.compile(rf"\s*(?>{MARK_RUN})(?=\s*[,;]?\s*[^\s\[.!?,;])")  # marks with more of the sentence after them
MAX_REREADS = 2  # claims of one answer the model rereads (model_check.py): each costs 0.3-0.5 s
CLAIM_WORDS = 2  # a piece of a sentence naming no more, and no number, before a mark inside it is its subject or a reference, not a claim
JOINED = 3  # passages an uncited claim is completed from at most: each added one must add words, and numbers stay exact
DOUBTED = 3  # grounded claims' sentences the question check reads at most, when the first ones do not answer
_SENTENCE = re.compile(r"(?:(?>`[^`\n]*`)|[^.!?\u3002\uff01\uff1f\n]|[.!?](?=\w)|[!?](?![\s\[\])\"'\u201d\u2019\u00bb]|$))+(?:[.!?\u3002\uff01\uff1f]+(?:\s*\[\d+(?:\s*,\s*\d+)*\])*|$)")  # "。！？" end Chinese and Japanese ones; none ends in `code ...`


@dataclasses.dataclass(frozen=True)
class ReviewedAnswer:
    answer: str
    found: bool
    citations: tuple[Citation, ...]
    notices: tuple[str, ...]


def _by_reason(flagged: dict[int, str]) -> dict[str, list[int]]:
    """The flagged citations grouped by why, in citation order: a sentence citing eight passages is one notice, not eight."""
    return {reason: [n for n in sorted(flagged) if flagged[n] == reason] for reason in dict.fromkeys(flagged[n] for n in sorted(flagged))}


def citations_of(answer: str, context: Sequence[Source]) -> list[Citation]:
    """The passages the answer cites, in the order first cited; numbers outside the context are ignored."""
    return [Citation.from_passage(n, context[n - 1].passage, context[n - 1].also) for n in cited_numbers(answer) if 1 <= n <= len(context)]


def closing_marks(rest: str) -> list[int]:
    """What cites a claim without marks: the marks of the next claim on its line that has some ("A. B [1]": [1])."""
    return next((numbers for s, e in claim_spans(rest.split("\n", 1)[0]) if (numbers := cited_numbers(rest[s:e]))), [])


def claim_spans(answer: str) -> list[tuple[int, int]]:
    """(start, end) of each claim: list lines whole; other lines by sentence, cut again after marks inside one ("It
    needs 24 V [1] and seals every 2,000 h [2]." is two claims) where what comes before them is a claim: a number, or
    more than CLAIM_WORDS words ("The passage [1] states that ...", "The pump [1] runs at 24 V [2]" stay whole)."""
    spans, offset = [], 0
    for line in answer.split("\n"):
        if _LIST_LINE.match(line):
            spans.append((offset, offset + len(line)))
        else:
            for m in _SENTENCE.finditer(line):
                start = m.start()
                for mark in _MARKS_INSIDE.finditer(m.group(0)):
                    if line[start : m.start() + mark.start()].rstrip().endswith(CLAUSE_ENDS):
                        continue  # "To clean the grinder, [1] advises ...": a clause leading in; the mark is the subject
                    said = content(MARK.sub(" ", line[start : m.start() + mark.end()]))
                    if len(said) > CLAIM_WORDS or any(map(is_number, said)):
                        spans.append((offset + start, offset + m.start() + mark.end()))
                        start = m.start() + mark.end()
                spans.append((offset + start, offset + m.end()))
        offset += len(line) + 1
    return [(s, e) for s, e in spans if answer[s:e].strip()]


class ReadPassages:
    """The passages the model read, each passage's words built once however many claims ask."""

    def __init__(self, context: Sequence[Source], question: str, embedder: Embedder | None = None, unlocated: Callable[[str], str] | None = None, under: Sequence[str] = ()):
        self.unlocated, named = unlocated or (lambda claim: claim), named_files(question, (s.passage.file for s in context))
        # With the terms written as code in its section's heading (words.code_names): "Default: 0" under "tessFold(path[, options])" is tessFold's. Only those: "Options" names nothing a claim could be wrong about.
        self.texts = [f"{Path(s.passage.file).name if any(d.path == s.passage.file for d in named) else ''}\n{s.passage.title}\n{heading}\n{' '.join(code_names(s.passage.section or ''))}\n{s.passage.text}" for s, heading in itertools.zip_longest(context, under[: len(context)], fillvalue="")]
        self.titles, self.headed = [s.passage.title for s in context], [" / ".join(filter(None, (s.passage.title, s.passage.section))) for s in context]  # headed: the question check reads a sentence under its section's heading (Word, HTML) too: "Default: 0" is its function's
        self.embedder, self.asked, self.asked_words = embedder, Vocabulary([without_names(question, named)]), content(question)
        self.required = frozenset(t for d in named for t in content(Path(d.path).stem))  # a claim naming the file must rest on it
        self.pages, self.plain_numbers = [(s.passage.file, s.passage.page) for s in context], set(tokens(re.sub(r"\w*[^\W\d_]\w*", " ", question)))  # "4", not "K7"
        self.places = [(s.passage.file, frozenset(code_terms(s.passage.section or ""))) for s in context]  # its file and its heading's codes: a reference's function (`stating`)
        self._vocabularies: dict[tuple[int, ...], Vocabulary] = {(n,): Vocabulary([t]) for n, t in enumerate(self.texts, 1)}
        self.each = tuple(self._vocabularies.values())
        own = " ".join(w for w in re.findall(r"\w+", question) if not any(v.holds(t) for t in tokens(w) for v in self.each))
        self.asked_in = question_language(f"{own}?") or question_language(question)
        self._sentences = [(n, sentence) for n, s in enumerate(context, 1) for sentence in passage_sentences(s.passage) if content(sentence)]
        self._vectors, self._nearest, self.rereads = {}, {}, MAX_REREADS  # sentence index -> vector; claim -> vector

    def _closeness(self, claim: str, among: Sequence[int]) -> list[float] | None:
        """The cosine of each of these sentences to the claim (None without an embedder); each embedded once, on need."""
        if self.embedder is None:
            return None
        new = [i for i in among if i not in self._vectors]
        self._vectors.update(zip(new, self.embedder.embed([self._sentences[i][1] for i in new]) if new else ()))
        if claim not in self._nearest:
            self._nearest[claim] = self.embedder.embed([MARK.sub(" ", claim)])[0]
        return [float(self._vectors[i] @ self._nearest[claim]) for i in among]

    def nearest(self, claim: str) -> int:
        """The passage holding the sentence nearest the claim in meaning (0 without an embedder)."""
        closeness = self._closeness(claim, range(len(self._sentences)))
        return self._sentences[int(np.argmax(closeness))][0] if closeness else 0

    def statements(self, claim: str, cited: Sequence[int], subject: bool = False) -> list[str]:
        """Each cited passage's sentence holding most of the claim's words (weighed by `words.told`: what it adds to the question 4, numbers
        twice), best passage first, then its sentence nearest the claim in meaning ("from", "object" can make another hold more), after the
        title ("It has ..." keeps its subject). A claim in another language than its passage shares only names and numbers with it, which
        several of its sentences may hold alike (a run time and a weight in the same number): each sentence holding as many comes next, for the check to read on."""
        indices = [i for i, (n, _) in enumerate(self._sentences) if n in cited]
        said, closeness = content(MARK.sub(" ", claim), spelled=True), self._closeness(claim, indices) or [0.0] * len(indices)
        asked = self.asked.naming_more(said)  # the question's thing by its full name is no news: the value said about it is
        held = [told(said, asked, Vocabulary([self._sentences[i][1]])) for i in indices]
        most, nearest = {}, {}  # passage -> its sentences holding most of the claim's words / its sentence nearest it in meaning
        for k in sorted(range(len(indices)), key=lambda k: (held[k], closeness[k], -k), reverse=True):
            n, first = self._sentences[indices[k]][0], most.get(self._sentences[indices[k]][0])
            if first is None or (held[k] == held[first[0]] and self.apart(claim, self.texts[n - 1])):
                most.setdefault(n, []).append(k)
        for k in sorted(range(len(indices)), key=lambda k: -closeness[k]) if self.embedder else ():
            nearest.setdefault(self._sentences[indices[k]][0], indices[k])
        read = [(n, self._sentences[j][1].strip()) for n, ks in most.items() for j in dict.fromkeys((*(indices[k] for k in ks), nearest.get(n, indices[ks[0]])))]
        read = [(n, self._led(n, sentence, said, asked) if subject else sentence) for n, sentence in read]  # `subject`: for the question check
        return [f"{titles[n - 1]}: {sentence}" if (titles := self.headed if subject else self.titles)[n - 1] else sentence for n, sentence in read]

    def _led(self, n: int, sentence: str, said: list[str], asked: Vocabulary) -> str:
        """After the sentence of its page naming most of what claim and question name that it (and its title) lack: its own
        passage's first, else another passage read of the same page (a chunk can start below the line naming its subject).
        A sentence longer than the check reads is cut around the claim's words (`words.around`), not after its start."""
        lacking = [t for t in set(said) & set(self.asked_words) if not Vocabulary([self.headed[n - 1], sentence]).holds(t)]  # built once, not per word
        page = self.pages[n - 1]  # a lead only when the sentence lacks something they name
        most, _, _, lead = max(((sum(Vocabulary([s]).holds(t) for t in lacking), m == n, -i, s.strip()) for i, (m, s) in enumerate(self._sentences if lacking else ()) if self.pages[m - 1] == page), default=(0, 0, 0, ""))
        lead = f"{' '.join(lead.split())[: MAX_CHARS // 2]} … " if most else ""
        return lead + around(sentence, said, asked, max(MAX_CHARS // 4, MAX_CHARS - len(self.headed[n - 1]) - len(lead) - 2))  # the check reads MAX_CHARS

    def judge(self, claim: str, numbers: Sequence[int]) -> Grounding:
        key, named = tuple(sorted(n for n in set(numbers) if 1 <= n <= len(self.texts))), self.required & set(content(claim))
        if not key or any(not self.each[n - 1].holds(t) for n in key for t in named):  # restating a file the question names: each passage is that file's
            return Grounding(False, 0.0, f"the cited passages are not from {', '.join(sorted(named))}" if key else "it cites no passage the model read", tuple(named))
        claim = self.unlocated(claim)
        verdict = judge_claim(claim, self.vocabulary(key), self.asked, self.each)
        if verdict.grounded or not self.apart(claim, " ".join(self.texts[n - 1] for n in key)):  # its wording counts if its nearest sentence is cited
            return verdict if verdict.grounded or self.nearest(claim) not in key else judge_claim(claim, self.vocabulary(key), self.asked, self.each, agrees=True)
        # In another language than they are (English over a German page), only numbers and names (words a passage in another language holds) match: each must, and one the question lacks.
        # Joined by semicolons: "220 240", numbers side by side, reads as 220240 (a space groups thousands: "1 450 W").
        shared = "; ".join(t for t in content(MARK.sub(" ", claim), spelled=True) if is_number(t) or any(v.holds(t) for v, text in zip(self.each, self.texts) if self.apart(claim, text)))
        adds = any(not self.asked.holds(t) for t in tokens(shared))
        return judge_claim(shared, self.vocabulary(key), self.asked, self.each, exact=True) if adds else Grounding(False, 0.0, "it shares only the question's names with them")

    def apart(self, claim: str, text: str) -> bool:
        """Is the claim in another language than the text? Of the text's language and the question's, the one the claim reads more
        like: a short English sentence naming German places can read as German by itself, and then its words were never compared.
        The question's language is read from its own words, the names the passages hold left out ("Where was ... born?")."""
        theirs = question_language(text)
        return theirs is not None and likeliest_among(claim, {theirs, self.asked_in or question_language(claim) or theirs}) != theirs

    def vocabulary(self, key: tuple[int, ...]) -> Vocabulary:  # these passages' words together, built once however often asked
        return self._vocabularies[key] if key in self._vocabularies else self._vocabularies.setdefault(key, Vocabulary([self.texts[n - 1] for n in key]))

    def reread(self, claim: str, numbers: Sequence[int], verdict: Grounding, check: ModelCheck | None) -> Grounding:
        """A claim the words fail, no number missing but the question's (a plain "run 4 jobs"), adding 2+ words to it, asked of the model (model_check.py)."""
        settled = verdict.grounded or check is None or not numbers or self.rereads <= 0 or any(t not in self.plain_numbers for t in verdict.numbers)
        settled = settled or bool(self.required & set(verdict.missing))  # another file's passage: no reading makes it the named file's
        if settled or sum(not self.asked.holds(t) for t in content(MARK.sub(" ", claim))) < 2:  # cheap answers first; one added word: nothing to vouch for
            return verdict
        self.rereads -= 1
        stated = check.states(re.sub(r"\s*" + MARK.pattern, "", claim).strip(), " ".join(self.read_for(claim, n) for n in dict.fromkeys(numbers) if 1 <= n <= len(self.texts)))
        return Grounding(True, verdict.score, "the model reads it in the cited passages", verdict.missing) if stated else verdict

    def read_for(self, claim: str, n: int) -> str:
        """What the claim check reads of passage n: the sentence the claim rests on; across languages, where no word can
        choose that sentence, the passage as the model read it (the evidence's sentences of it, cut at the check's length)."""
        return self.texts[n - 1] if self.apart(claim, self.texts[n - 1]) else next(iter(self.statements(claim, [n])), "")

    def needed(self, claim: str, cited: Sequence[int]) -> list[int]:
        """The cited passages less each adding none of the claim's words to the others ("6 bar [1][2]", [1] says it)."""
        said, kept = content(MARK.sub(" ", claim)), [n for n in dict.fromkeys(cited) if 1 <= n <= len(self.texts)]
        for n in reversed(kept):
            rest = [m for m in kept if m != n]
            others = self.vocabulary(tuple(sorted(rest))) if rest else None
            kept = rest if others is not None and all(others.holds(t) or not self.each[n - 1].holds(t) for t in said) else kept
        return kept

    def quote(self, claim: str, cited: Sequence[int]) -> tuple[int, str] | None:
        """(n, sentence): the first sentence (cited passages first) holding the claim's words as written, else in other forms, saying more."""
        said = meaningful(MARK.sub(" ", claim))  # "that" in "the function that writes X is [1]" is no word a sentence stating it need hold
        for exact, n in itertools.product((True, False), [*cited, *range(1, len(self.texts) + 1)]):
            for sentence in (s for m, s in self._sentences if m == n):
                words = Vocabulary([sentence])
                if all(t in words.tokens if exact else words.holds(t) for t in said) and not all(self.asked.holds(t) for t in content(sentence)):
                    return n, sentence
        return None

    def stating(self, claim: str, cited: Sequence[int], completing: bool = False) -> list[int] | None:
        """The passages that state the claim: the one passage that states it best; else those it cites and the one more that completes it best, with a word of the
        claim they lack (a claim joining two passages' facts, citing one); None when none do. A claim citing nothing is completed so from the passage holding most of it,
        up to JOINED passages: the model's uncited sentence may join what several passages say ("A matrix is ..., while a data frame is ..."), each one adding words.
        A passage of another place than those cited (document; in a reference, function: another's "Default: 0" says nothing of this one) must name what the claim is
        about (`subject`; stating it alone, its heading may name the claim's code, or a word of it as code: words.heading_names) to be pointed at; citing none, it cites no place. `completing`: the cited
        passages state it, lacking words it restates of the question; only a passage of their places completing them is looked for."""
        cited = [m for m in cited if 1 <= m <= len(self.texts)]  # a mark beyond the passages read cites nothing
        places, subject, named = {self.places[m - 1] for m in cited}, self.subject(claim, cited), code_ends(code_terms(claim)) | heading_names(content(claim), self.headed)
        about = [not subject or not cited or self.places[m] in places or any(map(v.holds, subject)) or self.apart(claim, self.texts[m]) for m, v in enumerate(self.each)]
        every = [m for m in range(1, len(self.texts) + 1) if not completing or self.places[m - 1] in places]  # another document's page would give the claim its subject: another country's population

        def best(tried: Iterable[list[int]]) -> tuple[list[int] | None, list[int] | None]:
            """Of these tries, each passage adding words, the one stating the claim best and the one holding most of it (each judged once)."""
            scored = [(g.grounded, (g.score, -n[-1]), n) for n in tried if all(about[m - 1] or (len(n) == 1 and named & code_ends(self.places[m - 1][1])) for m in n) and (g := self.judge(claim, n)) and self.needed(claim, n) == n]
            stated = max(((key, n) for grounded, key, n in scored if grounded), default=None)
            return (stated[1] if stated else None), (max(scored, key=lambda s: s[1])[2] if scored else None)

        stated, most = (None, None) if completing else best([n] for n in every)
        joined = (cited or most or []) if stated is None else []
        while joined and len(joined) < (len(cited) + 1 if cited else JOINED):
            stated, most = best([*joined, n] for n in every if n not in joined)
            joined = [] if cited or stated else (most or [])
        return sorted(stated) if stated and not cited else stated

    def subject(self, claim: str, cited: Sequence[int]) -> list[str]:
        """The question's words the claim restates that its cited passages hold (else any passage read), fewest passages read holding
        them: "velmora" rather than "population". Another town's population does not complete a sentence about this one."""
        counts = {t: n for t in dict.fromkeys(content(MARK.sub(" ", claim))) if self.asked.holds(t) and (n := sum(v.holds(t) for v in self.each))}
        named = {t: n for t, n in counts.items() if any(self.each[m - 1].holds(t) for m in cited)} or counts
        return [t for t, n in named.items() if n == min(named.values())]


def _least_doubt(check: ModelCheck, question: str, statements: Iterable[str]) -> Doubt:
    """The question check's doubt of the grounded claims' sentences (first claim first; each cited passage's, best first), asked
    until one answers (up to DOUBTED): a scene-setting first sentence, or a passage cited beside the one that answers."""
    doubts: dict[str, Doubt] = {}  # claims resting on one sentence ask it once
    for statement in itertools.islice(statements, DOUBTED):  # each statement found only when the ones before it are doubted
        if statement not in doubts and doubts.setdefault(statement, check.doubt(question, statement)) is Doubt.NONE:
            return Doubt.NONE
    return min(doubts.values(), key=lambda d: d.value, default=Doubt.NONE)  # no sentence to read (a passage of no words): no doubt


def _head(line: str, names: Sequence[str], first_words: bool = True) -> str:
    """What a list line is about: the named thing it names, else the words before its colon, else its first words (or "")."""
    text = re.sub(r"^\s*(?:[-*\u2022]|\d+[.)])\s+", "", MARK.sub("", line)).strip()
    named = [n for n in names if n.casefold() in text.casefold()]
    return max(named, key=len) if named else text.partition(":")[0].strip() if ":" in text else " ".join(text.split()[:3]) if first_words else ""


def _own_question(head: str, queries: Sequence[str]) -> str:
    """A list line's thing asked its fact, from the search query naming it ("Edda Tarrow birthplace" -> "Edda Tarrow: birthplace"), or ""."""
    return f"{head}: {fact}" if (fact := fact_of(head, queries)) else ""


def review_answer(
    answer: str, found: bool, question: str, context: Sequence[Source], sources: Sequence[Source], answered: bool = True,
    general_knowledge: bool = False, names: Sequence[str] = (), embedder: Embedder | None = None, model_check: ModelCheck | None = None,
    unlocated: Callable[[str], str] | None = None, under: Sequence[str] = (), queries: Sequence[str] = (),
) -> ReviewedAnswer:
    """`answered`: False when no answer was asked for (search only); `sources`: the closest pages of a refusal; `names`: the
    named things a list answer has a line each for (retrieval/evidence.py); `embedder`: the library's (the check's meaning
    signal; none: words only); `model_check`: asks the model whether a claim the words fail is stated anyway, and whether
    the sentence the first grounded claim rests on answers the question; `unlocated`: a claim without the question's filters
    where it restates them ("Page 2 of X.pdf says ...": a page need not say its number); `under`: each passage's headings
    in an outline the model read with them (whole-document answers): a sentence may restate its chapter's heading; `queries`: the
    search queries, whose name-fact ones ("Edda Tarrow birthplace") ask each list line's own question."""
    if not (found and answer):
        return ReviewedAnswer(answer, found, (), ())
    evidence, flagged, unstated, moved, partial = ReadPassages(context, question, embedder, unlocated, under), {}, [], [], []  # unstated: claims citing nothing no passage states
    grounded: list[tuple[str, list[int]]] = []  # each grounded claim and the passages it ends up citing, last first
    given, notices = given_marks(answer, len(context))
    known = lambda t: evidence.asked.holds(t) or any(v.holds(t) for v in evidence.each)  # noqa: E731  words pointing at marks ("as stated in [1]") go
    spans = claim_spans(out := (written := pointers_folded(marks_after(LONE_MARKS.sub(" ", given)), claim_spans, lambda t, n: evidence.each[n - 1].holds(t), known)))  # given_marks left no mark beyond them
    for index in range(len(spans) - 1, -1, -1):  # backwards, so the earlier spans stay valid as claims change
        start, end = spans[index]
        claim = out[start:end]
        if MARK.sub("", claim).strip(" \t\n.!").upper() == NOT_FOUND_MARK:  # the refusal mark after an answer: the answer's claims speak for it
            out = out[:start] + out[end:]
            continue
        if not content(MARK.sub(" ", claim)) or NOT_FOUND_LINE in claim.lower() or (not MARK.search(claim) and claim.rstrip().endswith(COLONS) and out[end:].strip()):
            continue  # saying nothing; or leading in ("follow these steps:") to what follows, which its own marks cite
        numbers, listed = cited_numbers(claim), bool(_LIST_LINE.match(claim)) and out[start - 1 : start] in ("", "\n")  # a sentence "6) ..." mid-line is none
        bare = all(evidence.asked.holds(t) for t in set(meaningful(MARK.sub(" ", claim))) - set(tokens(_head(claim, names, False) if listed else "")))
        if (listed or numbers) and bare and (quoted := evidence.quote(claim, numbers)):  # "- Name: [2]", "The function that writes X is [1].": nothing but the question's words (or the model's name)
            grounded.append((quoted[1], [quoted[0]]))
            out = out[:start] + (f"- {_head(claim, names)}: \u201c{quoted[1]}\u201d [{quoted[0]}]" if listed else with_marks(claim, [quoted[0]]).rstrip(STOPS) + f": \u201c{quoted[1]}\u201d") + out[end:]
            notices.append(f"The {'line' if listed else 'sentence'} \u201c{re.sub(r' +(?=[.!?])', '', MARK.sub('', claim)).strip()}\u201d said nothing {'about its name' if listed else 'the question does not'}; it now quotes the passage that does.")
            continue
        ends = (*COLONS, *CLAUSE_ENDS * (not out[end:].strip()))  # "For example, [1]" closing the answer: its example never came
        lead_in = numbers and not listed and MARK.sub("", claim).rstrip().endswith(ends) and not _LIST_LINE.match(out[end:].strip().split("\n")[0])
        if lead_in and 1 <= numbers[0] <= len(context) and context[numbers[0] - 1].passage.kind != "table" and not set(evidence.stating(claim, numbers) or numbers).isdisjoint(numbers):  # "the code: [3]": [3] holds it (another passage stating what leads in: the citation moves there)
            quoted = " ".join(context[numbers[0] - 1].passage.text.split())
            grounded.append((quoted, numbers[:1]))
            out = out[:start] + f"{MARK.sub('', claim).rstrip()} \u201c{quoted}\u201d [{numbers[0]}]" + out[end:]
            notices.append(f"The sentence \u201c{MARK.sub('', claim).strip()[:100]}\u201d stopped before what it cites; it now quotes [{numbers[0]}].")
            continue
        later = [] if numbers or listed or not closing_marks(written[end:]) else closing_marks(out[end:])  # citing nothing, it leans on the closing marks the model wrote on its line ("A. B. C [1].", where the check moved them), not on one the check gave a sentence citing nothing
        if later and evidence.judge(claim, later).grounded:
            grounded.append((claim, later))  # the line's closing citation cites it
            continue
        verdict = evidence.judge(claim, numbers)
        better = None if verdict.grounded else evidence.stating(claim, numbers)
        verdict = evidence.reread(claim, numbers, verdict, model_check) if better is None else verdict
        if verdict.grounded:
            tail = len(out) - end  # what follows it, which no later change touches
            if len(needed := evidence.needed(claim, numbers)) < len(numbers) and not cites_inside(claim):  # cited for nothing it says (not "one of [3] or [4]")
                out = out[:start] + with_marks(claim, needed) + out[end:]
                notices.append(f"Citation {', '.join(f'[{n}]' for n in numbers if n not in needed)} added nothing to what its sentence says; it was dropped there.")
            grounded.append((claim, needed))
            partial += [(len(out) - start, tail, claim, needed)] * (bool(needed) and any(map(evidence.asked.holds, content(" ".join(verdict.missing)))))  # its passages lack the question's words it restates ("without admin rights")
            continue
        if better is not None:  # completed: the passage added for the rest did not give the answer, so the model's own are asked
            grounded.append((claim, numbers if (completed := bool(numbers) and set(numbers) < set(better)) else better))
            out = out[:start] + with_marks(claim, better) + out[end:]
            was, now, added = (", ".join(f"[{n}]" for n in ns) for ns in (numbers, better, [n for n in better if n not in numbers]))
            if numbers and not completed:  # said once for all: a model numbering its own sentences ("A [1]. B [2].") had each moved
                moved.insert(0, (was, now))
            else:
                notices.append(f"Citation {was} says only part of this; {added}, which says the rest, was added." if completed else f"A claim cited no passage; it now cites {now}, which {'say' if len(better) > 1 else 'says'} it.")
        elif listed:  # a line naming no thing and no label ("- 612 km (380 mi)") says not found whole, not "- 612 km (380: not found"
            out = out[:start] + (f"- {head}: {NOT_FOUND_LINE}" if (head := _head(claim, names, False)) else f"- {NOT_FOUND_LINE.capitalize()}") + out[end:]
            notices.append(f"No passage states \u201c{MARK.sub('', claim).strip()[:120]}\u201d: the line now says not found.")
        else:  # citing nothing: the model may read it in the marks it leans on; else they are flagged
            if later and (verdict := evidence.reread(claim, later, evidence.judge(claim, later), model_check)).grounded:
                grounded.append((claim, later))
                continue
            flagged.update({n: verdict.reason for n in numbers or later if n not in flagged})
            unstated += [] if numbers or later else [MARK.sub('', claim).strip()]  # no mark to flag: a notice names it
    checked = answered and not general_knowledge
    lines = [(m, head, asked) for m in _LIST_LINE.finditer(out) if cited_numbers(m.group(0)) and (asked := _own_question(head := _head(m.group(0), names, False), queries))] if checked and grounded and model_check else []
    if len(lines) >= 2:  # a line per thing: each is asked its thing's search query ("Edda Tarrow: birthplace"), as none answers a question in several parts whole
        doubts = [(m, head, Doubt.SURE if (d := _least_doubt(model_check, asked, evidence.statements(m.group(0), cited_numbers(m.group(0)), subject=True))) is Doubt.SOME
                   and model_check.refuse_when_sure else d) for m, head, asked in lines]  # refusing, a line in doubt says not found (the thing may be a guess)
        for m, head, line_doubt in reversed(doubts) if any(d is not Doubt.SURE for *_, d in doubts) else ():  # all sure: refused below
            flagged.update({n: "the model doubts it answers the question for its line's thing" for n in cited_numbers(m.group(0)) if line_doubt is Doubt.SOME})
            out = out[: m.start()] + f"- {head}: {NOT_FOUND_LINE}" + out[m.end() :] if line_doubt is Doubt.SURE else out
            notices += [f"The line \u201c{MARK.sub('', m.group(0)).strip()[:120]}\u201d does not answer the question for {head}: it now says not found."] * (line_doubt is Doubt.SURE)
        doubt = Doubt.SURE if all(d is Doubt.SURE for *_, d in doubts) else Doubt.NONE
    else:
        doubt = _least_doubt(model_check, question, (s for g in reversed(grounded) for s in evidence.statements(*g, subject=True))) if checked and grounded and model_check else Doubt.NONE
    for back, tail, claim, cited in partial[-DOUBTED:] if doubt is Doubt.SURE else ():  # sure it does not answer: a page of the same documents holding what the claim restates of the question may
        if (more := evidence.stating(claim, cited, completing=True)) and _least_doubt(model_check, question, evidence.statements(claim, more, subject=True)) is Doubt.NONE:
            out, doubt = out[: len(out) - back] + with_marks(out[len(out) - back : len(out) - tail], more) + out[len(out) - tail :], Doubt.NONE
            notices.append(f"Citation {', '.join(f'[{n}]' for n in cited)} says only part of this; {', '.join(f'[{n}]' for n in more if n not in cited)}, which says the rest, was added.")
            break
    if (checked and not grounded) or doubt is Doubt.SURE:
        why = "the passage it rests on does not answer the question" if grounded else "no passage it read states that: it did not come from your documents"
        return ReviewedAnswer(not_found_answer(sources or context), False, (), (f"The model answered \u201c{answer.strip()[:300]}\u201d, but {why}.",))
    for n in grounded[-1][1] if doubt is not Doubt.NONE else ():  # the first grounded claim's passages
        flagged.setdefault(n, "it states what the answer says, but the model doubts it answers the question")
    out = out.rstrip()
    notices[:0] = [f"Citation {moved[0][0]} pointed at a passage that does not say this; it now points at {moved[0][1]}." if len(moved) == 1 else
                   f"Citations {', '.join(w for w, _ in moved)} pointed at passages that do not say their sentences; they now point at {', '.join(n for _, n in moved)}."] if moved else []
    citations = [dataclasses.replace(c, supported=c.n not in flagged, reason=flagged.get(c.n, "")) for c in citations_of(out, context)]
    shown = ", ".join("\u201c" + (c if len(c) <= 60 else c[:59].rstrip() + "\u2026") + "\u201d" for c in reversed(unstated))  # one notice, however many
    notices += ([f"Sentences without a citation that no passage was found to state: {shown}"] if unstated and not general_knowledge else []) if citations else ["The answer cites no passage; check it against the sources."] if answered else []
    notices += [f"Citation{'s' * (len(ns) > 1)} {', '.join(f'[{n}]' for n in ns)} may not support the sentence that cites {'them' if len(ns) > 1 else 'it'}: {reason}."
                for reason, ns in _by_reason(flagged).items()]
    return ReviewedAnswer(out, True, tuple(citations), tuple(dict.fromkeys(notices)))  # a notice said of two claims alike once
