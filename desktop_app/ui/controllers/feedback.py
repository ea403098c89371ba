"""How a controller tells the person something: a status-bar message, an error, the parent of its dialogs."""

from __future__ import annotations

import logging

from PySide6.QtWidgets import QMainWindow

from ...core.errors import AppError
from ..errors import show_error

log = logging.getLogger(__name__)


class Feedback:
    def __init__(self, window: QMainWindow):
        self.window = window  # the parent of the controllers' dialogs

    def say(self, text: str, timeout_ms: int) -> None:
        self.window.statusBar().showMessage(text, timeout_ms)

    def report(self, exc: BaseException) -> None:
        """An AppError says what happened and what to do; anything else gets the crash dialog (ui/errors.py)."""
        if isinstance(exc, AppError):
            log.warning("shown to the user: %s", exc.user_message())  # anything else is logged by show_crash
        show_error(self.window, exc, self.window.statusBar())
