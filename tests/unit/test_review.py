"""What the user sees after the answer: each claim checked against what it cites (answers/review.py), in any
language; citations moved, added or flagged; an answer nothing grounds becomes not found. Made-up documents."""

from __future__ import annotations

import numpy as np
import pytest

from desktop_app.core.retrieval.evidence import select_evidence
from desktop_app.core.answers.review import review_answer
from desktop_app.core.pipeline import said_by_citation
from desktop_app.core.answers.streaming import REPEAT_NOTICE, stream_answer
from desktop_app.core.events import Token
from desktop_app.core.types import Passage, Source
from tests.fakes import HashingEmbedder

LIGHT = "The Quillmoor lighthouse flashes green every 9 seconds."
BUILT = "The lighthouse was built in 1887 by Edda Tarrow."
EXPORT = "To save a table to a file, call write.grid() with the table and a file name."
IMPORT = "The read.grid() function reads a table from a file into a grid."


def context(*texts: str, title: str = "") -> list[Source]:
    return [Source(n, Passage(n, 1, f"/doc{n}.pdf", title, n, 0, len(t), t), 0.1, {}, 0.5) for n, t in enumerate(texts, 1)]


def review(answer: str, question: str, sources: list[Source]):
    return review_answer(answer, True, question, sources, sources)


def test_a_claim_joining_two_facts_is_judged_against_both_passages_it_cites():
    reviewed = review("It flashes green every 9 seconds and was built in 1887 [1][2].", "Tell me about the lighthouse.", context(LIGHT, BUILT))
    assert reviewed.found and all(c.supported for c in reviewed.citations) and not reviewed.notices


def test_an_exclamation_mark_inside_a_word_ends_no_sentence():
    # "... should use #!/usr/bin/env python3 [2]." was cut after "#!", and the first half got a citation inside "# [1]!".
    script, installed = "Each script starts with the line #!/usr/bin/quill and then its commands.", "The interpreter is installed as /usr/bin/quill."
    reviewed = review("Each script starts with #!/usr/bin/quill [2].", "How does a script start?", context(script, installed))
    assert reviewed.answer == "Each script starts with #!/usr/bin/quill [1]." and [(c.n, c.supported) for c in reviewed.citations] == [(1, True)]


def test_a_mark_that_is_its_sentences_subject_stays_where_it_is():
    reviewed = review("[1] says the Quillmoor lighthouse flashes green every 9 seconds.", "Tell me about the lighthouse.", context(LIGHT, BUILT))
    assert reviewed.answer == "[1] says the Quillmoor lighthouse flashes green every 9 seconds."


def test_a_sentence_starting_with_a_number_mid_line_is_judged_as_a_sentence_not_replaced_as_a_list_line():
    answer = "The lighthouse was built in 1887 [2]. 2) It flashes red every 4 seconds [1]."
    reviewed = review(answer, "Tell me about the lighthouse.", context(LIGHT, BUILT))
    assert reviewed.answer == answer and [(c.n, c.supported) for c in reviewed.citations] == [(2, True), (1, False)]


@pytest.mark.parametrize("lead", ["The Quillmoor lighthouse", "Lighthouse log (p. 6): the Quillmoor lighthouse"])
@pytest.mark.parametrize("answer", [
    "[1] {lead} flashes green every 9 seconds. [2] It was built in 1887 by Edda Tarrow.",
    "[1] {lead} flashes green every 9 seconds.\n[2] It was built in 1887 by Edda Tarrow.",
    "[1] {lead} flashes green every 9 seconds. [2] It was built in 1887 by Edda Tarrow [2].",
])
def test_an_answer_opening_with_a_mark_cites_each_sentence_by_the_marks_before_it(answer, lead):
    # Set out as the key sentences are ("[1]" above each), a summary came back "[1] A. [2] B [1]. C [3].": each mark was read
    # as the end of the sentence before it, so A was judged against [1][2] and B lost its [2]. "(p. 6)" ends no sentence
    # ("[1] Python Packaging (p. 6) outlines ..." became "(p [1]." and a list line "6) outlines ...: not found").
    reviewed = review(answer.format(lead=lead), "Tell me about the lighthouse.", context(LIGHT, BUILT))
    assert reviewed.answer.split() == f"{lead} flashes green every 9 seconds [1]. It was built in 1887 by Edda Tarrow [2].".split()
    assert reviewed.found and [c.n for c in reviewed.citations] == [1, 2]
    assert lead != "The Quillmoor lighthouse" or (all(c.supported for c in reviewed.citations) and not reviewed.notices)  # "6" is no page's text


def test_marks_opening_the_steps_after_a_colon_cite_the_steps_not_the_sentence_leading_in():
    # "To run the tests, follow these steps: [1] Move to ... [2] Run ...": the [1] after the colon was read as the lead-in's,
    # which then quoted [1] whole, and the step it opened said the same again after the quote.
    move, run = "Move to the build folder and run cd tests.", "Then run make check to run every test."
    reviewed = review(f"To run the tests, follow these steps: [1] {move[:-1]}. [2] {run[:-1]}.", "How do I run the tests?", context(move, run))
    assert reviewed.answer.split() == f"To run the tests, follow these steps: {move[:-1]} [1]. {run[:-1]} [2].".split()
    assert [(c.n, c.supported) for c in reviewed.citations] == [(1, True), (2, True)] and not any("quotes" in n for n in reviewed.notices)
    # A step citing passages inside itself keeps them where it wrote them: it read "Run one of the commands  or [2] [3] [4]."
    reviewed = review(f"Follow these steps: [1] {move[:-1]}. [2] Run one of the checks [3] or [4].", "How do I run the tests?", context(move, run, run, run))
    assert "Run one of the checks [3] or [4] [2]." in reviewed.answer


@pytest.mark.parametrize("marks", ["[1], [2]", "[1], and [2]", "[1] et [2]", "[1]; [2]"])
def test_marks_written_as_a_list_cite_the_claim_together(marks):
    # "..., citing [1], [2], and [8]." judged the whole sentence against [1] alone (a mark inside it) and flagged [1].
    reviewed = review(f"It flashes green every 9 seconds and was built in 1887 {marks}.", "Tell me about the lighthouse.", context(LIGHT, BUILT))
    assert reviewed.found and [(c.n, c.supported) for c in reviewed.citations] == [(1, True), (2, True)] and not reviewed.notices


def test_citations_flagged_for_one_reason_are_one_notice():
    # A summary's "Key sentences include [1], [2], ... and [8]." gave eight notices saying the same thing.
    reviewed = review("It flashes green every 9 seconds [1]. Its keepers painted it blue and white every spring [1][2].", "Tell me about the lighthouse.", context(LIGHT, BUILT))
    flags = [n for n in reviewed.notices if "may not support" in n]
    assert len(flags) == 1 and flags[0].startswith("Citations [1], [2] may not support the sentence that cites them: ")


def test_a_claim_joining_two_facts_citing_one_gets_the_other_added_and_says_so():
    reviewed = review("It flashes green every 9 seconds and was built in 1887 [1].", "Tell me about the lighthouse.", context(LIGHT, BUILT))
    assert reviewed.found and [(c.n, c.supported) for c in reviewed.citations] == [(1, True), (2, True)]
    assert reviewed.notices == ("Citation [1] says only part of this; [2], which says the rest, was added.",)


def test_a_passage_cited_beside_the_one_that_says_it_all_is_dropped_from_that_sentence():
    # [2] is about something else: nothing of the sentence is in it. Judged together the claim passed, [2] unflagged.
    reviewed = review("The lighthouse was built in 1887 by Edda Tarrow [1][2].", "Who built the lighthouse?", context(BUILT, EXPORT))
    assert reviewed.found and reviewed.answer == "The lighthouse was built in 1887 by Edda Tarrow [1]."
    assert [c.n for c in reviewed.citations] == [1] and any("[2] added nothing" in n for n in reviewed.notices)


def test_a_right_claim_citing_the_wrong_passage_moves_to_the_one_that_states_it():
    reviewed = review("Use the write.grid() function to save a table to a file [2].", "How do I save a table?", context(EXPORT, IMPORT))
    assert reviewed.found and reviewed.answer == "Use the write.grid() function to save a table to a file [1]."
    assert [c.n for c in reviewed.citations] == [1] and reviewed.citations[0].supported
    assert any("now points at [1]" in n for n in reviewed.notices)


def test_a_claim_no_passage_states_is_flagged_with_the_reason():
    answer = "The lighthouse flashes green every 9 seconds [1]. Its keeper was Orla Venn [2]."
    reviewed = review(answer, "Tell me about the lighthouse.", context(LIGHT, BUILT))
    assert reviewed.found and reviewed.answer == answer
    flagged = {c.n: c.reason for c in reviewed.citations if not c.supported}
    assert list(flagged) == [2] and "Orla" in flagged[2] and "Venn" in flagged[2]
    assert any("[2] may not support" in n for n in reviewed.notices)


def test_an_answer_with_no_grounded_claim_is_not_found_with_the_models_reply_shown():
    reviewed = review("The lighthouse keeper was Orla Venn [1].", "Who kept the lighthouse?", context(LIGHT, BUILT))
    assert not reviewed.found and reviewed.answer.startswith("Not found in your documents")
    assert not reviewed.citations and "Orla Venn" in reviewed.notices[0]


def test_an_uncited_claim_gets_the_passage_that_states_it_unless_the_closing_citation_does():
    reviewed = review("The lighthouse was built in 1887. It flashes green every 9 seconds [1].", "When was it built?", context(LIGHT, BUILT))
    assert reviewed.answer == "The lighthouse was built in 1887 [2]. It flashes green every 9 seconds [1]."
    closing = review("The lighthouse flashes green. It flashes every 9 seconds [1].", "How does it flash?", context(LIGHT, BUILT))
    assert closing.answer == "The lighthouse flashes green. It flashes every 9 seconds [1]."


def test_an_uncited_sentence_joining_three_passages_facts_cites_them_and_one_no_passages_state_is_not_found():
    # Seen over R-intro: a right answer citing nothing, one sentence joining what three passages say, was refused as
    # "did not come from your documents": an uncited claim was looked for in one passage at a time.
    keeper = "Orla Venn kept the lighthouse for forty winters."
    answer = "The Quillmoor lighthouse flashes green every 9 seconds, was built in 1887 by Edda Tarrow, and Orla Venn kept it for forty winters."
    reviewed = review(answer, "Tell me about the lighthouse.", context(LIGHT, EXPORT, BUILT, keeper))
    assert reviewed.found and [(c.n, c.supported) for c in reviewed.citations] == [(1, True), (3, True), (4, True)]
    assert "it now cites [1], [3], [4], which say it" in reviewed.notices[0]
    # Joined, the passages still hold no number they do not state.
    made_up = review(answer.replace("forty", "twelve"), "Tell me about the lighthouse.", context(LIGHT, EXPORT, BUILT, keeper))
    assert not made_up.found


def test_an_uncited_sentence_rests_on_the_next_citation_of_its_line_as_the_page_highlights_it():
    # "A. B [1]. C [2].": the page highlights A under [1] (pipeline.said_by_citation); judged against [1] and [2]
    # together it passed on [2]'s words with no mark of its own. Now it is judged as highlighted, and gets [2].
    answer = "The lighthouse was built in 1887. It flashes green [1]. It flashes every 9 seconds [1]. Edda Tarrow built it [2]."
    reviewed = review(answer, "Tell me about the lighthouse.", context(LIGHT, BUILT))
    assert reviewed.answer.startswith("The lighthouse was built in 1887 [2]. It flashes green [1].")
    assert said_by_citation(reviewed.answer)[2].split() == "The lighthouse was built in 1887 [2]. Edda Tarrow built it [2].".split()


def test_an_uncited_sentence_no_passage_states_flags_the_closing_citation_it_leans_on():
    # "What does -z do?" answered "The -z option of quillsort sorts by date. It reads each file in turn [1].": the first
    # sentence, the answer's point, was stated nowhere and cited nothing, so nothing was flagged beside it.
    options = "-r, --reverse: Sort the lines in reverse order.", "quillsort reads each file in turn and sorts its lines."
    reviewed = review("The -z option of quillsort sorts the lines by date. It reads each file in turn [2].", "What does quillsort -z do?", context(*options))
    assert reviewed.found and [(c.n, c.supported) for c in reviewed.citations] == [(2, False)]
    assert "-z" in reviewed.citations[0].reason
    stated = review("quillsort sorts the lines of a file. It reads each file in turn [2].", "What does quillsort do?", context(*options))
    assert [(c.n, c.supported) for c in stated.citations] == [(2, True)]


def test_a_claim_about_the_file_the_question_names_must_rest_on_that_files_passages():
    # Seen in the window over eight made-up tools' manuals: "What does the -y option of quillsort do?" was answered with
    # another manual's -y line, unflagged: "quillsort" was the question's word, which a claim may restate unsaid.
    lines = {"/docs/quillsort.pdf": "-y, --yonder: Drop the header line before sorting.", "/docs/pellwick.pdf": "-y, --yonder: Count a hyphenated word as two."}
    sources = [Source(n, Passage(n, 1, file, "", 3, 0, len(t), t), 0.1, {}, 0.5) for n, (file, t) in enumerate(lines.items(), 1)]
    question = "What does the -y option of quillsort do?"
    wrong = review("The -y option of quillsort counts a hyphenated word as two [2].", question, sources)
    assert not wrong.found and wrong.answer.startswith("Not found in your documents")  # its one claim rests on another file
    from desktop_app.core.answers.model_check import ModelCheck
    from tests.fakes import ScriptedGenerator

    model = ScriptedGenerator()
    model.claim_reply = "yes"  # the model reads "-y: Count a hyphenated word as two" as saying it: no reading makes it quillsort's
    reread = review_answer("The -y option of quillsort counts a hyphenated word as two [2].", True, question, sources, sources, model_check=ModelCheck(model, asks_question=False))
    assert not reread.found
    flagged = review("The -y option of quillsort counts a hyphenated word as two [2]. It drops the header line [1].", question, sources)
    assert [(c.n, c.supported) for c in flagged.citations] == [(2, False), (1, True)] and "not from quillsort" in flagged.citations[0].reason
    right = review("The -y option of quillsort drops the header line before sorting [1].", question, sources)  # its page need not say its file's name
    assert [(c.n, c.supported) for c in right.citations] == [(1, True)] and not right.notices
    unnamed = review("The -y option counts a hyphenated word as two [2].", "What does the -y option of the word counter do?", sources)
    assert [(c.n, c.supported) for c in unnamed.citations] == [(2, True)]


def test_a_list_of_bare_names_the_model_gave_quotes_what_the_documents_say_of_each():
    # The query step named candidates the question does not ("which variable ...?"); a line holding only a name says
    # nothing a person can check, so it shows the sentence that names it, as a line naming one of the question's things does.
    paths = "The main store is ORV_HOME/data, but others can be used by setting the variable ORV_STORE to a list of folders."
    home = "ORV_HOME is the folder the Kelp tools were installed in."
    reviewed = review_answer("- ORV_HOME [2]\n- ORV_STORE [1]", True, "Which variable sets the folders where Kelp keeps its data?",
                             context(paths, home), context(paths, home), names=("ORV_HOME", "ORV_STORE"))
    assert reviewed.answer.splitlines() == [f"- ORV_HOME: \u201c{home}\u201d [2]", f"- ORV_STORE: \u201c{paths}\u201d [1]"]
    assert [c.n for c in reviewed.citations] == [2, 1] and all(c.supported for c in reviewed.citations)
    # A name quotes a sentence holding it as written before one holding a shorter name it starts with.
    user = "ORV_STORE_USER names one more folder, read after the others."
    longer = review_answer("- ORV_STORE_USER [1]", True, "Which variable sets the folders where Kelp keeps its data?",
                           context(paths, home, user), context(paths, home, user), names=("ORV_STORE", "ORV_STORE_USER"))
    assert longer.answer == f"- ORV_STORE_USER: \u201c{user}\u201d [3]"


def test_a_sentence_ending_in_a_colon_quotes_the_passage_it_points_at_even_with_its_citation_on_the_next_line():
    # The model wrote "... the following code:" then "[1]" on a line of its own, and stopped: the code is [1]'s.
    code = "gm <- grid_fit(y ~ x, data=plot1) report(gm) Fit a straight line and look at the results."
    question = "How do I fit a straight line to my plot data and report it?"
    reviewed = review("To fit a straight line and report it, you can use the following code:\n[1]", question, context(code, EXPORT))
    assert reviewed.found and reviewed.answer == f"To fit a straight line and report it, you can use the following code: \u201c{code}\u201d [1]"
    assert [c.n for c in reviewed.citations] == [1] and reviewed.citations[0].supported and "now quotes [1]" in reviewed.notices[0]
    german = review("Dafür gibt es diesen Befehl: [1]", "Wie speichere ich eine Tabelle?", context("Mit write.grid(t, \"a.txt\") wird die Tabelle gespeichert."))
    assert german.answer == "Dafür gibt es diesen Befehl: \u201cMit write.grid(t, \"a.txt\") wird die Tabelle gespeichert.\u201d [1]"


def test_a_sentence_ending_in_a_colon_that_another_passage_states_moves_there_and_quotes_nothing():
    # Seen over R-exts.pdf: "The X file contains basic information about the package in the following format: [1]", copied
    # from the page whose chunk ends at that colon; [1] was a page about something else, and it was quoted as the format.
    lead = "1.1 The pack file The pack file holds the archive's settings in the following format:"
    other = "(A description that is too long probably tries to document too much at once.)"
    reviewed = review("The pack file holds the archive's settings in the following format: [1]", "What does the pack file hold?", context(other, lead))
    assert reviewed.found and other not in reviewed.answer and [(c.n, c.supported) for c in reviewed.citations] == [(2, True)]


def test_an_answer_closing_on_a_comma_before_its_mark_quotes_the_passage_it_points_at():
    # Seen twice in the window over tools' manuals: "... use the --output option followed by the file name. For example,
    # [1]" and the model stopped. The right sentence cited nothing, the mark's fragment stated nothing: refused.
    usage = "grindit -o FILE, --output=FILE: Write the report to FILE instead of to the screen."
    question = "How do I make grindit write its report to a file?"
    reviewed = review("To make grindit write its report to a file, use the --output option followed by the file name. For example, [1]", question, context(usage, EXPORT))
    assert reviewed.found and reviewed.answer.endswith(f"For example, \u201c{usage}\u201d [1]") and [c.n for c in reviewed.citations] == [1]
    # A comma before a mark inside the answer leads in to more of the sentence: no quote ("To clean it, [1] advises ...").
    inside = review("To save a table, [1] says to call write.grid() with the table and a file name.", "How do I save a table?", context(EXPORT))
    assert inside.found and "\u201c" not in inside.answer


@pytest.mark.parametrize("tail", ["\n\nNOT FOUND", " Not found.", "\nNOT FOUND [2]", " NOT FOUND. It was built in 1887 [2]."])
def test_the_not_found_mark_written_after_an_answer_is_taken_out_of_it(tail):
    # The 1.5B model answered from [1], then wrote the prompt's refusal mark: the window showed "... [1]. Not FOUND".
    reviewed = review(f"The lighthouse flashes green every 9 seconds [1].{tail}", "How does the lighthouse flash?", context(LIGHT, BUILT))
    assert reviewed.found and "found" not in reviewed.answer.lower() and reviewed.answer.startswith(f"The lighthouse flashes green every 9 seconds [1].")
    assert reviewed.answer == reviewed.answer.strip() and all(c.supported for c in reviewed.citations) and not reviewed.notices


def test_list_lines_get_the_passage_that_states_them_or_say_not_found():
    answer = "- Quillmoor: flashes green every 9 seconds\n- Edda Tarrow: built the lighthouse in 1887\n- Orla Venn: keeper since 1920"
    reviewed = review(answer, "Who and what are Quillmoor, Edda Tarrow and Orla Venn?", context(LIGHT, BUILT))
    assert reviewed.answer.splitlines() == [
        "- Quillmoor: flashes green every 9 seconds [1]",
        "- Edda Tarrow: built the lighthouse in 1887 [2]",
        "- Orla Venn: not found in your documents.",
    ]


def test_a_list_line_naming_no_thing_says_not_found_whole_instead_of_a_cut_piece_of_itself():
    # "- 612 km (380 mi) [1]", no passage stating it, read "- 612 km (380: not found in your documents.": its first words cut as a name.
    answer = "- Quillmoor: flashes green every 9 seconds [1]\n- 4,380 m (14,370 ft) [2]"
    reviewed = review(answer, "How does the Quillmoor lighthouse flash and how high is it?", context(LIGHT, BUILT))
    assert reviewed.answer.splitlines() == ["- Quillmoor: flashes green every 9 seconds [1]", "- Not found in your documents."]
    assert any("4,380 m (14,370 ft)" in notice for notice in reviewed.notices)


def test_a_list_line_of_bullets_and_marks_only_closes_the_line_above_instead_of_standing_alone():
    # The list instruction once got "- - [1]" lines from the 1.5B model, each under the line its passage states.
    answer = "- Quillmoor: flashes green every 9 seconds\n- - [1]\n- Edda Tarrow: built the lighthouse in 1887\n- [2]"
    reviewed = review(answer, "Who and what are Quillmoor and Edda Tarrow?", context(LIGHT, BUILT))
    assert reviewed.answer.splitlines() == ["- Quillmoor: flashes green every 9 seconds [1]", "- Edda Tarrow: built the lighthouse in 1887 [2]"]
    assert all(c.supported for c in reviewed.citations) and not reviewed.notices


def one_document(*texts: str, title: str = "") -> list[Source]:  # passages of one file, as a page's chunks are
    return [Source(n, Passage(n, 1, "/doc.pdf", title, n, 0, len(t), t), 0.1, {}, 0.5) for n, t in enumerate(texts, 1)]


def test_a_claim_is_pointed_only_at_passages_of_its_own_documents_or_naming_what_it_is_about():
    # A city's population was "completed" with another country's figure, and a country's founding moved to another
    # kingdom's founder: each was shown with no warning. The passages of other documents must name what the claim restates.
    places = context("Velmora is the capital and most populous town of the Isle of Ardent.", "Ostrand has a population of around five million.")
    assert not review("The population of Velmora is around five million [1].", "What is the population of Velmora?", places).found
    kings = context("Ardent, formerly known as Oskar, is a kingdom of the northern sea.", "Orlan the Elder was the founder of the Kestrel Kingdom.")
    assert not review("King Orlan founded Ardent [1].", "Who founded Ardent?", kings).found
    # The same second passage, a passage of the claim's own document: it may say the rest without naming it.
    same = one_document("Velmora is the capital and most populous town of the Isle of Ardent.", "It has a population of around five million.")
    moved = review("The population of Velmora is around five million [1].", "What is the population of Velmora?", same)
    assert moved.found and [(c.n, c.supported) for c in moved.citations] == [(2, True)]


def test_claims_in_german_and_russian_are_judged_by_their_own_words():
    german = one_document("Die Mühle von Kornhalde wurde 1784 gebaut.", "Sie mahlt jährlich 12.000 Tonnen Roggen.")
    reviewed = review("Die Mühle mahlt jährlich 12 000 Tonnen Roggen [1].", "Wie viel Roggen mahlt die Mühle?", german)
    assert reviewed.found and [c.n for c in reviewed.citations] == [2] and all(c.supported for c in reviewed.citations)
    # A claim joining the two passages' facts that cites one of them gets the other added.
    joined = review("Die Mühle von Kornhalde wurde 1784 gebaut und mahlt jährlich 12 000 Tonnen Roggen [1].", "Was ist die Mühle?", german)
    assert joined.found and [c.n for c in joined.citations] == [1, 2] and all(c.supported for c in joined.citations)
    russian = context("Маяк Северной Косы построен в 1902 году.")
    assert review("Маяк построен в 1902 году [1].", "Когда построен маяк?", russian).found
    assert not review("Маяк построен в 1910 году [1].", "Когда построен маяк?", russian).found


def test_an_english_claim_over_a_german_page_is_judged_by_the_names_and_numbers_it_shares_with_it():
    # Before, its English words counted as missing from the German page and a right answer was refused as made up.
    mill = context("Die Mühle von Kornhalde wurde im Jahr 1784 am Ufer der Ossel gebaut.", "Die Brücke von Felsach entwarf Ada Quorn im Jahr 1802.")
    right = review("The Kornhalde mill was built in 1784 on the bank of the Ossel [1].", "When was the Kornhalde mill built?", mill)
    assert right.found and [(c.n, c.supported) for c in right.citations] == [(1, True)] and not right.notices
    # Every number, and every name it shares with the documents, must be in what it cites.
    assert not review("The Kornhalde mill on the bank of the Ossel was built in 1802 [1].", "When was the Kornhalde mill built?", mill[:1]).found
    wrong_page = review("Ada Quorn designed the Felsach bridge in the year 1802 [1].", "Who designed the Felsach bridge?", mill)
    assert wrong_page.found and [c.n for c in wrong_page.citations] == [2] and "now points at [2]" in wrong_page.notices[0]
    # Saying back only the question's names is nothing the words can check.
    assert not review("The Kornhalde mill was built by the Kornhalde mill [1].", "Who built the Kornhalde mill?", mill).found


def test_a_sentence_saying_only_the_questions_words_quotes_the_sentence_it_cites():
    # "The function that writes the DER encoding of a structure is [1]." put its mark where the name should be: every
    # word of it is the question's, so the check passed it, and the answer a person read named nothing.
    passages = context("The kx_write_tree function writes the tree of a structure to its encoded bytes.", "The kx_read_tree function reads encoded bytes back into a tree.")
    reviewed = review("The function that writes the tree of a structure is [1].", "Which function writes the tree of a structure?", passages)
    assert reviewed.found and "kx_write_tree" in reviewed.answer and [c.n for c in reviewed.citations] == [1], reviewed.answer
    # A sentence that says the answer is kept as written.
    named = review("The kx_write_tree function writes it [1].", "Which function writes the tree of a structure?", passages)
    assert named.answer == "The kx_write_tree function writes it [1]." and not named.notices


def test_citations_numbering_the_answers_own_sentences_are_moved_under_one_notice():
    # A summary of pages cited [1], [2], [3] in turn, one per sentence, for sentences [2], [4], [6]: each was moved,
    # and the answer carried a notice per citation, a column of them longer than the answer.
    pages = context(
        "The guide lists the manuals that ship with the program.", "Printed manuals are made with the make pdf command.",
        "Fonts for the printed manuals come from the LaTeX installation.", "The fonts used are Times Roman and Helvetica.",
        "Electronic books are made with the make ebooks command.", "The ebook converter comes from the Calibre program.",
    )
    summary = "Printed manuals are made with the make pdf command [1]. The fonts used are Times Roman and Helvetica [2]. The ebook converter comes from the Calibre program [3]."
    reviewed = review(summary, "Summarize pages 10-12 of the guide", pages)
    assert [c.n for c in reviewed.citations] == [2, 4, 6]
    assert reviewed.notices == ("Citations [1], [2], [3] pointed at passages that do not say their sentences; they now point at [2], [4], [6].",)


def test_an_english_claim_citing_the_wrong_english_page_moves_to_the_german_page_that_states_it():
    # A library mostly in English holding a German manual (seen in the window): the claim's English words are on the
    # English pages, so they were taken for names the German page must hold too, and a right answer was refused.
    pages = context(
        "Bei Frost muss die Teichpumpe aus dem Teich genommen und in einem Eimer mit Wasser gelagert werden.",
        "Mimetypes are stored in the suffix tree, which is written when the database is updated.",
        "The magic data is stored in a binary format with a header, for ease of parsing.",
    )
    moved = review("The pump should be stored in an Eimer with water when there is frost [3].", "How should the pump be stored when there is frost?", pages)
    assert moved.found and [(c.n, c.supported) for c in moved.citations] == [(1, True)] and "now points at [1]" in moved.notices[0]


# A made-up town in three languages: a passage per fact; the claims say the population in words of their own.
TOWNS = {
    "en": (
        ("Tollbridge was founded by salt traders in 1312. The harbour freezes in hard winters.",
         "Today Tollbridge has 4815 inhabitants. The bakery sells rye bread.",
         "The mayor of Tollbridge is Ysolde Markham. The council meets on Mondays."),
        "Tell me about Tollbridge.", "4815 people live in Tollbridge [2].", "5120 people live in Tollbridge [2].",
        "Who is the mayor of Tollbridge?", "The mayor of Tollbridge is Aldous Penhallow [3].",
    ),
    "de": (
        ("Quellbach wurde im Jahr 1312 von Salzhändlern gegründet. Der Hafen friert in harten Wintern zu.",
         "Heute zählt Quellbach 4815 Einwohner. Die Bäckerei verkauft Roggenbrot.",
         "Bürgermeisterin von Quellbach ist Ilse Brandauer. Der Rat tagt montags."),
        "Was weißt du über Quellbach?", "In Quellbach leben 4815 Menschen [2].", "In Quellbach leben 5120 Menschen [2].",
        "Wer ist Bürgermeisterin von Quellbach?", "Bürgermeisterin von Quellbach ist Greta Wohlfahrt [3].",
    ),
    "ru": (
        ("Светлодар был основан солеварами в 1312 году. Зимой гавань замерзает.",
         "Сегодня в Светлодаре проживает 4815 человек. Пекарня продаёт ржаной хлеб.",
         "Мэром Светлодара является Ольга Вереск. Совет собирается по понедельникам."),
        "Что известно о Светлодаре?", "В Светлодаре живут 4815 жителей [2].", "В Светлодаре живут 5120 жителей [2].",
        "Кто мэр Светлодара?", "Мэром Светлодара является Игорь Полозов [3].",
    ),
}


@pytest.mark.parametrize("language", list(TOWNS))
def test_a_right_citation_said_in_other_words_passes_and_a_wrong_value_or_name_is_flagged(language):
    passages, question, right, wrong_value, asked_name, wrong_name = TOWNS[language]
    sources, embedder = context(*passages), HashingEmbedder()
    # The claim's names and numbers are the passage's, its wording is its own ("people live" for "inhabitants"):
    # its nearest sentence in meaning is the cited one, so the citation stands, unflagged.
    kept = review_answer(right, True, question, sources, sources, embedder=embedder)
    assert kept.found and kept.answer == right and [(c.n, c.supported) for c in kept.citations] == [(2, True)] and not kept.notices
    # Another number, or a name no passage holds as the answer asked for, is still not what the passage says.
    assert not review_answer(wrong_value, True, question, sources, sources, embedder=embedder).found
    assert not review_answer(wrong_name, True, asked_name, sources, sources, embedder=embedder).found
    both = review_answer(f"{right} {wrong_name}", True, asked_name, sources, sources, embedder=embedder)
    assert [(c.n, c.supported) for c in both.citations] == [(2, True), (3, False)]


@pytest.mark.parametrize(
    "sentence, pieces",
    [
        ("The apply family runs a function over each element of a grid and returns the results.", lambda s: (w + " " for w in s.split())),
        # "The pump's highest working temperature is 85 degrees and its lowest is minus ten degrees.", a character at a
        # time: written without spaces, a whole clause of it counted as one word before, and the loop ran on for ten copies.
        ("泵的最高工作温度为八十五摄氏度，最低工作温度为零下十摄氏度。", iter),
    ],
)
def test_a_reply_that_repeats_itself_is_stopped_in_its_second_copy_with_a_notice(sentence, pieces):
    pulled = []

    def endless():
        for i in range(200):
            pulled.append(i)
            yield from pieces(sentence)

    notices: list[str] = []
    stream = stream_answer(endless(), lambda: "Not found.", None, notices)
    tokens = []
    try:
        while True:
            tokens.append(next(stream))
    except StopIteration as done:
        answer, found, _ = done.value
    assert found and answer == sentence and notices == [REPEAT_NOTICE]
    assert len(pulled) <= 2 and all(isinstance(t, Token) for t in tokens)  # generation stopped in the second copy


def streamed(pieces) -> tuple[str, list[str]]:
    notices: list[str] = []
    stream = stream_answer(pieces, lambda: "Not found.", None, notices)
    try:
        while True:
            next(stream)
    except StopIteration as done:
        return done.value[0], notices


def test_a_reply_counting_citation_marks_on_is_stopped_at_the_sentence_before_them():
    # Every mark cites another number, so no two runs of words were alike and the loop ran to the token limit.
    pulled = []

    def counting():
        yield "The Quillmoor lighthouse flashes green every 9.5 seconds [1]. The key sentences are "
        for n in range(1, 300):
            pulled.append(n)
            yield f"[{n}], "

    assert streamed(counting()) == ("The Quillmoor lighthouse flashes green every 9.5 seconds [1].", [REPEAT_NOTICE])
    assert len(pulled) <= 12
    several = "It flashes green every 9 seconds [1][2][3][4][5][6]. It was built in 1887 [1][2][3][4][5][6]."
    assert streamed(iter([several])) == (several, [])  # sentences citing several passages each are no loop


def test_marks_citing_passages_the_model_was_never_given_are_taken_out_with_a_notice():
    reviewed = review("The Quillmoor lighthouse flashes green every 9 seconds [1], [9] and [12]. It was built in 1887 [2, 14]. See x[10] in R.", "Tell me about the lighthouse.", context(LIGHT, BUILT))
    assert reviewed.answer.startswith("The Quillmoor lighthouse flashes green every 9 seconds [1]. It was built in 1887 [2].")
    assert "x[10]" in reviewed.answer and [c.n for c in reviewed.citations] == [1, 2] and all(c.supported for c in reviewed.citations)
    assert any("[9], [12], [14]" in n and "given 2 passages" in n for n in reviewed.notices), reviewed.notices


def test_a_quote_is_labelled_with_a_name_only_when_the_document_states_it():
    sources = [
        Source(1, Passage(1, 1, "/orchard.txt", "Orchard notes", 1, 0, 60, "It is not currently shipped by the Pomfret company."), 0.1, {}, 0.5),
        Source(2, Passage(2, 1, "/orchard.txt", "Orchard notes", 1, 0, 60, "Vellmarsh grows 312 crystal pear trees in its orchard."), 0.1, {}, 0.5),
        Source(3, Passage(3, 1, "/orchard.txt", "Orchard notes", 1, 0, 60, "Harrowgate grows 40 plum trees beside the river."), 0.1, {}, 0.5),
    ]
    queries = ("Crystal Pomfret Trees", "Crystal Pomfret Trees origin", "Vellmarsh", "Vellmarsh trees", "Harrowgate", "Harrowgate trees")
    evidence = select_evidence("Where do the trees grow?", np.zeros(1), queries, sources, None, budget_tokens=400, max_sentences=0)
    labels = {q.citation.text: q.name for q in evidence.quotes}
    assert labels["Vellmarsh grows 312 crystal pear trees in its orchard."] == "Vellmarsh"
    assert labels.get("It is not currently shipped by the Pomfret company.", "") != "Crystal Pomfret Trees"


def test_a_name_on_every_quote_and_a_heading_the_place_shows_label_no_quote():
    # One thing asked about: "Pomfret kettle:" before its quotes tells none apart (labels tell a list's things apart); a Word or HTML
    # passage's heading is shown in its place beside the quote, so it is not repeated as its label.
    text = "The Pomfret kettle boils 1.7 litres. It switches off when it runs dry. The Pomfret kettle has a 2 year warranty."
    sources = [Source(1, Passage(1, 1, "/kettle.html", "Kettle", 1, 0, len(text), text, section="3. Using the kettle"), 0.1, {}, 0.5)]
    evidence = select_evidence("What does the kettle do?", np.zeros(1), ("Pomfret kettle", "Pomfret kettle features"), sources, None, budget_tokens=400, max_sentences=0)
    assert len(evidence.quotes) > 1 and {q.name for q in evidence.quotes} == {""}


class _Asked:
    """A question check that records what it was shown and answers as told (True: it answers; False: a doubtful no;
    or a Doubt)."""

    def __init__(self, verdict):
        from desktop_app.core.answers.model_check import Doubt

        self.verdict = verdict if isinstance(verdict, Doubt) else Doubt.NONE if verdict else Doubt.SOME
        self.shown = []

    def doubt(self, question, statement):
        self.shown.append((question, statement))
        return self.verdict

    def states(self, claim, text):  # a claim the words fail is not said in other words either
        return False


def test_a_grounded_answer_to_another_question_is_shown_with_its_citation_flagged():
    # The passage states the claim word for word, but it is not what was asked: only the question check sees that.
    check = _Asked(False)
    sources = context(LIGHT, BUILT, title="Quillmoor lighthouse")
    reviewed = review_answer("The lighthouse was built in 1887 [2].", True, "Who keeps the lighthouse?", sources, sources, model_check=check)
    assert reviewed.found and reviewed.answer == "The lighthouse was built in 1887 [2]."
    assert [(c.n, c.supported) for c in reviewed.citations] == [(2, False)] and "doubts it answers the question" in reviewed.citations[0].reason
    assert any("[2] may not support" in n and "doubts it answers the question" in n for n in reviewed.notices)
    # It was shown the sentence the claim rests on, after its document's title, and the question.
    assert check.shown == [("Who keeps the lighthouse?", "Quillmoor lighthouse: " + BUILT)]


def test_the_question_check_keeps_an_answer_it_confirms_and_is_not_asked_about_an_ungrounded_one():
    confirmed = _Asked(True)
    sources = context(LIGHT, BUILT)
    kept = review_answer("The lighthouse was built in 1887 by Edda Tarrow [2].", True, "Who built the lighthouse?", sources, sources, model_check=confirmed)
    assert kept.found and kept.citations[0].supported and not kept.notices and len(confirmed.shown) == 1
    never = _Asked(True)
    refused = review_answer("The keeper was Orla Venn [1].", True, "Who kept it?", sources, sources, model_check=never)
    assert not refused.found and never.shown == []


def test_a_sure_no_refuses_the_answer_and_shows_the_models_reply():
    from desktop_app.core.answers.model_check import Doubt

    sources = context(LIGHT, BUILT, title="Quillmoor lighthouse")
    reviewed = review_answer("The lighthouse was built in 1887 [2].", True, "Who keeps the lighthouse?", sources, sources, model_check=_Asked(Doubt.SURE))
    assert not reviewed.found and reviewed.answer.startswith("Not found in your documents")
    assert "The lighthouse was built in 1887 [2]." in reviewed.notices[0] and "does not answer the question" in reviewed.notices[0]


CLUB_NAMES = tuple(f"{club} Rowing Club" for club in ("Kestrel", "Heron", "Marl"))
CLUB_QUERIES = tuple(q for name in CLUB_NAMES for q in (name, f"{name} founding year"))  # as split_name_facts writes them
CLUBS = ("The Kestrel Rowing Club was founded in 1894 on the river Aln.", "The Heron Rowing Club was founded in 1902.", "The Marl Rowing Club races as the Marl Otters.")


class _ForItsThing:
    """A question check that says a sentence answers only when it is asked one thing's fact ("Heron Rowing Club:
    founding year"), the sentence names that thing and holds `word`; sure it does not otherwise."""

    def __init__(self, word: str = "founded", otherwise: str = "SURE", refuse_when_sure: bool = True):
        self.word, self.otherwise, self.refuse_when_sure, self.shown = word, otherwise, refuse_when_sure, []

    def doubt(self, question, statement):
        from desktop_app.core.answers.model_check import Doubt

        self.shown.append(question)
        thing, colon, _ = question.partition(":")
        return Doubt.NONE if colon and thing in statement and self.word in statement else Doubt[self.otherwise]

    def states(self, claim, text):
        return False


def test_a_list_answer_is_checked_line_by_line_for_each_lines_own_thing():
    # A question in several parts is answered by several lines, none of which answers it all: asked the whole
    # question, the model was sure each line was no answer, and the right list was refused. Each line is asked its
    # thing's search query now, as the query step wrote it.
    sources = context(*CLUBS[:2])
    answer = "- Kestrel Rowing Club: founded in 1894 [1]\n- Heron Rowing Club: founded in 1902 [2]"
    check = _ForItsThing()
    reviewed = review_answer(answer, True, "When were the two rowing clubs on the Aln founded?", sources, sources, names=CLUB_NAMES, model_check=check, queries=CLUB_QUERIES)
    assert reviewed.found and reviewed.answer == answer and all(c.supported for c in reviewed.citations) and not reviewed.notices
    assert check.shown == [f"{club} Rowing Club: founding year" for club in ("Kestrel", "Heron")]


def test_a_list_line_that_does_not_answer_for_its_thing_says_not_found_and_the_rest_stays():
    # The second line is stated by its passage, but a club's racing name is not its founding year.
    sources = context(CLUBS[0], CLUBS[2])
    answer = "- Kestrel Rowing Club: founded in 1894 [1]\n- Marl Rowing Club: races as the Marl Otters [2]"
    reviewed = review_answer(answer, True, "When were the rowing clubs on the Aln founded?", sources, sources, names=CLUB_NAMES, model_check=_ForItsThing(), queries=CLUB_QUERIES)
    assert reviewed.found and reviewed.answer == "- Kestrel Rowing Club: founded in 1894 [1]\n- Marl Rowing Club: not found in your documents."
    assert [(c.n, c.supported) for c in reviewed.citations] == [(1, True)] and any("for Marl Rowing Club" in n for n in reviewed.notices)
    # No line answering for its thing: the answer is not found, the model's reply in the notice.
    refused = review_answer(answer, True, "When were the rowing clubs on the Aln founded?", sources, sources, names=CLUB_NAMES, model_check=_ForItsThing("Aln valley"), queries=CLUB_QUERIES)
    assert not refused.found and "Marl Otters" in refused.notices[0]


def test_a_list_line_the_model_doubts_says_not_found_when_refusing_and_is_flagged_otherwise():
    # The query step may guess the names a question asks for; a guessed name's line the model is unsure of is no answer.
    sources = context(CLUBS[0], CLUBS[2])
    answer = "- Kestrel Rowing Club: founded in 1894 [1]\n- Marl Rowing Club: races as the Marl Otters [2]"
    question = "When were the rowing clubs on the Aln founded?"
    refusing = review_answer(answer, True, question, sources, sources, names=CLUB_NAMES, model_check=_ForItsThing(otherwise="SOME"), queries=CLUB_QUERIES)
    assert refusing.answer.endswith("- Marl Rowing Club: not found in your documents.")
    flagging = review_answer(answer, True, question, sources, sources, names=CLUB_NAMES, model_check=_ForItsThing(otherwise="SOME", refuse_when_sure=False), queries=CLUB_QUERIES)
    assert flagging.answer == answer and [(c.n, c.supported) for c in flagging.citations] == [(1, True), (2, False)]


class _AnswersIn:
    """A question check that is sure (or as doubtful as `otherwise` says) every sentence is no answer but those holding
    `word`, recording what it read."""

    def __init__(self, word: str, otherwise=None):
        from desktop_app.core.answers.model_check import Doubt

        self.word, self.otherwise, self.shown = word, otherwise or Doubt.SURE, []

    def doubt(self, question, statement):
        from desktop_app.core.answers.model_check import Doubt

        self.shown.append(statement)
        return Doubt.NONE if self.word in statement else self.otherwise

    def states(self, claim, text):
        return False


def test_an_answer_that_sets_the_scene_first_is_kept_when_a_later_sentence_answers():
    # The first sentence only introduces the lighthouse; the second says what was asked. The check reads on to it.
    check = _AnswersIn("Tarrow")
    sources = context(LIGHT, BUILT, title="Quillmoor lighthouse")
    answer = "The Quillmoor lighthouse flashes green every 9 seconds [1]. It was built in 1887 by Edda Tarrow [2]."
    reviewed = review_answer(answer, True, "Who built the lighthouse?", sources, sources, model_check=check)
    assert reviewed.found and all(c.supported for c in reviewed.citations) and not reviewed.notices
    assert check.shown == ["Quillmoor lighthouse: " + LIGHT, "Quillmoor lighthouse: " + BUILT]


def test_a_chinese_answer_is_checked_sentence_by_sentence_against_the_sentence_it_rests_on():
    # "。" ends a sentence with no space after it. Before, a Chinese passage was one "sentence": the model's check read
    # the whole passage (here three times the tokens), and a two-sentence answer was one claim.
    check = _AnswersIn("新秋镇")
    page = "孙玉文于1916年出生在一个钟表匠家庭。孙玉文出生于新秋镇。1977年，孙玉文创办了华山安公司。"
    sources = context(page, title="孙玉文")
    answer = "孙玉文出生于新秋镇。[1]他创办了华山安公司。[1]"
    reviewed = review_answer(answer, True, "孙玉文出生在哪里？", sources, sources, model_check=check)
    assert reviewed.found and all(c.supported for c in reviewed.citations) and not reviewed.notices
    assert check.shown == ["孙玉文: 孙玉文出生于新秋镇。"]


def test_the_question_check_reads_a_manuals_returns_line_after_the_line_naming_its_function():
    # Seen in the window over libtasn1's manual: "Returns: Version string of run-time library ..." alone does not say whose
    # version string, so the check doubted a right answer and flagged it. It now reads the line naming the function first.
    from desktop_app.core.answers.model_check import Doubt

    check = _AnswersIn("gz_probe_level", otherwise=Doubt.SOME)
    page = ("Returns: the handle, or NULL on error. gz probe level [Function] int gz_probe_level (const char * name) name: the "
            "archive to read. Reads the compression level that the named archive was written with. Returns: the level, from 1 to 9.")  # as the model read it
    sources = context(page, title="gzkit manual")
    reviewed = review_answer("gz_probe_level returns the level, from 1 to 9 [1].", True, "What does gz_probe_level return?", sources, sources, model_check=check)
    assert reviewed.found and all(c.supported for c in reviewed.citations) and not reviewed.notices, reviewed.notices
    assert check.shown[0].endswith("… Returns: the level, from 1 to 9.") and "int gz_probe_level" in check.shown[0]


def test_the_question_check_reads_the_line_naming_the_function_in_the_passage_of_the_same_page_before_the_cited_one():
    # Seen in the window over libtasn1's manual: a passage began below "int asn1_delete_element (asn1 node structure,
    # const char *", its line naming the function, which the passage before it on the page held. The check read "Deletes
    # the element named ..." alone, doubted a right answer and flagged it.
    from desktop_app.core.answers.model_check import Doubt

    check = _AnswersIn("gz_drop_entry", otherwise=Doubt.SOME)
    before = "gz drop archive [Function] int gz_drop_archive (gz handle * archive) Closes the archive. [Function] int gz_drop_entry (gz handle archive, const char *"
    cited = "entry_name) archive: the archive holding the entry. Removes the entry named entry_name from the archive. Returns: 0 on success."
    sources = [Source(n, Passage(n, 1, "/gzkit.pdf", "gzkit manual", 12, start, start + len(t), t), 0.1, {}, 0.5) for n, (start, t) in enumerate([(0, before), (len(before) - 30, cited)], 1)]
    reviewed = review_answer("gz_drop_entry removes the entry named entry_name from the archive [2].", True, "What does gz_drop_entry do?", sources, sources, model_check=check)
    # [2] never names the function (a name joined by underscores is a code, as written): the passage naming it is added.
    assert reviewed.found and all(c.supported for c in reviewed.citations), (reviewed.notices, check.shown)
    assert reviewed.notices == ("Citation [2] says only part of this; [1], which says the rest, was added.",)
    assert "int gz_drop_entry" in check.shown[0] and check.shown[0].endswith("Removes the entry named entry_name from the archive.")


def test_the_question_check_reads_the_sentence_holding_the_answers_number_over_one_sharing_the_questions_word():
    # Seen in the window: "... three years from the date of purchase [1]" over a German manual was flagged. The check
    # read the frost sentence, holding "Pumpe" (the question's word) and "Frost" (first letters of "from"), not the one
    # saying "drei Jahre": a number the claim adds now weighs as in the grounding check (words.telling).
    from desktop_app.core.answers.model_check import Doubt

    check = _AnswersIn("drei Jahre", otherwise=Doubt.SOME)
    page = "Bei Frost muss die Pumpe aus dem Teich genommen werden. Die Garantie beträgt drei Jahre ab Kaufdatum."
    sources = context(page, title="Teichpumpe")
    question = "How long is the warranty of the pond pump?"
    reviewed = review_answer("The warranty of the pond pump is three years from the date of purchase [1].", True, question, sources, sources, model_check=check)
    assert reviewed.found and all(c.supported for c in reviewed.citations) and not reviewed.notices, (reviewed.notices, check.shown)


class _Near:
    """An embedder that finds the claim nearest in meaning to one sentence (holding `near`), and far from the rest."""

    def __init__(self, near: str, claim_word: str):
        self.near, self.claim_word = near, claim_word

    def embed(self, texts):
        return np.array([[1.0, 0.0] if self.near in t or self.claim_word in t else [0.0, 1.0] for t in texts], dtype=np.float32)


def test_a_passage_that_adds_none_of_a_claims_words_is_never_added_to_complete_it():
    # Seen in the window: an English answer to a Japanese question about a kettle, "... 1.2 liters [1]", got [6], a page of
    # the R manual about plot axes, "added for the rest": it was only nearest in meaning, and it holds no word of the claim.
    kettle, axes = "このケトルの容量は1.2リットルです。", "Character expansion sets the size of text on the axes."
    sources = context(kettle, axes)
    answer = "The capacity of the kettle is 1.2 liters [1]."
    near = _Near("Character", "kettle")
    reviewed = review_answer(answer, True, "How much does the kettle hold?", sources, sources, embedder=near)
    assert not any(c.n == 2 for c in reviewed.citations) and not any("which says the rest" in n for n in reviewed.notices), reviewed
    # The model, reading the Japanese sentence, says it states the claim: the answer stands on [1] alone.
    reads = _AnswersIn("1.2")
    reads.states = lambda claim, text: "1.2" in text
    kept = review_answer(answer, True, "How much does the kettle hold?", sources, sources, embedder=near, model_check=reads)
    assert kept.found and [(c.n, c.supported) for c in kept.citations] == [(1, True)], kept


def test_an_answer_none_of_whose_sentences_answers_is_refused_however_many_it_copies():
    # A copy of the article's opening sentences, none saying what was asked: before, a second sentence saved it.
    check = _AnswersIn("keeper")
    sources = context(LIGHT, BUILT, title="Quillmoor lighthouse")
    answer = "The Quillmoor lighthouse flashes green every 9 seconds [1]. The lighthouse was built in 1887 by Edda Tarrow [2]."
    reviewed = review_answer(answer, True, "Who keeps the lighthouse?", sources, sources, model_check=check)
    assert not reviewed.found and reviewed.answer.startswith("Not found in your documents") and "does not answer the question" in reviewed.notices[0]
    assert len(check.shown) == 2  # each sentence read once


def test_a_passage_added_only_to_complete_a_claim_cannot_vouch_that_it_answers_the_question():
    # The model took another place's capital ([2]) and named the place asked about; the review adds [1] for the name.
    # The check reads the passage the model cited, not the one added for a name: a sentence that only introduces the
    # place once passed as the answer, and the wrong capital was shown with no warning.
    from desktop_app.core.answers.model_check import Doubt

    check = _AnswersIn("north shore", otherwise=Doubt.SOME)  # the model's false yes to an introduction
    sources = [*context("Vellmarsh is a town on the north shore of the sound, an hour from the capital.", title="Vellmarsh"), *context("", "The capital and largest town is Brannhavn.", title="Orsa county")[1:]]
    reviewed = review_answer("The capital of Vellmarsh, a town on the sound, is Brannhavn [2].", True, "What is the capital of Vellmarsh?", sources, sources, model_check=check)
    assert any("[1], which says the rest, was added" in n for n in reviewed.notices), reviewed.notices
    assert reviewed.found and [(c.n, c.supported) for c in reviewed.citations] == [(2, False), (1, True)]
    assert check.shown == ["Orsa county: The capital and largest town is Brannhavn."]


def test_a_passage_cited_beside_the_one_that_answers_does_not_cast_doubt_on_the_answer():
    # The sentence joins both passages' words; the one holding more of them (how to save a table) is not what was
    # asked, the other (how to read one) is. The check reads each cited passage's sentence until one answers.
    check = _AnswersIn("reads")
    sources = context(EXPORT, IMPORT, title="Grid manual")
    answer = "To read a table from a file, call read.grid() with the table and a file name [1][2]."
    reviewed = review_answer(answer, True, "How do I read a table from a file?", sources, sources, model_check=check)
    assert reviewed.found and [(c.n, c.supported) for c in reviewed.citations] == [(1, True), (2, True)] and not reviewed.notices
    assert check.shown == ["Grid manual: " + EXPORT, "Grid manual: " + IMPORT]


class _MeaningOf:
    """An embedder for which only the texts holding `word` are alike (a stand-in for meaning)."""

    def __init__(self, word: str):
        self.word = word

    def embed(self, texts):
        return np.array([[1.0, 0.0] if self.word in t.lower() else [0.0, 1.0] for t in texts])


def test_a_sentence_sharing_more_filler_words_does_not_hide_the_one_that_answers():
    # The other sentence of the passage holds more of the claim's words ("from", "objects") but is about printing;
    # the check reads it first, doubts it, then reads the sentence nearest the claim in meaning, which answers.
    check = _AnswersIn("created")
    sources = context("The show() function prints grids differently from other objects. A grid is created with the grid() function.", title="Grid manual")
    answer = "The grid() function creates a grid object from a list of values [1]."
    reviewed = review_answer(answer, True, "What does the grid() function do?", sources, sources, embedder=_MeaningOf("creat"), model_check=check)
    assert reviewed.found and [(c.n, c.supported) for c in reviewed.citations] == [(1, True)] and not reviewed.notices
    assert check.shown == ["Grid manual: The show() function prints grids differently from other objects.", "Grid manual: A grid is created with the grid() function."]


@pytest.mark.parametrize("reply, doubt", [("no", "SOME"), ("No.", "SOME"), ("yes", "NONE"), ("Yes, it does", "NONE"), ("", "NONE"), ("Ja", "NONE")])
def test_without_odds_only_a_plain_no_counts_and_it_only_flags(reply, doubt):
    from desktop_app.core.answers.model_check import Doubt, ModelCheck
    from tests.fakes import ScriptedGenerator

    model = ScriptedGenerator()  # a backend that gives no odds: its reply is read
    model.check_reply = reply
    assert ModelCheck(model).doubt("Who built it?", "Lighthouse: It was built in 1887.") is Doubt[doubt]
    assert "Who built it?" in model.checks[0][-1]["content"] and "built in 1887" in model.checks[0][-1]["content"]


@pytest.mark.parametrize("no, yes, refusing, doubt", [
    (0.9, 0.1, True, "SURE"), (0.9, 0.1, False, "SOME"), (0.55, 0.4, True, "SOME"), (0.2, 0.7, True, "NONE"), (0.0, 0.0, True, "SOME"),
])
def test_with_odds_a_sure_no_refuses_when_asked_to_and_a_doubtful_one_flags(no, yes, refusing, doubt):
    from desktop_app.core.answers.model_check import Doubt, ModelCheck
    from tests.fakes import ScriptedGenerator

    class WithOdds(ScriptedGenerator):
        def reply_odds(self, messages, words):
            return {"no": no, "yes": yes}

    model = WithOdds()
    model.check_reply = "no"  # read only when the odds say nothing (neither word likely)
    assert ModelCheck(model, refuse_when_sure=refusing).doubt("Who built it?", "Lighthouse: It was built in 1887.") is Doubt[doubt]


class _Reader:
    """A model check that reads claims: says a claim is stated when told to, and records what it was shown."""

    def __init__(self, stated: bool):
        self.stated, self.read = stated, []

    def doubt(self, question, statement):
        from desktop_app.core.answers.model_check import Doubt

        return Doubt.NONE

    def states(self, claim, text):
        self.read.append((claim, text))
        return self.stated


LAB = "The Tamsin laboratory is headed by the chemist Ilse Varga. Its freezers keep samples at minus 80 degrees."


def test_a_claim_in_other_words_is_kept_when_the_model_reads_it_in_the_cited_sentence():
    # The words fail ("charge" is in no passage); the model, shown the cited sentence, reads it there.
    sources = context(LAB, BUILT, title="Tamsin laboratory")
    answer, question = "Ilse Varga is in charge of the lab at Tamsin [1].", "Who leads the Tamsin laboratory?"
    reader = _Reader(True)
    reviewed = review_answer(answer, True, question, sources, sources, model_check=reader)
    assert reviewed.found and reviewed.citations[0].supported and not reviewed.notices
    assert reader.read == [("Ilse Varga is in charge of the lab at Tamsin.", "Tamsin laboratory: The Tamsin laboratory is headed by the chemist Ilse Varga.")]
    # Without the model, or when it does not read it there, the same answer is refused.
    for check in (None, _Reader(False)):
        assert not review_answer(answer, True, question, sources, sources, model_check=check).found


def test_a_number_the_question_states_is_no_changed_figure_and_the_model_may_read_the_claim_holding_it():
    # Seen in the window over a build tool's manual (made up here): "run 4 jobs" answered "use the flag followed by the
    # number of jobs, in this case 4 [1]" over a page showing the flag with 20. The 4 was the person's, yet it was
    # read as a changed figure: the model was never asked, and the right answer was refused.
    page = "Many flags match those of the old firmware; e.g. kiln -p 20 runs 20 firing programs at once."
    sources = context(page, BUILT, title="Kiln manual")
    question = "How do I make the kiln run 4 programs at once?"
    answer = "To make the kiln run 4 programs at once, use the -p flag followed by the number of programs you want, in this case 4 [1]."
    reader = _Reader(True)
    reviewed = review_answer(answer, True, question, sources, sources, model_check=reader)
    assert reviewed.found and reviewed.citations[0].supported and len(reader.read) == 1
    # A number neither the question nor the page states is still a changed figure the model never vouches for.
    reader = _Reader(True)
    changed = review_answer("The kiln runs 40 firing programs at once with -p [1].", True, "How many programs can the kiln run at once?", sources, sources, model_check=reader)
    assert not changed.found and reader.read == []
    # Nor is a code the question names (a model's, a version's): the page about another model does not state it.
    coded = review_answer("The kiln K7 runs firing programs at once when started with the flag [1].", True, "How does the kiln K7 run programs at once?", sources, sources, model_check=reader)
    assert not coded.found and reader.read == []


def test_the_model_never_vouches_for_a_changed_number_or_a_claim_adding_nothing_and_reads_at_most_two_claims():
    sources = context(LIGHT, BUILT)
    reader = _Reader(True)
    reviewed = review_answer("The lighthouse flashes green every 12 seconds [1].", True, "How often does it flash?", sources, sources, model_check=reader)
    assert not reviewed.found and reader.read == []  # a changed figure is a wrong fact, whatever the model says
    empty = review_answer("To see how the lighthouse flashes, use the command [1].", True, "How does the lighthouse flash?", sources, sources, model_check=reader)
    assert not empty.found and reader.read == []  # it adds one word to the question: nothing for the model to vouch for
    many = " ".join(f"The {word} tower glows softly [1]." for word in ("north", "south", "east", "west", "high"))
    reader = _Reader(False)
    review_answer(many, True, "Tell me about the towers.", sources, sources, model_check=reader)
    assert len(reader.read) == 2


def test_an_english_claim_saying_a_number_in_words_is_grounded_by_the_german_page_spelling_it_and_highlights_that_sentence():
    # Seen in the window: "... is three years [1]" over a German manual saying "drei Jahre" was flagged, and the first
    # sentence of the page was highlighted. A spelled number is now read as its digits, in the language of its text.
    manual = context(
        "Die Teichpumpe PF-200 fördert bis zu 2000 Liter pro Stunde. Sie eignet sich für Teiche bis zehn Kubikmeter. "
        "Der Hersteller gewährt auf die Teichpumpe drei Jahre Garantie."
    )
    question = "How long is the warranty on the PF-200 pond pump?"
    right = review("The PF-200 pond pump has a warranty of three years [1].", question, manual)
    assert right.found and [(c.n, c.supported) for c in right.citations] == [(1, True)] and not right.notices
    highlighted = manual[0].passage.text[right.citations[0].start - manual[0].passage.start : right.citations[0].end - manual[0].passage.start]
    assert "drei Jahre" in highlighted, highlighted
    assert not review("The PF-200 pond pump has a warranty of five years [1].", question, manual).found


def test_an_english_claim_is_grounded_by_a_chinese_page_writing_its_number_in_characters():
    # Seen in the window: "The warranty ... is two years [1]" and "... every six months [1]" over a made-up Chinese
    # manual saying "两年" and "每六个月" were refused as made up: characters were no numbers, and a number word shorter
    # than four letters ("two", "six") was not read at all.
    manual = context("第三章 保修说明。本产品整机保修期为两年，电机保修期为五年。", "复合滤网应每六个月更换一次。", title="QL-300")
    for claim in ("The QL-300 has a warranty of two years [1].", "The filter of the QL-300 is replaced every six months [2].", "The filter is replaced every 6 months [2]."):
        right = review(claim, "How long is the warranty of the QL-300?", manual)
        assert right.found and all(c.supported for c in right.citations) and not right.notices, claim
    # A number the page does not state is not: nor is a chapter's ordinal ("第三章", chapter three) a claim's three.
    for claim in ("The QL-300 has a warranty of three years [1].", "The filter of the QL-300 is replaced every eight months [2]."):
        assert not review(claim, "How long is the warranty of the QL-300?", manual).found, claim


def test_a_mark_after_a_reference_to_the_passage_leaves_its_sentence_one_claim():
    # Seen in the window: "The passage [1] states that ... takes three hours [1]." was cut after the first mark, and
    # "The passage [1]" was flagged: "the cited passages do not say passage". A piece before a mark inside a sentence
    # is a claim of its own only when it states a number or more than a subject.
    lamp = context("Полная зарядка фонаря занимает три часа. Индикатор горит красным.", title="Sokol-12")
    right = review("The passage [1] states that a full charge of the Sokol-12 takes three hours [1].", "How long does the Sokol-12 take to charge?", lamp)
    assert right.found and [(c.n, c.supported) for c in right.citations] == [(1, True)] and not right.notices
    page = context("The pump comes with a warranty of three years. Keep the receipt.", title="Pump manual")
    for answer in ("The passage [1] states that the pump comes with a warranty of three years [1].", "According to passage [1], the pump comes with a warranty of three years [1]."):
        right = review_answer(answer, True, "How long is the warranty of the pump?", page, page, embedder=HashingEmbedder())
        assert right.found and [(c.n, c.supported) for c in right.citations] == [(1, True)] and not right.notices, answer
    # A piece that states a fact of its own is still judged alone, against what it cites.
    two = context(LIGHT, BUILT)
    mixed = review("The Quillmoor lighthouse flashes green every 9 seconds [2] and was built in 1887 [2].", "Tell me about the lighthouse.", two)
    assert mixed.found and "now points at [1]" in mixed.notices[0]


def test_a_claim_in_another_language_holding_a_range_of_numbers_is_grounded_by_them():
    # Seen in the window: "What does page 2 of X say?" over a Russian spec page, answered in English "… voltage range of
    # 220-240 volts, frequency of 50 Hz …", was refused: across languages only numbers and names are compared, and
    # "220 240", written side by side to be judged, read as 220240 (a space groups thousands: "1 450 W").
    sources = context("Технические характеристики. Мощность: 2200 Вт. Напряжение: 220–240 В, 50 Гц. Масса: 1,1 кг.")
    right = "The voltage range is 220-240 volts and the frequency 50 Hz [1]."
    kept = review_answer(right, True, "What are the technical specifications?", sources, sources, embedder=HashingEmbedder())
    assert kept.found and [(c.n, c.supported) for c in kept.citations] == [(1, True)]
    wrong = review_answer("The voltage range is 110-120 volts and the frequency 60 Hz [1].", True, "What are the technical specifications?", sources, sources, embedder=HashingEmbedder())
    assert not wrong.found


GRINDER = (  # a made-up Russian coffee grinder's manual: cleaning, then its warranty
    "Перед чисткой отключите кофемолку от сети. Снимите верхний жернов, повернув его против часовой стрелки, "
    "и удалите остатки молотого кофе мягкой кисточкой. Гарантийный срок составляет 24 месяца."
)


def test_an_english_claim_whose_mark_follows_a_leading_clause_is_read_by_the_model_in_the_russian_passage():
    # Seen in the window: "To clean the coffee grinder, [1] advises to remove the upper burr ..." was cut after the
    # mark, the leading clause only repeated the question and the rest cited nothing: "Not found", with the right quotes
    # above it. No word of an English claim picks a sentence of a Russian page, so the model reads the passage.
    sources = context(GRINDER, LIGHT, title="Zerno M7")
    answer = "To clean the coffee grinder, [1] advises to unplug it, take off the upper burr and brush away the ground coffee."
    reader = _Reader(True)
    reviewed = review_answer(answer, True, "How do I clean the coffee grinder?", sources, sources, model_check=reader)
    assert reviewed.found and [(c.n, c.supported) for c in reviewed.citations] == [(1, True)], reviewed.notices
    assert len(reader.read) == 1 and "мягкой кисточкой" in reader.read[0][1]
    # The model's no still refuses it: nothing else vouches for a claim in another language with no number or name.
    assert not review_answer(answer, True, "How do I clean the coffee grinder?", sources, sources, model_check=_Reader(False)).found


def test_an_english_claim_naming_german_places_over_an_english_page_is_judged_by_its_words():
    # "X was born in <a German town>, Germany." reads as German to the identifier by itself, so it was judged as a claim
    # in another language than its page, by the names it shares with it: the town the page never names went unchecked.
    page = context("Wilhelm Kornhaus was a German composer who wrote more than three hundred songs for choirs.")
    reviewed = review("Wilhelm Kornhaus was born in Oberschweinbach, Germany [1].", "Where was Wilhelm Kornhaus born?", page)
    assert not reviewed.found


def test_a_claim_citing_a_number_beyond_the_passages_is_reviewed_without_failing():
    # The model cited [7] of five passages; pointing the claim elsewhere looked that passage up and the answer failed.
    places = context("Velmora is the capital of the Isle of Ardent.", "Velmora has around five million people.")
    reviewed = review("Velmora is the capital of the Isle of Ardent and has around five million people [7].", "What is Velmora?", places)
    assert reviewed.found and [c.n for c in reviewed.citations] == [1, 2]  # the mark taken out, it cites the two passages stating it together


def test_an_answer_resting_on_a_passage_without_a_sentence_to_read_is_reviewed_without_failing():
    # "... as follows: [1]" quotes its passage; one of short words only gave the question check no sentence to read,
    # and the review stopped with "min() arg is an empty sequence" (a multi-hop report question).
    sources = context("to be or not to be")
    reviewed = review_answer("He wrote it as follows: [1]", True, "What did he write?", sources, sources, model_check=_AnswersIn("nothing"))
    assert reviewed.found and "to be or not to be" in reviewed.answer


def test_the_question_check_reads_a_sentence_a_pdf_wrapped_over_two_lines_whole():
    # A PDF page's text keeps its line breaks. Before, the check read only a wrapped sentence's last line, "by Edda
    # Tarrow, a harbour engineer.", which names no lighthouse and no year.
    check = _Asked(True)
    sources = context("The Quillmoor lighthouse was built in 1887\nby Edda Tarrow, a harbour engineer.", title="Quillmoor lighthouse")
    reviewed = review_answer("The lighthouse was built in 1887 by Edda Tarrow [1].", True, "Who built the lighthouse?", sources, sources, model_check=check)
    assert reviewed.found and reviewed.citations[0].supported
    assert check.shown == [("Who built the lighthouse?", "Quillmoor lighthouse: The Quillmoor lighthouse was built in 1887 by Edda Tarrow, a harbour engineer.")]


def test_a_right_answer_from_a_table_cell_is_checked_on_its_row_under_the_header_and_kept():
    # Seen over a datasheet's table: the check read only the table's last row, another model's, was sure it did not
    # answer, and the right answer became "Not found".
    table = "| Model | Maximum pressure | Flow rate |\n|---|---|---|\n| KV-1 | 4 bar | 20 l/min |\n| KV-2 | 11 bar | 35 l/min |\n| KV-3 | 16 bar | 50 l/min |"
    sources = [Source(1, Passage(1, 1, "/pumps.pdf", "Booster pumps", 1, 0, len(table), table, kind="table"), 0.1, {}, 0.5)]
    check = _AnswersIn("KV-2 | 11 bar")
    reviewed = review_answer("The maximum pressure of the KV-2 is 11 bar [1].", True, "What is the maximum pressure of the KV-2?", sources, sources, model_check=check)
    assert reviewed.found and reviewed.citations[0].supported and not reviewed.notices
    assert check.shown == ["Booster pumps: | Model | Maximum pressure | Flow rate | | KV-2 | 11 bar | 35 l/min |"]


def test_an_english_claim_over_a_chinese_page_is_checked_on_each_sentence_holding_its_name_and_number():
    # In another language a claim shares only names and numbers with its page. Two sentences of the page hold "Morvane
    # K2" and "9" alike; before, the check read only the first, the pump's weight, was sure it did not answer, and the
    # right answer became "Not found".
    check = _AnswersIn("运行")
    page = "Morvane K2抽水机不带水管时重9公斤。Morvane K2抽水机充一次电可以运行9小时。Morvane K2抽水机由霍山工坊制造。"
    sources = context(page, title="Morvane K2")
    answer = "The Morvane K2 pump runs for 9 hours on one charge [1]."
    reviewed = review_answer(answer, True, "How long does the Morvane K2 pump run on one charge?", sources, sources, model_check=check)
    assert reviewed.found and reviewed.citations[0].supported
    assert check.shown[-1] == "Morvane K2: Morvane K2抽水机充一次电可以运行9小时。"


def test_an_ellipsis_inside_code_ends_no_sentence():
    # "... use `quill pack -o /out f1 f2 ...` [1]." was cut after the "...": the claim lost its mark, so its wrong citation
    # could not move to the passage stating it, and a right answer was refused.
    usage, options = "To pack files from a terminal use quill pack -o /out f1 f2 ...", "Packing writes the archive to the folder that -o names."
    reviewed = review("To pack files, run `quill pack -o /out f1 f2 ...` [1].", "How do I pack files?", context(options, usage))
    assert reviewed.found and [(c.n, c.supported) for c in reviewed.citations] == [(2, True)]


def test_a_name_joined_by_underscores_must_be_in_the_passage_as_written():
    # As a dotted name: "read_csv" is not "read.csv", nor a page's "read()" (the claim's other words all there).
    reviewed = review("Call the pack_files() function with the folder to pack it [1].", "How do I pack a folder?", context("Call the pack() function with a folder's path to pack the folder's files."))
    assert not reviewed.found
    written = review("Call the pack_files() function with the folder to pack it [1].", "How do I pack a folder?", context("Call the pack_files() function with a folder's path to pack the folder's files."))
    assert written.found and [c.supported for c in written.citations] == [True]


def test_a_sentence_citing_nothing_leans_on_the_marks_the_model_wrote_not_on_one_the_check_added():
    # The check gave the third sentence the passage stating it; the first two leaned on that mark, so the first, which
    # [1] states, showed no citation, and [1] was flagged for the second, which no passage states.
    answer = "The Quillmoor lighthouse flashes green every 9 seconds. Its lamp burns whale oil imported from Norway. It was built in 1887 by Edda Tarrow."
    reviewed = review(answer, "Tell me about the lighthouse.", context(LIGHT, BUILT))
    assert reviewed.answer.startswith("The Quillmoor lighthouse flashes green every 9 seconds [1].")
    assert [(c.n, c.supported) for c in reviewed.citations] == [(1, True), (2, True)]
    assert any("without a citation that no passage was found to state" in n and "whale oil" in n for n in reviewed.notices)


def test_a_sentence_citing_nothing_follows_its_lines_closing_mark_where_the_check_moved_it():
    # "A. B [1]." cites A by B's mark: when [1] moves to the passage stating B, a wrong A is flagged there, where the reader sees it.
    reviewed = review("The Quillmoor lighthouse flashes red every 4 seconds. It was built in 1887 by Edda Tarrow [1].", "Tell me about the lighthouse.", context(LIGHT, BUILT))
    assert reviewed.found and [(c.n, c.supported) for c in reviewed.citations] == [(2, False)]


def test_a_sentence_citing_nothing_gets_the_passage_stating_it_though_another_names_more_of_the_question():
    # "How do I register native routines?": the passage stating the answer says "routines", another passage "native";
    # a claim citing nothing is about no cited document, so the passage stating it is not required to name "native".
    states, native, twice = "To register routines with Quill, one calls quill_register_routines.", "Native routines live in the shared library.", "Register each routine once: registering twice is an error."
    reviewed = review("To register native routines, one calls quill_register_routines.", "How do I register native routines?", context(native, twice, states))
    assert reviewed.found and [(c.n, c.supported) for c in reviewed.citations] == [(3, True)]


class _AnsweredBy(_Asked):
    """A question check that says a statement answers only when it holds `words`, and is sure the others do not."""

    def __init__(self, words):
        from desktop_app.core.answers.model_check import Doubt

        super().__init__(Doubt.SURE)
        self.words = words

    def doubt(self, question, statement):
        from desktop_app.core.answers.model_check import Doubt

        self.shown.append((question, statement))
        return Doubt.NONE if self.words in statement else Doubt.SURE


def test_a_claim_restating_the_questions_condition_cites_the_passage_that_states_it_too():
    # Asked how to install without administrator rights, the model cited the passage naming the installer, which says
    # nothing of rights: the question check read that passage alone and refused a right answer. The passage saying the
    # installer works without them was among those read; it is cited too, and the question check reads it.
    without = "The setup program also lets you install Tessel without an admin account; the FAQ has the details."
    setup = "Installation is via the setup program tessel-setup.exe. Double-click it and follow the steps on the screen."
    texts = ("Tessel keeps its settings in a folder of your home directory.", without, setup)
    sources = [Source(n, Passage(n, 1, "/tessel-guide.pdf", "Tessel guide", 20 + n, 0, len(t), t), 0.1, {}, 0.5) for n, t in enumerate(texts, 1)]
    check = _AnsweredBy("admin account")
    answer = "To install Tessel without an admin account, use the setup program tessel-setup.exe [3]."
    reviewed = review_answer(answer, True, "How can I install Tessel without an admin account?", sources, sources, model_check=check)
    assert reviewed.found, reviewed.notices
    assert sorted(c.n for c in reviewed.citations) == [2, 3] and all(c.supported for c in reviewed.citations)
    assert any("[2], which says the rest, was added" in n for n in reviewed.notices)


def test_a_figure_of_another_document_is_not_given_the_questions_subject_by_a_passage_naming_it():
    # A near miss: the population asked is nowhere; the model gave a neighbour's figure, citing the neighbour's page. The
    # page naming the country asked about is in another document: joined, the claim read as stated and the answer passed.
    sources = context("Norvale is an island country in the Sunward Sea; its capital and most populous town is Port Edda.",
                      "Corvania covers 48,300 km2, with a population estimated at 6.4 million in 2024.")
    check = _AnsweredBy("Norvale")
    reviewed = review_answer("The population of Norvale is 6.4 million as of 2024 [2].", True, "What is the population of Norvale?", sources, sources, model_check=check)
    assert not reviewed.found


def reference(*items: tuple[str, str]) -> list[Source]:
    """Passages of a made-up HTML reference, each (text, the heading of its function's section)."""
    return [Source(n, Passage(n, 1, "/docs/files.html", "File library reference", n + 4, 0, len(t), t, section=heading), 0.1, {}, 0.5) for n, (t, heading) in enumerate(items, 1)]


def test_another_functions_item_does_not_complete_a_claim_about_this_one():
    # A near miss on an API reference: the function asked about has no such option; the model gave another function's
    # default, citing the asked function's item. That other function's item, in the same file, "completed" the claim
    # ("Citation [1] says only part of this; [2] ... was added"), as another document's figure no longer does.
    own = "- bigint <boolean> Whether the numbers returned are bigint. Default: false. - Returns: <Stats> The stats of the path."
    other = "- offset <integer> Where to start reading. Default: 0 - length <integer> How much to read."
    sources = reference((own, "statFold(path[, options])"), (other, "readBlock(fd[, options])"))
    reviewed = review_answer("If you don't pass offset to statFold, it defaults to 0 [1].", True, "If I don't pass offset to statFold, what value does it take?", sources, sources)
    assert not any("which says the rest, was added" in n for n in reviewed.notices), reviewed.notices
    assert not reviewed.found or not all(c.supported for c in reviewed.citations)


def test_a_second_passage_of_the_same_functions_section_still_completes_a_claim():
    first = "statFold(path[, options]) - path <string> The file to read. - bigint <boolean> Whether the numbers returned are bigint."
    second = "- depth <integer> How many folders down statFold looks. Default: 3."
    sources = reference((first, "statFold(path[, options])"), (second, "statFold(path[, options])"))
    reviewed = review_answer("statFold takes a path, and its depth defaults to 3 [1].", True, "What does statFold take, and what is its default depth?", sources, sources)
    assert reviewed.found and sorted(c.n for c in reviewed.citations) == [1, 2] and all(c.supported for c in reviewed.citations), (reviewed.answer, reviewed.notices)


@pytest.mark.parametrize("own, other, answer, question", [
    # The right default, cited to another function's passage: the item under the heading naming the claim's function states
    # it, and the citation moves there (another function's item would not be pointed at).
    (("- flags <string> How to open the file. Default: 'w'. - encoding <string> Default: 'utf8' - mode <integer> Default: 0o666", "files.openWriter(path[, options])"),
     ("It is unsafe to use writeBlock() twice on the same file without waiting for the callback.", "files.writeBlock(fd, text)"),
     "files.openWriter uses 'utf8' by default [2].", "What does files.openWriter use for encoding by default?"),
    # Seen in the window: "64 * 1024 bytes, as specified in [2]" for an item saying "Default: 64 * 1024". The unit the model
    # added, and its words leading to the mark, were held by no passage: nothing was grounded, the citation did not move to
    # the item stating the default, and a right answer became "Not found".
    (("- chunkLimit <integer> Largest piece read at once. Default: 64 * 1024\n- encoding <string> Default: null", "handle.openFeed([options])"),
     ("- flags <string> How to open the file. Default: 'r'\n- mode <integer> Default: 0o666", "feeds.openFeed(path[, options])"),
     "64 * 1024 bytes, as specified in [2].", "What is the default chunkLimit of openFeed?"),
])
def test_a_right_default_cited_to_a_siblings_item_moves_to_the_item_under_its_functions_heading(own, other, answer, question):
    sources = reference(own, other)
    reviewed = review_answer(answer, True, question, sources, sources)
    assert reviewed.found and [(c.n, c.supported) for c in reviewed.citations] == [(1, True)], (reviewed.answer, reviewed.notices)


@pytest.mark.parametrize("answer, question, cited", [
    # The model often closes a right answer with a sentence that only points: "This can be found in [1]." No passage could state
    # the pointer, so its citation was flagged red on a right answer; it is the citation of the sentence before it.
    ("The default idleLimit of vault.serve is 3000 milliseconds. This can be found in [1].", "vault.serve idleLimit default?", [(1, True)]),
    # Pointing at another function's item, the sentence's citation moves to the item that states it, and nothing is left flagged.
    ("If you leave out `lazy`, `vault.serve` defaults to `true`. This can be found in [2].", "Which lazy setting does vault.serve get when I leave it out?", [(1, True)]),
    # A closing clause doing the same ("..., as stated in [2]."): its word, held by no passage, sank the claim under any passage.
    ("The default lazy of vault.serve is true, as stated in [2].", "vault.serve lazy default?", [(1, True)]),
])
def test_a_sentence_only_pointing_at_its_marks_cites_the_sentence_before_it(answer, question, cited):
    sources = reference(("- idleLimit <number> Milliseconds a connection may idle. Default: 3000. - lazy <boolean> Open on first use. Default: true.", "vault.serve([options])"),
                        ("- lazy <boolean> Default: false - interval <integer> Default: 250", "vault.serveFile(name[, options])"))
    reviewed = review_answer(answer, True, question, sources, sources)
    assert reviewed.found and [(c.n, c.supported) for c in reviewed.citations] == cited, (reviewed.answer, reviewed.notices)
    assert "can be found" not in reviewed.answer and "stated" not in reviewed.answer


def test_a_short_sentence_its_passage_holds_is_a_claim_not_a_pointer():
    # "It defaults to true [1]." is two words too, but its passage holds them: it says something, and is judged as it is.
    sources = reference(("- lazy <boolean> Open on first use. Default: true.", "vault.serve([options])"))
    reviewed = review_answer("The lazy option opens the vault on first use. Default true [1].", True, "What does lazy do in vault.serve?", sources, sources)
    assert reviewed.found and "Default true [1]." in reviewed.answer, reviewed.answer


def test_the_function_a_heading_names_is_the_claims_subject_not_the_questions_plain_verb():
    # "If you omit dir from launch, ...": the claim's subject was the question's word the fewest passages hold, here "omit",
    # so launch's own item (another section than the one cited), which states the default, was never pointed at: "Not found".
    sources = reference(("- dir <string> Working folder of the child. - shell <boolean> Run inside a shell. Default: false.", "proc.spawn(command[, args][, options])"),
                        ("- dir <string> Working folder of the child. Default: home.current(). - timeout <number> Default: 0", "proc.launch(command[, options][, callback])"),
                        ("Arguments you omit are given their defaults.", "proc.fork(modulePath[, args][, options])"),
                        ("The launch helpers start a shell on every platform.", "Shells"))
    reviewed = review_answer("If you omit dir from launch, it defaults to home.current() [1].", True, "If I omit dir from launch, which folder does it use?", sources, sources)
    assert reviewed.found and [(c.n, c.supported) for c in reviewed.citations] == [(2, True)], (reviewed.answer, reviewed.notices)


def test_the_question_check_reads_a_passage_under_its_sections_heading():
    # An API reference (HTML) lists each function's options under the function's heading: "Default: 1450." is the
    # default of the function the section names. Read without its heading, the line named no function, and the check
    # was sure a right answer did not answer the question: the answer became "Not found".
    check = _AnswersIn("spin")
    item = "- speed <number> Revolutions a minute of the impeller. If exceeded, the pump stops. Default: 1450."
    sources = [Source(1, Passage(1, 1, "/docs/pumps.html", "Pump library reference", 3, 0, len(item), item, section="spin(options)"), 0.1, {}, 0.5)]
    reviewed = review_answer("The default speed of spin is 1450 [1].", True, "What is the default speed of spin?", sources, sources, model_check=check)
    assert reviewed.found and [(c.n, c.supported) for c in reviewed.citations] == [(1, True)], (reviewed.answer, check.shown)
    assert check.shown == ["Pump library reference / spin(options): " + item]


def test_a_claim_naming_the_function_its_sections_heading_names_rests_on_its_item():
    # In an API reference the item "- blockSize ... Default: 8." names no function; the heading over it, "stretchKey(...)"
    # written as code, does. A claim naming the function must find that code in what it cites (a code is checked as
    # written, as a number is), so a right answer read without the heading's code was "Not found in your documents".
    item = "- blockSize <number> Block size parameter. Default: 8."
    def under(heading):
        return [Source(1, Passage(1, 1, "/docs/keys.html", "Keys reference", 3, 0, len(item), item, section=heading), 0.1, {}, 0.5)]

    right = review_answer("The default blockSize of keys.stretchKey is 8 [1].", True, "What is the default blockSize of keys.stretchKey?", under("keys.stretchKey(password, salt[, options])"), under("keys.stretchKey(password, salt[, options])"))
    assert right.found and [(c.n, c.supported) for c in right.citations] == [(1, True)], right.answer

    # The same item under a sibling's heading does not state the named function's default.
    sibling = review_answer("The default blockSize of keys.stretchKey is 8 [1].", True, "What is the default blockSize of keys.stretchKey?", under("keys.stretchKeySync(password, salt[, options])"), under("keys.stretchKeySync(password, salt[, options])"))
    assert not sibling.found or not all(c.supported for c in sibling.citations), sibling.answer


SPEED_OPTION = "- speed <number> Revolutions a minute of the impeller. If exceeded, the pump stops and waits for the next start."


def _checked_reference(options: str, heading: str, answer: str, question: str, check):
    """A right answer about one option, reviewed over a made-up reference's options under their function's heading, on
    one line as a reference's options were imported."""
    sources = [Source(1, Passage(1, 1, "/docs/pumps.html", "Pump function reference", 3, 0, len(options), options, section=heading), 0.1, {}, 0.5)]
    reviewed = review_answer(answer, True, question, sources, sources, model_check=check)
    assert reviewed.found and [(c.n, c.supported) for c in reviewed.citations] == [(1, True)], (reviewed.answer, check.shown)


def test_the_question_check_reads_the_sentence_saying_the_value_not_one_naming_the_function_by_its_full_name():
    # Seen on the API tune half: an answer naming the function by its module ("pumps.spin" for the question's "spin") was
    # checked against the sentence introducing the function, as its name and the name's pieces ("pumps", "spin") counted
    # as four words the answer adds; the check read no default there, was sure, and a right answer became "Not found".
    check = _AnswersIn("Default: false")
    item = (f"- quiet <boolean> Silences the alarm of the pump while it runs. Default: false. {SPEED_OPTION} Default: 1450. - Returns: "
            "<Pump> The pump, started. The pumps.spin() method starts the impeller, and returns the pump once it turns at the speed "
            "asked for, or rejects when the pump reports a fault before it does.")
    _checked_reference(item, "pumps.spin([options])", "The pumps.spin() function uses false by default for quiet [1].", "What does spin use for quiet by default?", check)
    assert check.shown[0].endswith("Default: false.")


def test_the_question_check_reads_the_part_of_a_long_sentence_holding_the_claims_value():
    # Seen on the API tune half: a short list of options imported as one line is read as one item (chunking.ITEM_CHARS),
    # one sentence; under its title and heading the check read its first 400 characters (MAX_CHARS), never the last
    # option's value, and refused a right answer.
    from desktop_app.core.answers.model_check import MAX_CHARS

    class ReadsAsTheModel(_AnswersIn):  # the model is shown MAX_CHARS of a statement (ModelCheck.doubt)
        def doubt(self, question, statement):
            return super().doubt(question, statement[:MAX_CHARS])

    check = ReadsAsTheModel("Default: quiet")
    options = (f"{SPEED_OPTION} The controller logs each stop. Default: 1450. - pressure <number> Largest pressure at the outlet in "
               "bar before the relief valve opens, measured at the flange. Default: 6. - alarm <string> What the pump does when it "
               "runs dry: it may sound, blink or stay still. Default: quiet.")
    _checked_reference(options, "pumps.prime([options])", "The default alarm of pumps.prime is quiet [1].", "What is the default alarm of prime?", check)
    assert check.shown[0].endswith("Default: quiet.") and "- alarm <string>" in check.shown[0], check.shown


def test_a_long_sentence_is_cut_around_the_claims_words_in_whole_words():
    from desktop_app.core.words import Vocabulary, around, content

    sentence = " ".join(["Filler words about nothing in particular here."] * 12 + ["The relief valve opens at 6 bar."] + ["More filler text follows."] * 6)
    cut = around(sentence, content("The relief valve opens at 6 bar."), Vocabulary(["When does the relief valve open?"]), 120)
    assert "opens at 6 bar." in cut and len(cut) <= 120 and cut == cut.strip() and cut in sentence
    assert around("A short sentence.", ["short"], Vocabulary([""]), 120) == "A short sentence."


def test_a_long_japanese_sentence_holding_one_space_is_cut_where_the_check_reads_not_at_that_space():
    from desktop_app.core.words import Vocabulary, around, content

    sentence = "Modell K7 " + "の保証期間は購入日から三年間で、" * 20 + "修理は無料です。"
    cut = around(sentence, content("修理は無料です"), Vocabulary(["修理は無料ですか？"]), 120)
    assert len(cut) >= 100 and cut in sentence
