"""`watch add | list | remove | sync | run`: folders kept in sync with the library.

The command line has no event loop that outlives a command, so keeping a folder in sync is done in two ways:
`watch sync` rescans every watched folder now (new and changed files imported, deleted or moved-away ones
removed) and exits, for a cron job or a login script; `watch run` does the same and then keeps watching with
watchdog until Ctrl+C, importing each burst of changes once the folder has been quiet for a moment. The
window does both on its own: it rescans on start and watches while it is open.
"""

from __future__ import annotations

import argparse
import queue
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.wording import counted
from .render import TextRenderer
from .session import open_library

if TYPE_CHECKING:
    from ..core.library import Library


def _sync(library: Library, folders: list[str] | None = None, changed: set[str] | None = None) -> int:
    """One sync, shown as an import is; the number of files that failed."""
    renderer = TextRenderer()
    return sum(event.stage == "failed" for event in renderer.show(library.sync_folders(folders, changed)))


def cmd_add(args: argparse.Namespace) -> int:
    library = open_library(args)
    folder = library.watch_folder(args.folder)
    print(f"Keeping {folder} in sync with the library; importing what it holds now.")
    failed = _sync(library, [folder])
    print("Run 'desktop-app-cli watch run' to keep watching it (the window watches it while it is open).")
    return 1 if failed else 0


def cmd_list(args: argparse.Namespace) -> int:
    library = open_library(args)
    folders = library.watched_folders()
    if not folders:
        print("No watched folders. Add one with: desktop-app-cli watch add DIR")
    docs = library.documents()
    for folder in folders:
        count = sum(d.path.startswith(folder.rstrip("/") + "/") for d in docs)
        state = "" if Path(folder).is_dir() else "  (not there now: its documents are kept)"
        print(f"{folder}  {counted(count, 'document')}{state}")
    return 0


def cmd_remove(args: argparse.Namespace) -> int:
    library = open_library(args)
    if not library.unwatch_folder(args.folder):
        print(f"{args.folder} is not a watched folder. List them with: desktop-app-cli watch list", file=sys.stderr)
        return 1
    print(f"No longer keeping {args.folder} in sync; its documents stay in the library (remove them with: desktop-app-cli remove FILE).")
    return 0


def cmd_sync(args: argparse.Namespace) -> int:
    library = open_library(args)
    if not library.watched_folders():
        print("No watched folders. Add one with: desktop-app-cli watch add DIR")
        return 0
    return 1 if _sync(library) else 0


def watch_until(library: Library, stop: threading.Event, quiet_s: float | None = None) -> None:
    """Rescan, then import each debounced burst of changes until `stop` is set (Ctrl+C in `watch run`)."""
    from ..core.ingest.folder_watch import QUIET_S, FolderWatcher

    bursts: queue.Queue[set[str]] = queue.Queue()
    watcher = FolderWatcher(bursts.put, quiet_s=QUIET_S if quiet_s is None else quiet_s)
    try:
        for folder in library.watched_folders():
            watcher.watch(folder)  # before the rescan: a change made during it is not missed
        _sync(library)
        while not stop.is_set():
            try:
                changed = bursts.get(timeout=0.5)
            except queue.Empty:
                continue
            _sync(library, changed=changed)
    finally:
        watcher.stop()


def cmd_run(args: argparse.Namespace) -> int:
    library = open_library(args)
    folders = library.watched_folders()
    if not folders:
        print("No watched folders. Add one with: desktop-app-cli watch add DIR")
        return 0
    print(f"Watching {', '.join(folders)} (Ctrl+C to stop).", flush=True)
    try:
        watch_until(library, threading.Event())
    except KeyboardInterrupt:
        print("Stopped watching.")
    finally:
        library.close()
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("watch", help="folders kept in sync with the library: add, list, remove, sync, run")
    actions = p.add_subparsers(dest="watch_command", required=True)
    a = actions.add_parser("add", help="keep a folder in sync (imports what it holds now)")
    a.add_argument("folder")
    a.set_defaults(func=cmd_add)
    a = actions.add_parser("list", help="the watched folders and how many documents each holds")
    a.set_defaults(func=cmd_list)
    a = actions.add_parser("remove", help="stop keeping a folder in sync (its documents stay)")
    a.add_argument("folder")
    a.set_defaults(func=cmd_remove)
    a = actions.add_parser("sync", help="rescan every watched folder now: import new and changed files, remove deleted ones")
    a.set_defaults(func=cmd_sync)
    a = actions.add_parser("run", help="sync, then keep watching until Ctrl+C")
    a.set_defaults(func=cmd_run)
