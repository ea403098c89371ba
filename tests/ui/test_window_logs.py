"""Help > Open log folder opens the data folder's logs in the file manager."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QDesktopServices

from desktop_app.core.library import Library
from tests.fakes import HashingEmbedder, ScriptedGenerator


def test_help_open_log_folder_opens_the_logs_folder(data_home, make_window, monkeypatch):
    opened = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url) or True)
    window = make_window(Library(data_home, embedder=HashingEmbedder(), generator=ScriptedGenerator()), warm_up=False)
    help_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Help")
    action = next(a for a in help_menu.actions() if a.text() == "Open &log folder")
    action.trigger()
    assert [Path(u.toLocalFile()) for u in opened] == [data_home / "logs"]
    assert (data_home / "logs").is_dir()
    window.library.close()
