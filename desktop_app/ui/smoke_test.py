"""Packaging checks drive the real window with no one at it (packaging/check_bundle.py, tests/packaging).

`DESKTOP_APP_SMOKE_TEST=window desktop-app`: print "smoke test: window usable" on the event loop's first turn
after the window showed, and exit (what the start-up time is measured to).
`DESKTOP_APP_SMOKE_TEST=1 desktop-app`: exit 0 once the window is open and the models loaded, 1 if they fail.
With documents on the command line and `DESKTOP_APP_SMOKE_QUESTION`, it also waits for their import,
asks the question in the window and prints one JSON line with what the answer showed, then quits:
exit 0 when an answer came back from the imported documents. It uses the controllers the window's
own buttons use, and never blocks the event loop (a timer looks every 200 ms).
"""

from __future__ import annotations

import json
import os
import time

PREFIX = "smoke test:"
WINDOW_USABLE = f"{PREFIX} window usable"


def start(app, window, documents: int) -> None:
    """Watch the window and quit the app with the check's outcome."""
    from PySide6.QtCore import QTimer

    from .controllers.model_loading import NOT_AVAILABLE

    if os.environ.get("DESKTOP_APP_SMOKE_TEST") == "window":
        # Called after window.show(): this runs once the loop has laid out and painted the window. It leaves at
        # once, as bench/startup.py does: the models loading in the background would make a normal exit wait.
        QTimer.singleShot(0, lambda: (print(WINDOW_USABLE, flush=True), os._exit(0)))
        return
    question = os.environ.get("DESKTOP_APP_SMOKE_QUESTION", "").strip()
    state = {"asked": False, "started": time.monotonic()}
    timer = QTimer(window)

    def finish(code: int, message: str) -> None:
        timer.stop()
        print(f"{PREFIX} {message}", flush=True)
        app.exit(code)

    def check() -> None:
        if window.model_status.text() == NOT_AVAILABLE:
            return finish(1, "the models failed to load")
        if not window.model_controller.ready:
            return
        if not (question and documents):
            return finish(0, f"window open, models loaded ({window.model_status.text()})")
        if window.import_jobs.busy:
            return
        if not state["asked"]:
            docs = window.documents.documents
            ready = sum(d.status == "ready" for d in docs)
            if ready < documents:
                if any(d.status == "embedding" for d in docs):
                    return  # stored and searchable by keyword; the vectors are still being made
                return finish(1, f"{ready} of {documents} documents imported")
            state["asked"] = True
            window.chat_panel.input.setPlainText(question)
            window.chat_panel.send_requested.emit(question)
            return
        if window.ask_controller.running:
            return
        entry = window.chat_panel.view.entries[-1]
        result = entry.result
        report = {
            "question": question,
            "answer": entry.text[:300],
            "found": bool(result and result.found),
            "sources": [{"file": os.path.basename(s.passage.file), "page": s.passage.page} for s in (result.sources if result else ())],
            "seconds": round(time.monotonic() - state["started"], 1),
        }
        print(json.dumps(report), flush=True)
        ok = bool(result and result.sources and entry.text.strip())
        finish(0 if ok else 1, "answered from the imported documents" if ok else "no answer from the imported documents")

    timer.timeout.connect(check)
    timer.start(200)
