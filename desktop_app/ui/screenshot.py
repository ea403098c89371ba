"""`python -m desktop_app.ui.screenshot OUT.png`: start the window, import the sample PDF, ask, click a citation, save a PNG.

`make screenshot` runs it under Xvfb, so it needs no desktop; it uses a scratch data folder.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

QUESTION = "What is the maximum operating temperature of the PX-40?"
FOLLOW_UP = "And what is its IP rating?"  # shows a follow-up rewritten from the chat ("Searched as")


def wait_until(app, condition, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("the window did not get there in time")
        app.processEvents()
        time.sleep(0.01)


def pump(app, seconds: float) -> None:
    """Let the window run for a while (timers fire, layouts settle)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.01)


def save_settings_dialog(app, window, out: Path) -> None:
    from .settings_dialog import SettingsDialog

    dialog = SettingsDialog(window.library.settings, window.library.catalog, window)
    dialog.show()
    for _ in range(10):
        app.processEvents()
        time.sleep(0.02)
    dialog.grab().save(str(out))
    dialog.close()
    print(f"saved {out}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", type=Path)
    parser.add_argument("--question", default=QUESTION)
    parser.add_argument("--follow-up", default=FOLLOW_UP, help="a second question in the same chat ('' for none)")
    parser.add_argument("--timeout", type=float, default=900.0)
    parser.add_argument("--settings", type=Path, help="also save the Settings dialog here (its plain part; Advanced closed)")
    parser.add_argument("--first-look", type=Path, help="also save the window here while the first question's queries are written")
    args = parser.parse_args(argv)
    home = Path(tempfile.mkdtemp(prefix="desktop-app-screenshot-"))
    os.environ["DESKTOP_APP_HOME"] = str(home)

    from ..sample_datasheet import write_sample_datasheet
    from .app import create_application
    from .main_window import MainWindow

    app = create_application(sys.argv[:1])
    window = MainWindow()  # at its default size: what a person sees first
    window.show()
    pdf = write_sample_datasheet(home / "documents" / "PX-40 datasheet.pdf")
    window.import_controller.import_paths([str(pdf)])
    wait_until(app, lambda: window.documents.rowCount() == 1 and not window.import_jobs.busy, args.timeout)
    wait_until(app, lambda: window.model_controller.ready, args.timeout)
    for question in [args.question, args.follow_up]:
        if not question:
            continue
        window.chat_panel.input.setPlainText(question)
        window.chat_panel.send_requested.emit(question)
        if args.first_look and question == args.question:
            # Fusion mode: the question's own finds are on screen while the model writes its search queries.
            wait_until(app, lambda: window.chat_panel.view.entries[-1].quotes_first_look, args.timeout)
            for _ in range(5):
                app.processEvents()
                time.sleep(0.01)
            window.grab().save(str(args.first_look))
            print(f"saved {args.first_look}")
        wait_until(app, lambda: not window.ask_controller.running, args.timeout)
    entries = window.chat_panel.view.entries
    result = entries[-1].result
    if result and result.citations:
        window.evidence_controller.show_citation(len(entries) - 1, result.citations[0].n)
    for _ in range(20):
        app.processEvents()
        time.sleep(0.02)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    if not window.grab().save(str(args.out)):
        print(f"could not write {args.out}", file=sys.stderr)
        return 1
    print(f"saved {args.out} ({args.out.stat().st_size // 1024} KB); answer: {entries[-1].text!r}")
    if args.settings:
        save_settings_dialog(app, window, args.settings)
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
