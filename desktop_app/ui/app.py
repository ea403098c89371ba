"""`desktop-app`: start the window. The window shows at once; models load in the background.

`desktop-app --install-launcher` (or `--uninstall-launcher`) adds it to the desktop's application menu instead.
"""

from __future__ import annotations

import argparse
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
QToolButton#filterChip { border: 1px solid #1a73e8; border-radius: 10px; padding: 1px 8px; background: #e8f0fe; color: #174ea6; }
"""


def create_application(argv: list[str] | None = None):
    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QApplication

    from ..assets import ICON_PNG
    from .main_window import APP_NAME

    app = QApplication.instance() or QApplication(argv if argv is not None else sys.argv)
    app.setApplicationName(APP_NAME)
    app.setOrganizationName("desktop-app")
    app.setDesktopFileName("desktop-app")
    app.setStyle("Fusion")
    app.setStyleSheet(STYLE_SHEET)
    if ICON_PNG.exists():
        app.setWindowIcon(QIcon(str(ICON_PNG)))
    return app


def parse_arguments(argv: list[str]) -> tuple[argparse.Namespace, list[str]]:
    """The app's own options; everything else (files to open aside, Qt's -platform and such) is left for Qt."""
    parser = argparse.ArgumentParser(prog="desktop-app", description="Chat with your documents, locally.")
    parser.add_argument("files", nargs="*", help="documents to import when the window opens (the menu entry passes the files opened with it)")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--install-launcher", action="store_true", help="add the app and its icon to your desktop's application menu, then exit")
    group.add_argument("--uninstall-launcher", action="store_true", help="remove them again, then exit")
    options, qt_args = parser.parse_known_args(argv[1:])
    # A Qt option's value (-platform offscreen) lands among the files: only existing files are documents.
    qt_args += [f for f in options.files if not os.path.exists(f)]
    options.files = [f for f in options.files if os.path.exists(f)]
    return options, qt_args


def main(argv: list[str] | None = None) -> int:
    # Models come from local files only; nothing is fetched from a model hub.
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    argv = list(sys.argv if argv is None else argv)
    options, qt_args = parse_arguments(argv)
    if options.install_launcher or options.uninstall_launcher:
        from ..launcher import main as launcher_main

        return launcher_main(uninstall=options.uninstall_launcher)
    app = create_application(argv[:1] + qt_args)
    from ..core.logs import setup_logging
    from ..core.storage import paths
    from .errors import install_excepthook
    from .main_window import MainWindow

    install_excepthook()
    setup_logging(paths.data_home())
    window = MainWindow()
    window.show()
    if options.files:
        window.import_controller.import_paths(options.files)
    if os.environ.get("DESKTOP_APP_SMOKE_TEST"):
        from . import smoke_test

        smoke_test.start(app, window, documents=len(options.files))
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


if __name__ == "__main__":
    sys.exit(main())
