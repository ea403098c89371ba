"""An answer's citation marks as text: what they cite, where they stand, and how they are rewritten. A mark is "[2]" or
"[1, 3]" (words.MARK); a run of them may be written as a list ("[1], [2] and [5]"). The review (answers/review.py)
judges the claims; this module only reads and moves their marks."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from .words import MARK, MIN_LETTERS, code_terms, content, is_number

COLONS, STOPS = (":", "\uff1a"), ".!?\u3002\uff01\uff1f"  # colons lead in to what follows; full stops in any script
CLAUSE_ENDS = (",", "\uff0c", "\u3001")  # commas (Chinese and Japanese ones too): what comes before one is not yet a claim
# A run of marks, also written as a list ("[1], [2] and [5]", "[1], [2], et [3]": a joining word of up to three letters).
MARK_RUN = r"\[\d+(?:\s*,\s*\d+)*\](?:(?:\s*[,;]\s*|\s+)(?:[^\W\d_]{1,3}\s+)?\[\d+(?:\s*,\s*\d+)*\])*"
LONE_MARKS = re.compile(r"\n[ \t]*(?:[-*\u2022][ \t]+)*(?=(?:\[\d+(?:\s*,\s*\d+)*\][ \t]*)+(?:\n|$))")  # before a line of marks only ("- - [1]" too): they close the line above
_LED = re.compile(rf"(?:^|(?<=[.!?:\u3002\uff01\uff1f\uff1a]))([ \t]*)({MARK_RUN})[ \t]+(?=\w)", re.M)  # marks opening a sentence ("[2] The parser ...", "steps: [1] Move ...")
_BODY = re.compile(r"(?:[^.!?\u3002\uff01\uff1f\n]|[.!?](?![\s\[]|$)|[.!?](?=[ \t]+\d))+[.!?\u3002\uff01\uff1f]*")  # a sentence, without marks after its stop ("{X}.{Y}", "p. 6" go on)
POINTER_WORDS = 2  # a sentence naming no more words (words.content) than this, none of which its passages hold, may only point at its marks
CLOSING = re.compile(rf"(?:\s*(?:{MARK.pattern}|[{STOPS}]))*\s*$")  # a claim's closing marks and stops, in any order ("3 V [1].", "3 V. [1]")


def marks_after(answer: str) -> str:
    """An answer opening with a mark ("[1] The parser reads ... [2] It writes ..."), as the key sentences are set for the model, or with steps so after a colon ("steps: [1] Move ... [2] Run ..."),
    cites each sentence by the marks before it: they are moved after it ("The parser reads ... [1]"), where a claim's marks are read; steps start a line, not citing what leads in to them."""
    out, at = [], 0
    led = re.match(rf"\s*{MARK_RUN}", answer) or re.search(rf"[:\uff1a][ \t]*{MARK_RUN}[ \t]+[^\W\d_]", answer)
    for m in (m for m in _LED.finditer(answer) if not answer[m.end()].islower()) if led else ():  # "[1] states ...": its subject
        end = _BODY.match(answer, m.end()).end()  # (?=\w) after the marks: a body of one character at least
        out, at = out + [answer[at : m.start()], "\n" if answer[: m.start()].endswith(COLONS) else m.group(1), _marks_led(answer[m.end() : end], m.group(2))], end
    return "".join(out) + answer[at:]


def given_marks(answer: str, given: int) -> tuple[str, list[str]]:
    """The answer with what its marks cite beyond the passages it was given ("[9]" of eight; an unclosed "[8" the
    token limit cut) taken out, as they point nowhere (a small model counting on), and the notice saying so."""
    beyond: list[int] = []

    def kept(run: re.Match) -> str:  # the run as written, or its given marks only, or nothing
        numbers = cited_numbers(run.group(2))
        if not (outside := [n for n in numbers if not 1 <= n <= given]):
            return run.group(0)
        beyond.extend(outside)
        inside = [n for n in numbers if 1 <= n <= given]
        return run.group(1) + "".join(f"[{n}]" for n in inside) if inside else ""

    out = re.sub(r"[\s,;]*\[\d*$", "", re.sub(rf"(\s*)(?<![\w)`])({MARK_RUN})", kept, answer))  # not code's "x[10]"
    beyond = list(dict.fromkeys(beyond))
    shown = ", ".join(f"[{n}]" for n in beyond[:6]) + ", \u2026" * (len(beyond) > 6)
    return out, [f"The answer cited {shown}, but it was given {given} passage{'s' * (given != 1)}: those marks were taken out."] * bool(beyond)


def cited_numbers(text: str) -> list[int]:
    """The passage numbers a text cites, each once, in the order first cited ("[1, 3] ... [2]" -> 1, 3, 2)."""
    return list(dict.fromkeys(int(n) for m in MARK.finditer(text) for n in re.findall(r"\d+", m.group(0))))


def _marks_led(body: str, led: str) -> str:  # marks that opened a sentence after it: merged with its closing ones; after them where it cites inside ("commands [3] or [4]")
    return with_marks(body, cited_numbers(body[CLOSING.search(body).start() :] + led) if cites_inside(body) else cited_numbers(led + body))


def cites_inside(claim: str) -> bool:  # a mark before its closing ones ("run one of [3] or [4]"): a reference the model wrote, not its citation
    return bool(MARK.search(claim[: CLOSING.search(claim).start()]))


def with_marks(claim: str, numbers: Sequence[int]) -> str:  # these marks in place of its closing ones, before its full stop; marks inside it ("run one of [3] or [4]") stay
    head, stops = claim[: (closing := CLOSING.search(claim)).start()].rstrip(), "".join(re.findall(f"[{STOPS}]", closing.group(0)))
    return head + "".join(f" [{n}]" for n in numbers if n not in cited_numbers(head)) + stops


def pointers_folded(answer: str, spans_of: Callable[[str], Sequence[tuple[int, int]]], holds: Callable[[str, int], bool], known: Callable[[str], bool]) -> str:
    """The answer without the words that only point at its marks, which no passage could state and which flagged right answers red.
    - A closing clause leading to the marks (its last word a short one: "in", "to"), naming one word at most that no passage read nor
      the question holds, no number and no code ("... is false, as stated in [2]."), is taken out: "... is false [2]." (`known(word)`).
    - A sentence naming POINTER_WORDS words at most, no number and no code, none of which its passages hold (`holds(word, n)`), after a
      sentence of its line citing nothing, is folded into that one: "A. This can be found in [1]." reads "A [1].", so A is judged
      against [1] (and its citation moves if [1] does not state it). By shape, in any language ("Siehe [2].", "See [3]."); one leading
      in ("For example, [1]") is not a pointer: the passage is quoted. `spans_of`: the answer's claims (review.claim_spans)."""
    for start, end in reversed(spans_of(answer)):
        claim = answer[start:end]
        head, _, clause = claim[: (closing := CLOSING.search(claim)).start()].rpartition(",")
        said = content(MARK.sub(" ", clause))
        leads_to_marks = re.search(rf"(?<!\w)[^\W\d_]{{1,{MIN_LETTERS - 1}}}\s*$", clause)  # its last word a short one the marks complete ("in", "to", "von")
        if head and leads_to_marks and cited_numbers(claim[closing.start():]) and not MARK.search(clause) and len(said) <= 1 and not code_terms(clause) \
                and not any(is_number(t) or known(t) for t in said):
            answer = answer[:start] + head.rstrip() + claim[closing.start():] + answer[end:]
    spans = spans_of(answer)
    for (start, end), (at, stop) in reversed(list(zip(spans, spans[1:]))):
        pointer, marks = answer[at:stop], cited_numbers(answer[at:stop])
        said = content(MARK.sub(" ", pointer))
        leads_in = MARK.sub("", pointer).rstrip(f" {STOPS}").endswith((*COLONS, *CLAUSE_ENDS))
        if marks and "\n" not in answer[end:at] and not cited_numbers(answer[start:end]) and len(said) <= POINTER_WORDS and not code_terms(pointer) \
                and not leads_in and not any(is_number(t) or holds(t, n) for t in said for n in marks):
            answer = answer[:start] + with_marks(answer[start:end], marks) + answer[stop:]
    return answer
