"""Errors a person can act on: each says what happened and what to do."""

from __future__ import annotations

from .formats import format_names


class AppError(Exception):
    """Base for errors shown to the user. The message is the whole story."""

    hint: str = ""

    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message)
        if hint is not None:
            self.hint = hint

    def user_message(self) -> str:
        text = str(self)
        return f"{text}. {self.hint}" if self.hint else text


class ImportFailed(AppError):
    """A single file could not be imported; the rest of the batch goes on."""


class NotADocument(ImportFailed):
    hint = f"Only {format_names()} files can be imported."


class UnsupportedFormat(NotADocument):
    """A file of a format the library does not read; the message lists every one it does (formats.py)."""

    hint = ""


class PasswordProtected(ImportFailed):
    hint = "Enter the password for this file, or skip it."


class NoTextLayer(ImportFailed):
    hint = "It looks like a scanned document; install tesseract (tesseract-ocr) for OCR."


class GarbledText(ImportFailed):
    hint = "Its fonts have no usable character map; export it again as a text PDF or OCR it."


class ImportCancelled(AppError):
    pass


class ModelError(AppError):
    """A model file is missing, damaged or could not be loaded."""


class StorageError(AppError):
    """The data folder cannot be written (full disk, read-only, locked)."""
