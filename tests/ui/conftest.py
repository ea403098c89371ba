"""Fixtures for the window tests: a real QApplication (offscreen), the app's style, helpers to wait and to time."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer

from desktop_app.core.library import Library


@pytest.fixture(autouse=True)
def app_style(qapp):
    from desktop_app.ui.app import STYLE_SHEET

    qapp.setStyle("Fusion")
    qapp.setStyleSheet(STYLE_SHEET)
    return qapp


class LoopWatch:
    """Ticks every 20 ms and records the longest gap between ticks: how long the event loop was unavailable."""

    def __init__(self, interval_ms: int = 20):
        self.interval_ms = interval_ms
        self.max_gap = 0.0
        self._last = None
        self._timer = QTimer()
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self._tick)

    def _tick(self) -> None:
        now = time.perf_counter()
        if self._last is not None:
            self.max_gap = max(self.max_gap, now - self._last)
        self._last = now

    def start(self) -> "LoopWatch":
        self._last = time.perf_counter()
        self._timer.start()
        return self

    def stop(self) -> float:
        self._timer.stop()
        return self.max_gap


@pytest.fixture
def loop_watch():
    watches = []

    def make() -> LoopWatch:
        watch = LoopWatch().start()
        watches.append(watch)
        return watch

    yield make
    for watch in watches:
        watch.stop()


@pytest.fixture
def open_settings(qtbot):
    """Shows the Settings dialog of a window's library, as File > Settings does."""
    from desktop_app.ui.settings_dialog import SettingsDialog

    def show(window) -> SettingsDialog:
        dialog = SettingsDialog(window.library.settings, window.library.catalog, window)
        dialog.show()
        qtbot.waitExposed(dialog)
        return dialog

    return show


@pytest.fixture
def make_window(qtbot):
    """Builds MainWindows; each is closed (its worker threads stopped) at the end of the test."""
    from desktop_app.ui.main_window import MainWindow

    windows = []

    def make(library: Library, **kwargs) -> MainWindow:
        window = MainWindow(library, **kwargs)
        qtbot.addWidget(window)
        window.show()
        windows.append(window)
        return window

    yield make
    for window in windows:
        window.close()


@pytest.fixture
def sample_pdf(tmp_path) -> Path:
    from desktop_app.sample_datasheet import write_sample_datasheet

    return write_sample_datasheet(tmp_path / "docs" / "px40-datasheet.pdf")
