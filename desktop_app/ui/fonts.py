"""A font for Chinese and Japanese text on a system that has none.

A fresh Linux install often has no font for Chinese or Japanese, and Qt then draws a Chinese document's titles,
quotes, passages and answers as empty boxes. pymupdf, which the app reads PDFs with, carries Droid Sans Fallback
(Chinese, Japanese kana, Korean; Apache 2.0): it is added to Qt's fonts, which fall back on it for those scripts.
Importing pymupdf takes about half a second, so its font is read on a worker thread and added on the GUI thread.
A system with such a font keeps its own.
"""

from __future__ import annotations

from collections.abc import Iterator

from PySide6.QtCore import QByteArray
from PySide6.QtGui import QFontDatabase

BUILT_IN = "china-s"  # pymupdf's name for its Droid Sans Fallback


def lacks_cjk_font() -> bool:
    return not QFontDatabase.families(QFontDatabase.WritingSystem.SimplifiedChinese)


def cjk_font_data(_job: object = None) -> Iterator[bytes]:
    """The font's file, read on a worker thread (a Job's work)."""
    import pymupdf

    yield bytes(pymupdf.Font(BUILT_IN).buffer)


def add_font(data: object) -> None:
    """On the GUI thread: Qt's fonts then draw Chinese and Japanese with it wherever the chosen font lacks a glyph."""
    QFontDatabase.addApplicationFontFromData(QByteArray(bytes(data)))
