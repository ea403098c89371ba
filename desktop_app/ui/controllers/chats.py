"""The chats: the list, the open chat (new, opened from the list, deleted), its export to Markdown.

Stored answers are JSON (core/codec.py); opening a chat decodes them into AskResults, so the transcript and
the fusion panel show a reopened answer exactly as they showed it live.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtWidgets import QFileDialog

from ...core.codec import result_from_json
from ...core.errors import AppError
from ...core.library import Library
from ..chat_list_panel import ChatListPanel
from ..chat_panel import ChatPanel
from ..chat_view import ChatEntry
from ..fusion_panel import FusionPanel
from ..models import ChatsModel
from ..workers import JobRunner, call_in_background
from .feedback import Feedback

TITLE_LENGTH = 60  # a new chat is titled after its first question, cut to this many characters


def chat_title(question: str) -> str:
    return question if len(question) <= TITLE_LENGTH else question[: TITLE_LENGTH - 3] + "..."


def file_stem(title: str, limit: int = 80) -> str:
    """A chat title as a file name a person reads: its words (letters and digits of any script, "1.5" and "PX-40" whole) joined by single
    spaces, each run of anything else (punctuation, an ellipsis, a slash) dropped; cut at a word within `limit`."""
    words = re.findall(r"[^\W_]+(?:[-'.][^\W_]+)*", title)
    stem = ""
    for word in words:
        if stem and len(stem) + 1 + len(word) > limit:
            break
        stem = f"{stem} {word}" if stem else word[:limit]
    return stem or "chat"


@dataclass(eq=False)
class ChatController:
    library: Library
    model: ChatsModel
    list_panel: ChatListPanel
    chat_panel: ChatPanel
    fusion_panel: FusionPanel
    feedback: Feedback
    answering: Callable[[], bool]  # a new chat stops a running answer; switching chats waits for it
    stop_answer: Callable[[], None]
    jobs: JobRunner  # the library runner: deleting a chat waits there for the database, never in the window
    clear_evidence: Callable[[], None] = lambda: None  # the shown page or text belongs to the chat it was clicked in
    current: int | None = field(default=None, init=False)  # the open chat; None until a new chat's first question

    def refresh(self) -> None:
        self.model.set_chats(self.library.chat_list())
        if self.current is not None:
            self.list_panel.select(self.current)

    def adopt(self, chat_id: int, title: str) -> None:
        """A new chat, created with its first question on the model runner, becomes the open one."""
        self.current = chat_id
        self.chat_panel.title.setText(title)
        self.refresh()

    def new_chat(self) -> None:
        if self.answering():
            self.stop_answer()
        self.current = None
        self.chat_panel.title.setText("New chat")
        self.chat_panel.view.set_entries([])
        self.fusion_panel.show_result(None)
        self.clear_evidence()
        self.list_panel.list.clearSelection()
        self.chat_panel.input.setFocus()

    def open_chat(self, chat_id: int) -> None:
        if self.answering():
            self.feedback.say("Stop the running answer before switching chats.", 5000)
            return
        self.current = chat_id
        entries = []
        for _id, role, text, result_json in self.library.chat_messages(chat_id):
            result = result_from_json(json.loads(result_json)) if result_json else None
            entries.append(ChatEntry(role, text, result, notices=list(result.notices) if result else []))
        self.chat_panel.view.set_entries(entries)
        self.chat_panel.title.setText(self.model.title(chat_id) or "Chat")
        self.fusion_panel.show_result(next((e.result for e in reversed(entries) if e.result), None))
        self.clear_evidence()

    def rename_chat(self, chat_id: int, title: str) -> None:
        if not title.strip():
            self.feedback.say("The chat keeps its name: a name cannot be empty.", 5000)
            self.refresh()
            return

        def renamed(_: object) -> None:
            if chat_id == self.current:
                self.chat_panel.title.setText(" ".join(title.split()))
            self.refresh()

        call_in_background(self.jobs, "rename chat", lambda: self.library.rename_chat(chat_id, title), renamed, self.feedback.report)

    def delete_chat(self, chat_id: int) -> None:
        def deleted(_: object) -> None:
            if chat_id == self.current:
                self.new_chat()
            self.refresh()

        call_in_background(self.jobs, "delete chat", lambda: self.library.delete_chat(chat_id), deleted, self.feedback.report)

    def export_chat(self, path: str | None = None) -> Path | None:
        """Saves the open chat as Markdown (question, answer, each citation's file, page and quoted passage)."""
        if self.current is None:
            self.feedback.say("Open a chat to export it.", 5000)
            return None
        try:
            markdown = self.library.export_chat(self.current)
        except AppError as exc:
            self.feedback.report(exc)
            return None
        if path is None:
            stem = file_stem(self.chat_panel.title.text() or "chat")
            path, _ = QFileDialog.getSaveFileName(self.feedback.window, "Export chat to Markdown", str(Path.home() / f"{stem}.md"), "Markdown (*.md);;All files (*)")
            if not path:
                return None
        target = Path(path)
        try:
            target.write_text(markdown, encoding="utf-8")
        except OSError as exc:
            self.feedback.report(AppError(f"The chat could not be saved to {target} ({exc.strerror or exc})", hint="Choose another folder."))
            return None
        self.feedback.say(f"Chat exported to {target}", 8000)
        return target
