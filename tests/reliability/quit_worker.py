"""The window quit while its model loads and an import runs, in its own process (offscreen).

Usage: python -m tests.reliability.quit_worker HOME LOAD_SECONDS PATH...
Prints "quitting" when it closes the window (some documents stored, the rest still importing, the model
still loading), then "left" just before the process ends the way the app's main() ends it.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from desktop_app.core.library import Library
from desktop_app.ui import app as app_module
from desktop_app.ui import workers
from desktop_app.ui.main_window import MainWindow
from tests.fakes import HashingEmbedder, ScriptedGenerator


class SlowEmbedder(HashingEmbedder):
    def embed(self, texts):
        time.sleep(0.05)
        return super().embed(texts)


class SlowLoadingGenerator(ScriptedGenerator):
    """A model load that cannot be interrupted (llama.cpp's), longer than the window waits at quit."""

    def __init__(self, seconds: float):
        super().__init__()
        self.seconds = seconds

    def load(self):
        time.sleep(self.seconds)
        return self


def main(argv: list[str]) -> int:
    home, load_seconds, paths = Path(argv[0]), float(argv[1]), argv[2:]
    workers.SHUTDOWN_WAIT_MS = 2_000  # the window's wait at quit, shortened so the load outlasts it
    app = QApplication.instance() or QApplication([])
    library = Library(home, embedder=SlowEmbedder(), generator=SlowLoadingGenerator(load_seconds))
    window = MainWindow(library)
    window._owns_library = True  # as when the app opens its own library: closing the window closes it
    window.show()
    window.import_controller.import_paths([Path(p) for p in paths])

    def quit_when_half_imported() -> None:
        stored = library.store.conn.execute("SELECT count(*) FROM documents").fetchone()[0]
        if stored >= 3:
            print("quitting", flush=True)
            window.close()
            app.quit()

    timer = QTimer()
    timer.timeout.connect(quit_when_half_imported)
    timer.start(20)
    code = app.exec()
    print("left", flush=True)
    return app_module.leave(window, code)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
