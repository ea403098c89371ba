"""`desktop-app`: start the window. The window shows at once; models load in the background."""

from __future__ import annotations

import os
import sys

STYLE_SHEET = """
QWidget { font-size: 13px; }
QLabel#panelTitle { font-size: 15px; font-weight: 600; color: #202124; }
QLabel#hint { color: #5f6368; }
QLabel#dropHint { color: #5f6368; border: 2px dashed #9aa0a6; border-radius: 10px; padding: 24px; background: #fafbfc; }
QTextBrowser { border: 1px solid #dadce0; border-radius: 6px; background: white; padding: 4px; font-size: 14px; }
QPlainTextEdit { border: 1px solid #9aa0a6; border-radius: 6px; padding: 4px; font-size: 14px; background: white; }
QTableView, QListView { border: 1px solid #dadce0; border-radius: 4px; background: white; selection-background-color: #d2e3fc; selection-color: #202124; }
QHeaderView::section { background: #f1f3f4; border: none; border-bottom: 1px solid #dadce0; padding: 3px 6px; font-weight: 600; }
QProgressBar { border: 1px solid #dadce0; border-radius: 3px; background: #f1f3f4; text-align: center; }
QProgressBar::chunk { background: #1a73e8; border-radius: 3px; }
QScrollArea { border: 1px solid #dadce0; background: #e8eaed; }
QLabel#pageImage { background: #e8eaed; }
QSplitter::handle { background: #e8eaed; }
"""


def create_application(argv: list[str] | None = None):
    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QApplication

    from .main_window import APP_NAME, ICON_PATH

    app = QApplication.instance() or QApplication(argv if argv is not None else sys.argv)
    app.setApplicationName(APP_NAME)
    app.setOrganizationName("desktop-app")
    app.setDesktopFileName("desktop-app")
    app.setStyle("Fusion")
    app.setStyleSheet(STYLE_SHEET)
    if ICON_PATH.exists():
        app.setWindowIcon(QIcon(str(ICON_PATH)))
    return app


def main(argv: list[str] | None = None) -> int:
    # Models come from local files only; nothing is fetched from a model hub.
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    app = create_application(argv)
    from ..core.logs import setup_logging
    from ..core.storage import paths
    from .errors import install_excepthook
    from .main_window import MainWindow

    install_excepthook()
    setup_logging(paths.data_home())
    window = MainWindow()
    window.show()
    if os.environ.get("DESKTOP_APP_SMOKE_TEST"):
        _quit_when_models_load(app, window)
    code = app.exec()
    window.close()  # stops the worker threads if the loop ended without closing the window
    return leave(window, code)


def leave(window, code: int) -> int:
    """The exit code; when a job outlasted the window's wait (a model load cannot be interrupted), the process
    ends here with os._exit: Python's exit would destroy the running QThread, and Qt aborts on that.
    Everything worth keeping is already in SQLite (each change commits), so nothing is lost."""
    from .workers import unfinished_threads

    if unfinished_threads():
        import logging

        logging.getLogger(__name__).warning("leaving while a model load still runs")
        logging.shutdown()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    return code


def _quit_when_models_load(app, window) -> None:
    """For packaging checks: exit 0 once the window is up and the models loaded, 1 if they fail."""
    from PySide6.QtCore import QTimer

    from .controllers.model_loading import NOT_AVAILABLE

    timer = QTimer(window)

    def check() -> None:
        if window.model_controller.ready:
            print(f"smoke test: window open, models loaded ({window.model_status.text()})", flush=True)
            app.exit(0)
        elif window.model_status.text() == NOT_AVAILABLE:
            print("smoke test: the models failed to load", flush=True)
            app.exit(1)

    timer.timeout.connect(check)
    timer.start(200)


if __name__ == "__main__":
    sys.exit(main())
