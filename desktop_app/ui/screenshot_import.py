"""`python -m desktop_app.ui.screenshot_import OUT.png`: the whole screen after a ten-file import (one file broken)
with three folders kept in sync, the window filling the screen as a maximised window would.

`make screenshot` runs it under Xvfb at 1440x900 and at 1280x800 (the X screen is the size shot). It grabs the
screen, not the window, so anything the window pushed below the screen's edge is missing from the picture too,
and it fails when the question box or Send is not on screen. A scratch data folder; the model is not loaded
(an import does not need it), so the status bar says so.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from .screenshot import pump, wait_until


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", type=Path)
    parser.add_argument("--timeout", type=float, default=600.0)
    args = parser.parse_args(argv)
    home = Path(tempfile.mkdtemp(prefix="desktop-app-screenshot-"))
    os.environ["DESKTOP_APP_HOME"] = str(home)

    from ..sample_batch import write_import_batch, write_watched_folders
    from .app import create_application
    from .main_window import MainWindow

    app = create_application(sys.argv[:1])
    screen = app.primaryScreen().geometry()
    window = MainWindow(warm_up=False)
    window.setGeometry(screen)
    window.show()
    files = write_import_batch(home / "documents" / "drop")
    window.import_controller.import_paths([str(f) for f in files])
    for folder in write_watched_folders(home / "documents" / "synced"):
        window.watch_controller.add_folder(str(folder))
    panel = window.library_panel
    # Done: everything imported, the finished rows gone by themselves, the broken file's row left to read.
    wait_until(app, lambda: not window.import_controller.busy and all(row.stage == "failed" for row in panel.rows.values()), args.timeout)
    pump(app, 0.5)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    if not app.primaryScreen().grabWindow(0).save(str(args.out)):
        print(f"could not write {args.out}", file=sys.stderr)
        return 1
    frame = window.frameGeometry()
    print(f"saved {args.out}: screen {screen.width()}x{screen.height()}, window {frame.width()}x{frame.height()}; {panel.imports.fold.summary.text()!r}")
    ok = True
    for name, widget in (("question box", window.chat_panel.input), ("Send", window.chat_panel.send_button), ("library table", panel.table)):
        rect = widget.rect().translated(widget.mapToGlobal(widget.rect().topLeft()))
        if not (widget.isVisible() and screen.contains(rect)):
            print(f"the {name} is not on screen: {rect} outside {screen}", file=sys.stderr)
            ok = False
    window.close()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
