"""The transcript keeps the reader's place while an answer streams in (real Qt widgets, offscreen)."""

from __future__ import annotations

from desktop_app.ui.chat_view import ChatEntry, ChatView


def transcript(qtbot) -> ChatView:
    view = ChatView()
    qtbot.addWidget(view)
    view.resize(400, 500)
    view.show()
    for i in range(12):
        view.add(ChatEntry("user", f"Question {i}: " + "what does the manual say about this? " * 3))
        view.add(ChatEntry("assistant", "An answer sentence that cites its page [1]. " * 12))
    return view


def stream(view: ChatView, qtbot, asked: bool = False) -> None:
    if asked:
        view.add(ChatEntry("user", "One more question?"))
    answer = ChatEntry("assistant", "", streaming=True)  # a re-run or a regenerated answer: no new question
    view.add(answer)
    for _ in range(20):
        answer.text += "more words of the answer "
        view.render()
        qtbot.wait(2)


def test_a_reader_scrolled_up_to_an_earlier_answer_stays_there_while_a_new_one_streams(qtbot):
    # Before, every re-render of the streaming answer threw the reader back to the top of the chat.
    view = transcript(qtbot)
    bar = view.verticalScrollBar()
    bar.setValue(bar.maximum() // 2)
    reading = bar.value()
    stream(view, qtbot)
    assert bar.value() == reading


def test_a_reader_at_the_bottom_follows_the_answer_as_it_grows(qtbot):
    view = transcript(qtbot)
    bar = view.verticalScrollBar()
    bar.setValue(bar.maximum())
    stream(view, qtbot)
    assert bar.value() == bar.maximum() > 0


def test_asking_a_question_brings_the_end_of_the_chat_into_view(qtbot):
    view = transcript(qtbot)
    bar = view.verticalScrollBar()
    bar.setValue(0)
    stream(view, qtbot, asked=True)
    assert bar.value() == bar.maximum()
