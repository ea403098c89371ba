"""The Library's watched folders: kept in sync with the library (new and changed files imported, gone ones removed)."""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from pathlib import Path

from .errors import AppError
from .ingest.folder_sync import plan_sync
from .storage.store import Store
from .types import ImportProgress


class WatchedFolders:
    """Mixed into Library (library.py), which provides `store`, `import_paths`, `store_paths` and `remove_document`."""

    store: Store

    def watched_folders(self) -> list[str]:
        return self.store.watched_folders()

    def watch_folder(self, folder: Path | str) -> str:
        """Keeps a folder in sync from now on (`sync_folders` imports what it holds); returns its resolved path."""
        path = Path(folder).expanduser().resolve()
        if not path.is_dir():
            raise AppError(f"{path} is not a folder", hint="Give the path of a folder that exists.")
        self.store.add_watched_folder(str(path))
        return str(path)

    def unwatch_folder(self, folder: Path | str) -> bool:
        """Stops keeping it in sync; its documents stay in the library. False when it was not watched."""
        return self.store.remove_watched_folder(str(folder)) or self.store.remove_watched_folder(str(Path(folder).expanduser().resolve()))

    def sync_folders(
        self, folders: Iterable[str] | None = None, changed: Iterable[str] | None = None, cancel: threading.Event | None = None, embed: bool = True
    ) -> Iterator[ImportProgress]:
        """Brings the library in line with the watched folders (all, or `folders`): documents whose file was deleted
        or moved away are removed ("removed"; chats that cited them keep the quoted text in their saved answers),
        new and changed files imported. `changed`: only the paths a watcher reported; None rescans every file.
        `embed` False stores the text only (the window's embedding queue follows)."""
        changed = None if changed is None else list(changed)
        plans = []
        for folder in self.watched_folders() if folders is None else folders:
            if not Path(folder).is_dir():
                # An unplugged drive is not a deletion: nothing is removed while the folder is away.
                yield ImportProgress(folder, "warning", message=f"The watched folder {folder} is not there; its documents stay in the library until it is back")
                continue
            plans.append(plan_sync(self.store, folder, changed))
        for plan in plans:
            for document in plan.to_remove:
                self.remove_document(document.id)
                yield ImportProgress(document.path, "removed", message=f"no longer in {plan.folder}", document_id=document.id)
        files = [file for plan in plans for file in plan.to_import]
        if files:
            yield from (self.import_paths if embed else self.store_paths)(files, cancel=cancel)

