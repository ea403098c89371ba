"""Folders kept in sync: what a watched folder holds now against what the library holds from it.

A rescan (on start, `watch sync`) compares every file under the folder; a watcher's burst of changes
(folder_watch.py) compares only the paths it names. Either way the answer is the same two lists: files to
import (new, or changed: their content hash differs from the stored one, as an import decides) and
documents to remove (their file was deleted or moved out of the folder). Temporary and hidden files are
passed by: editors and office suites write them beside a document while it is open or being saved.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ..formats import is_hidden_or_temporary, is_importable
from ..storage.store import Store
from ..types import Document
from .importer import file_hash  # the importer's own hash: "changed" means what an import would re-import

# Files that are never documents: the desktop's folder settings and the leftovers of saving.
IGNORED_NAMES = frozenset({".ds_store", "thumbs.db", "desktop.ini"})
TEMPORARY_SUFFIXES = (".tmp", ".temp", ".swp", ".swo", ".swx", ".part", ".partial", ".crdownload", ".download", ".bak", "~")


def is_ignored(path: Path | str, folder: Path | str | None = None) -> bool:
    """Hidden (a dot-file, or inside a dot-folder below `folder`), or a temporary file: "~$report.docx" (an open
    Office file's owner file), ".#notes.md" (Emacs's lock), "#notes.md#", "x.swp", "x.tmp", "x.docx~"."""
    path = Path(path)
    parts = path.relative_to(folder).parts if folder is not None and path.is_relative_to(folder) else (path.name,)
    if any(part.startswith(".") for part in parts) or is_hidden_or_temporary(path):
        return True
    name = path.name.lower()
    return name in IGNORED_NAMES or (name.startswith("#") and name.endswith("#")) or name.endswith(TEMPORARY_SUFFIXES)


def is_document_file(path: Path, folder: Path | None = None) -> bool:
    return is_importable(path) and not is_ignored(path, folder)


def folder_files(folder: Path) -> list[Path]:
    """Every document file under the folder (resolved), hidden folders not entered, in a stable order."""
    out = []
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            path = Path(root) / name
            if path.is_file() and is_document_file(path, folder):
                out.append(path.resolve())
    return out


@dataclass(frozen=True)
class FolderChanges:
    folder: str
    to_import: list[Path] = field(default_factory=list)  # new or changed files
    to_remove: list[Document] = field(default_factory=list)  # their file is gone from the folder

    def __bool__(self) -> bool:
        return bool(self.to_import or self.to_remove)


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def plan_sync(store: Store, folder: str, changed: Iterable[str] | None = None) -> FolderChanges:
    """What to import and remove so the library matches the folder: all of it (`changed` None), or only the
    given paths (files or folders, present or gone: a watcher's report)."""
    root = Path(folder)
    if changed is None:
        scopes = [folder]
        present = folder_files(root)
    else:
        scopes = sorted({str(Path(p)) for p in changed if _under(str(Path(p)), folder)})
        present = []
        for scope in map(Path, scopes):
            if scope.is_dir():
                present += folder_files(scope) if not is_ignored(scope, root) else []
            elif scope.is_file() and is_document_file(scope, root):
                present.append(scope.resolve())
    stored = {d.path: d for d in store.documents() if any(_under(d.path, s) for s in scopes)}
    to_import = []
    for file in dict.fromkeys(present):
        document = stored.get(str(file))
        try:
            if document is None or (store.document_by_path(document.path) or (None, ""))[1] != file_hash(file):
                to_import.append(file)
        except OSError:
            continue  # gone or unreadable since the scan: the next change or rescan sees it
    # Gone from the folder (deleted, moved away, renamed to a hidden or temporary name): out of the library.
    kept = {str(f) for f in present}
    to_remove = [d for path, d in stored.items() if path not in kept and not (Path(path).is_file() and is_document_file(Path(path), root))]
    return FolderChanges(folder, to_import, to_remove)
