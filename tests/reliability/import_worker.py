"""A real import in its own process, for the kill-and-restart and two-process tests.

Usage: python -m tests.reliability.import_worker HOME PATH...
Prints "opened" once the library is open, one line per final event, then "finished".
Uses the hashing embedder so the test measures crash safety, not model speed.
"""

from __future__ import annotations

import sys
from pathlib import Path

from desktop_app.core.ingest import embedding_queue
from desktop_app.core.library import Library
from tests.fakes import HashingEmbedder, ScriptedGenerator


def main(argv: list[str]) -> int:
    home, paths = Path(argv[0]), argv[1:]
    # Save the index after every file, so kills also land inside index saves.
    embedding_queue.INDEX_SAVE_INTERVAL_S = 0.0
    library = Library(home, embedder=HashingEmbedder(), generator=ScriptedGenerator())
    print("opened", flush=True)
    for event in library.import_paths(paths):
        if event.stage in ("ready", "skipped", "failed", "cancelled"):
            print(event.stage, Path(event.file).name, event.message, flush=True)
    library.close()
    print("finished", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
