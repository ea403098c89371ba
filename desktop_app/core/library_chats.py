"""The Library's chats: questions asked in a chat (follow-ups rewritten from its history), kept with their answers."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator, Sequence

from .chat_export import chat_to_markdown
from .retrieval.followup import Turn
from .codec import result_to_json
from .events import AnswerDone
from .storage.store import Store
from .types import AskResult


def _filter_phrases(result_json: str | None) -> tuple[str, ...]:
    """The phrases of the filters a stored answer's search applied (none for an answer stopped before it finished)."""
    filters = json.loads(result_json).get("filters") if result_json else None
    return tuple(part["phrase"] for part in filters["parts"]) if filters else ()


class LibraryChats:
    """Mixed into Library (library.py), which provides `store` and `ask`."""

    store: Store

    def chat_history(self, chat_id: int) -> list[Turn]:
        """The chat's question/answer pairs, oldest first; the last with the phrases of the filters its search applied (what a
        follow-up keeps: only that answer's stored result is read, however long the chat)."""
        turns: list[Turn] = []
        pending, last = None, None
        for _, role, content, result in self.store.messages(chat_id):
            if role == "user":
                pending = content
            elif pending is not None:
                turns.append(Turn(pending, content))
                pending, last = None, result
        if turns:
            turns[-1] = dataclasses.replace(turns[-1], filters=_filter_phrases(last))
        return turns

    def ask_in_chat(self, chat_id: int, question: str, mode: str | None = None, allowed_documents: Sequence[int] | None = None, **kwargs) -> Iterator[object]:
        """Ask with the chat's history (follow-ups are rewritten) and keep the question and the answer in the chat."""
        result = None
        for event in self.ask(question, mode, allowed_documents, history=self.chat_history(chat_id), **kwargs):
            if isinstance(event, AnswerDone):
                result = event.result
            yield event
        if result is not None:
            self.add_chat_turn(chat_id, question, result.answer, result)

    def add_chat_turn(self, chat_id: int, question: str, answer: str, result: AskResult | None = None) -> None:
        """Keeps a question and its answer in the chat; a finished answer's result is stored beside it as JSON.

        Without a result (an answer stopped before it finished) the chat still shows the question and what streamed.
        """
        self.store.add_message(chat_id, "user", question)
        self.store.add_message(chat_id, "assistant", answer, json.dumps(result_to_json(result)) if result is not None else None)

    def export_chat(self, chat_id: int) -> str:
        return chat_to_markdown(self.store, chat_id)

    def chats(self) -> list[tuple[int, str, str]]:
        """(id, title, last updated), most recent first."""
        return self.store.chats()

    def create_chat(self, title: str) -> int:
        return self.store.create_chat(title)

    def chat_list(self) -> list[tuple[int, str, str, str]]:
        """(id, title, last updated, the mode of its last answer or ""), most recent first: what the chat list shows."""
        return self.store.chats_with_modes()

    def rename_chat(self, chat_id: int, title: str) -> None:
        title = " ".join(title.split())
        if not title:
            raise ValueError("a chat needs a name")
        self.store.rename_chat(chat_id, title)

    def delete_chat(self, chat_id: int) -> None:
        self.store.delete_chat(chat_id)

    def chat_messages(self, chat_id: int) -> list[tuple[int, str, str, str | None]]:
        """(id, role, text, the answer's result JSON or None), oldest first."""
        return self.store.messages(chat_id)

