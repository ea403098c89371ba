"""The library side panel: documents with their status, per-file import progress, the drop hint.

Whatever is imported or kept in sync, the panel keeps its height: the import rows and the watched folders are
folded under one summary line each and scroll, and the document table keeps MIN_ROWS rows in view."""

from __future__ import annotations

import html

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QAbstractItemView, QComboBox, QHBoxLayout, QHeaderView, QLabel, QStackedWidget, QTableView, QToolButton, QVBoxLayout, QWidget

from ..core.formats import format_names
from ..core.types import ImportProgress
<<<<<<< HEAD
from .import_list import ImportList
=======
from ..core.wording import counted
>>>>>>> h-fresh
from .import_row import ImportRow
from .indexing_status import IndexingStatus
from .models import CollectionsModel, DocumentsModel
from .parts import Pixmap, inline_icon, push_button, title_row, tool_button
from .watched_folders_view import WatchedFoldersView


MIN_ROWS = 6  # documents the table always shows, however much else the panel holds


class DocumentTable(QTableView):
    """A table that never gets less room than MIN_ROWS rows: the parts around it fold or scroll first."""

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        rows = MIN_ROWS * self.verticalHeader().defaultSectionSize()
        hint.setHeight(self.horizontalHeader().sizeHint().height() + rows + 2 * self.frameWidth())
        return hint


class LibraryPanel(QWidget):
    add_requested = Signal()
    remove_requested = Signal(list)  # document ids
    cancel_import = Signal(str)  # file
    collection_requested = Signal(list)  # ticked document ids to make a collection of
    delete_collection_requested = Signal(str)  # collection name
    scope_changed = Signal()

    def __init__(self, model: DocumentsModel, collections: CollectionsModel | None = None, parent=None):
        super().__init__(parent)
        self.model = model
        self.collections = collections or CollectionsModel(self)
        add_tip = f"Add {format_names()} files (Ctrl+O). You can also drop files or folders anywhere on the window."
        self.add_button = push_button(self, Pixmap.SP_FileDialogNewFolder, "Add documents...", add_tip, self.add_requested)
        self.remove_button = tool_button(self, Pixmap.SP_TrashIcon, "Remove the selected documents from the library (Delete)", self._remove_selected)
        self.remove_button.setEnabled(False)

        self.table = DocumentTable()
        self.table.setModel(model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setAlternatingRowColors(True)
        self.table.setShowGrid(False)
        self.table.verticalHeader().hide()
        self.table.setWordWrap(False)
        h = self.table.horizontalHeader()
        h.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for col, width in ((1, 50), (2, 62), (3, 64)):
            h.setSectionResizeMode(col, QHeaderView.ResizeMode.Fixed)
            self.table.setColumnWidth(col, width)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.table.selectionModel().selectionChanged.connect(lambda *_: self.remove_button.setEnabled(self.table.selectionModel().hasSelection()))
        QShortcut(QKeySequence.StandardKey.Delete, self.table, self._remove_selected).setWhatsThis("Remove the selected documents from the library")

        self.drop_hint = QLabel(
            "<div style='font-size:15px; font-weight:600'>Drop PDFs or folders here</div>"
            "<div>or click <b>Add documents...</b> (Ctrl+O).<br>They stay on this computer.</div>"
        )
        self.drop_hint.setObjectName("dropHint")
        self.drop_hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.drop_hint.setWordWrap(True)
        self.stack = QStackedWidget()
        self.stack.addWidget(self.drop_hint)
        self.stack.addWidget(self.table)

        # "Search in": all documents or a saved collection; ticks narrow either further.
        self.collection = QComboBox()
        self.collection.setModel(self.collections)
        self.collection.setToolTip("Limit questions to a collection of documents")
        self.collection.currentIndexChanged.connect(self._collection_changed)
        self.new_collection = QToolButton()
        self.new_collection.setText("New collection...")
        self.new_collection.setToolTip("Make a collection of the ticked documents")
        self.new_collection.clicked.connect(lambda: self.collection_requested.emit(self.model.checked_ids()))
        self.delete_collection = tool_button(
            self, Pixmap.SP_TrashIcon, "Delete this collection (its documents stay in the library)", lambda: self.delete_collection_requested.emit(self.collection_name())
        )
        scope_row = QHBoxLayout()
        scope_row.addWidget(QLabel("Search in:"))
        scope_row.addWidget(self.collection, 1)
        scope_row.addWidget(self.new_collection)
        scope_row.addWidget(self.delete_collection)
        self.scope = QLabel()
        self.scope.setObjectName("hint")
        self.scope.setWordWrap(True)
        # Problems that concern the whole library, not one file (the index could not be saved).
        self.warning = QLabel()
        self.warning.setObjectName("libraryWarning")
        self.warning.setWordWrap(True)
        self.warning.setStyleSheet("color: #7a5d00;")
        self.warning.hide()
        self.collection_ids: list[int] | None = None  # the selected collection's documents; None for all
        self.imports = ImportList()  # one summary line; the file rows fold under it
        self.imports.cancel_requested.connect(self.cancel_import)
        self.indexing = IndexingStatus()  # the meaning-index queue of every import, with "cancel all"
        self.watched = WatchedFoldersView()  # the folders kept in sync

        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 4)
        layout.addLayout(title_row("Library", self.add_button, self.remove_button))
        layout.addWidget(self.stack, 1)
        layout.addWidget(self.imports)
        layout.addWidget(self.indexing)
        layout.addWidget(self.watched)
        layout.addWidget(self.warning)
        layout.addLayout(scope_row)
        layout.addWidget(self.scope)
        model.modelReset.connect(self._refresh)
        model.checked_changed.connect(self._refresh)
        self._refresh()

    def minimumSizeHint(self) -> QSize:
        """The least height its parts need at the panel's width: wrapped lines take more rows in a narrow panel,
        and a splitter that gave the panel less would squeeze the table or draw the lines over each other."""
        hint = super().minimumSizeHint()
        if self.width() > 0:
            hint.setHeight(max(hint.height(), self.layout().totalMinimumHeightForWidth(self.width())))
        return hint

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if event.oldSize().width() != event.size().width():
            self.updateGeometry()  # the wrapped lines' height changed with the width

    def collection_name(self) -> str:
        return self.collections.name(self.collection.currentIndex())

    def select_collection(self, name: str, ids: list[int] | None) -> None:
        """Selects a collection by name ("" for all documents) with its document ids."""
        self.collection.blockSignals(True)
        self.collection.setCurrentIndex(self.collections.row_of(name))
        self.collection.blockSignals(False)
        self.collection_ids = ids if name else None
        self._refresh()

    def _collection_changed(self, _row: int) -> None:
        self.scope_changed.emit()  # the window looks the collection's documents up and calls select_collection

    def allowed_documents(self) -> list[int] | None:
        """The documents questions may use: the collection's (or all), narrowed by the ticks; None means all."""
        checked = self.model.checked_ids()
        if self.collection_ids is None:
            return checked or None
        if checked:
            return [i for i in checked if i in set(self.collection_ids)]
        return list(self.collection_ids)

    def show_warning(self, text: str) -> None:
        self.warning.setText(f"{inline_icon(self, Pixmap.SP_MessageBoxWarning)} {html.escape(text)}" if text else "")
        self.warning.setVisible(bool(text))

    def _refresh(self) -> None:
        self.stack.setCurrentWidget(self.table if self.model.rowCount() else self.drop_hint)
        checked = len(self.model.checked_ids())
        total = self.model.rowCount()
        self.new_collection.setEnabled(checked > 0)
        self.delete_collection.setEnabled(self.collection.currentIndex() > 0)
        name = self.collection_name()
        if not total:
            self.scope.setText("")
        elif name and self.collection_ids is not None:
            allowed = self.allowed_documents() or []
            narrowed = " (narrowed by the ticks)" if checked else ""
            self.scope.setText(f"Questions search {counted(len(allowed), 'document')} of the collection '{name}'{narrowed}.")
        elif checked:
            self.scope.setText(f"Questions search the {checked} ticked of {total} documents.")
        else:
            everything = "the one document" if total == 1 else f"all {total} documents"
            self.scope.setText(f"Questions search {everything}; tick some to limit them.")

    def _remove_selected(self) -> None:
        rows = sorted({i.row() for i in self.table.selectionModel().selectedRows()})
        if rows:
            self.remove_requested.emit([self.model.document(r).id for r in rows])

    # -- import rows ----------------------------------------------------------------------------
    @property
    def rows(self) -> dict[str, ImportRow]:
        """The files listed under the import summary (a finished file's row leaves after a moment)."""
        return self.imports.rows

    def show_progress(self, event: ImportProgress) -> None:
        self.imports.show_progress(event)

    def clear_finished(self, keep_failed: bool = True) -> None:
        self.imports.clear_finished(keep_failed)
