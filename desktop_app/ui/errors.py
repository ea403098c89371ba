"""The one place that turns exceptions into something a person sees: a dialog or the status bar."""

from __future__ import annotations

import logging
import sys
import traceback

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from ..core.errors import AppError


def user_text(exc: BaseException) -> str:
    if isinstance(exc, AppError):
        return exc.user_message()
    return f"Something went wrong: {exc}"


def show_error(parent: QWidget | None, exc: BaseException, status_bar=None, title: str = "Desktop App") -> None:
    """AppErrors say what happened and what to do; anything else is a bug and gets the crash dialog."""
    if not isinstance(exc, AppError):
        show_crash(type(exc), exc, exc.__traceback__, parent)
        return
    text = user_text(exc)
    if status_bar is not None:
        status_bar.showMessage(text, 15_000)
    box = QMessageBox(QMessageBox.Icon.Warning, title, text, QMessageBox.StandardButton.Ok, parent)
    box.setObjectName("errorDialog")
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.open()  # not exec(): a background error must not block the event loop


def show_crash(exc_type, exc, tb, parent: QWidget | None = None) -> None:
    logging.getLogger(__name__).error("unexpected error", exc_info=(exc_type, exc, tb))
    details = "".join(traceback.format_exception(exc_type, exc, tb))
    sys.stderr.write(details)
    if QApplication.instance() is None:
        return
    box = QMessageBox(
        QMessageBox.Icon.Critical,
        "Unexpected error",
        "The app hit an unexpected error. Your documents and chats are safe in the data folder.\n\n"
        f"{exc_type.__name__}: {exc}\n\nYou can keep working; if it happens again, please report it with the details below.",
        QMessageBox.StandardButton.Ok,
        parent,
    )
    box.setObjectName("crashDialog")
    box.setDetailedText(details)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.open()


def install_excepthook() -> None:
    """An unexpected exception in a slot shows a dialog instead of silently killing the window."""
    sys.excepthook = show_crash
