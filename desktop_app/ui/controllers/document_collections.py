"""Collections: named sets of documents that questions can be limited to ("Search in" in the library panel)."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtWidgets import QInputDialog

from ...core.errors import AppError
from ...core.library import Library
from ..library_panel import LibraryPanel
from ..models import CollectionsModel, DocumentsModel
from ..workers import JobRunner, call_in_background
from .feedback import Feedback


@dataclass(eq=False)
class CollectionController:
    library: Library
    collections: CollectionsModel
    documents: DocumentsModel
    panel: LibraryPanel
    feedback: Feedback
    jobs: JobRunner  # the library runner: collections are written there, never in the window

    def refresh(self, select: str | None = None) -> None:
        """Reloads the collections from SQLite and keeps (or switches to) the selected one."""
        name = self.panel.collection_name() if select is None else select
        try:
            collections = self.library.collections()
            if name and name not in {n for _, n, _ in collections}:
                name = ""
            ids = self.library.collection_documents(name) if name else None
        except AppError as exc:
            self.feedback.report(exc)
            return
        self.panel.collection.blockSignals(True)  # resetting the model must not count as the person choosing
        self.collections.set_collections(collections)
        self.panel.collection.blockSignals(False)
        self.panel.select_collection(name, ids)

    def scope_changed(self) -> None:
        self.refresh(self.panel.collection_name())

    def create(self, document_ids: list[int]) -> None:
        if not document_ids:
            self.feedback.say("Tick the documents to put in the collection first.", 8000)
            return
        name, ok = QInputDialog.getText(self.feedback.window, "New collection", f"Name of the collection of the {len(document_ids)} ticked documents:")
        name = name.strip()
        if ok and name:
            self.add(name, document_ids)

    def add(self, name: str, document_ids: list[int]) -> None:
        wanted = set(document_ids)
        paths = [d.path for d in self.documents.documents if d.id in wanted]

        def saved(_: object) -> None:
            self.refresh(select=name)
            self.feedback.say(f"Collection '{name}' saved; questions now search it.", 8000)

        call_in_background(self.jobs, "save collection", lambda: self.library.add_to_collection(name, paths), saved, self.feedback.report)

    def delete(self, name: str) -> None:
        if not name:
            return
        call_in_background(self.jobs, "delete collection", lambda: self.library.delete_collection(name), lambda _: self.refresh(select=""), self.feedback.report)
