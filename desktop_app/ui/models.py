"""Qt item models over the core's typed data: documents, chats, collections, the fused passages of an answer, SQL rows."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import QAbstractListModel, QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal

from ..core.formats import SECTION
from ..core.places import TABLE, also_label, place_of
from ..core.sql.text_to_sql import format_value
from ..core.types import AskResult, Document, Source
from .chat_list_model import ChatsModel as ChatsModel  # the window's models, importable from one place

SORT_ROLE = Qt.ItemDataRole.UserRole + 1
ID_ROLE = Qt.ItemDataRole.UserRole + 2
_Index = QModelIndex | QPersistentModelIndex
_STATUS_TEXT = {"ready": "ready", "failed": "failed", "embedding": "indexing (keyword search works)"}


class DocumentsModel(QAbstractTableModel):
    """The library: one row per document; the tick box limits questions to the ticked documents."""

    HEADERS = ("Title", "Pages", "Chunks", "Status")
    checked_changed = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self._docs: list[Document] = []
        self._checked: set[int] = set()

    def set_documents(self, docs: list[Document]) -> None:
        self.beginResetModel()
        self._docs = list(docs)
        self._checked &= {d.id for d in docs}
        self.endResetModel()
        self.checked_changed.emit()

    def document(self, row: int) -> Document:
        return self._docs[row]

    @property
    def documents(self) -> list[Document]:
        return list(self._docs)

    def checked_ids(self) -> list[int]:
        return [d.id for d in self._docs if d.id in self._checked]

    def rowCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._docs)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal and 0 <= section < len(self.HEADERS):
            return self.HEADERS[section]
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._docs):
            return None
        doc = self._docs[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if doc.kind == "table":  # CSV/Excel: no pages or chunks; its rows, asked with SQL
                return (doc.title, "table", f"{doc.rows} rows", _STATUS_TEXT.get(doc.status, doc.status))[column]
            return (doc.title, str(doc.pages), str(doc.chunks), _STATUS_TEXT.get(doc.status, doc.status))[column]
        if role == Qt.ItemDataRole.ToolTipRole:
            if doc.kind == "table" and not doc.error:
                return f"{doc.path}\n{doc.rows} rows in {doc.pages} table{'s' if doc.pages != 1 else ''}; asked with SQL (Tables mode)"
            if doc.unit == SECTION and not doc.error:
                return f"{doc.path}\n{doc.pages} section{'s' if doc.pages != 1 else ''} (the file has no pages; passages are cited by their heading)"
            return doc.error or doc.path
        if role == Qt.ItemDataRole.CheckStateRole and column == 0:
            return Qt.CheckState.Checked if doc.id in self._checked else Qt.CheckState.Unchecked
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (1, 2):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == ID_ROLE:
            return doc.id
        return None

    def setData(self, index: _Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if not index.isValid() or index.column() != 0 or role != Qt.ItemDataRole.CheckStateRole:
            return False
        doc = self._docs[index.row()]
        checked = Qt.CheckState(value) == Qt.CheckState.Checked if not isinstance(value, bool) else value
        if checked:
            self._checked.add(doc.id)
        else:
            self._checked.discard(doc.id)
        self.dataChanged.emit(index, index, [Qt.ItemDataRole.CheckStateRole])
        self.checked_changed.emit()
        return True

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if index.column() == 0:
            flags |= Qt.ItemFlag.ItemIsUserCheckable
        return flags


def list_keys(result: AskResult) -> list[str]:
    """The ranked lists of an answer in a stable order: the question, each generated query, then any others.

    A follow-up is searched as its standalone rewrite, so that is the question's list.
    """
    keys = [result.standalone_question or result.question, *result.queries]
    for source in result.sources:
        for key in source.ranks:
            if key not in keys:
                keys.append(key)
    return keys


class FusedPassagesModel(QAbstractTableModel):
    """The fused list of one answer: RRF score, rank under each query (blank where it missed), file, page, snippet."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self._rows: list[Source] = []
        self._keys: list[str] = []
        self._union = False
        self._rrf_k = 60.0

    def set_result(self, result: AskResult | None) -> None:
        self.beginResetModel()
        self._rows = list(result.sources) if result else []
        self._keys = list_keys(result) if result else []
        # Multi-query merges by union: its "rrf_score" holds the passage's best cosine similarity.
        self._union = result is not None and result.mode == "multi-query"
        self._rrf_k = result.rrf_k if result else 60.0
        self.endResetModel()

    def source(self, row: int) -> Source:
        return self._rows[row]

    @property
    def query_keys(self) -> list[str]:
        return list(self._keys)

    def _headers(self) -> list[str]:
        # "Asked": the list of the question as asked; a short title, so the narrow rank column shows all of it.
        queries = ["Asked" if i == 0 else f"Q{i}" for i in range(len(self._keys))]
        return ["#", "Score" if self._union else "RRF", *queries, "File", "Page", "Passage"]

    def rowCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else (len(self._keys) + 5 if self._rows or self._keys else 0)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < self.columnCount():
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self._headers()[section]
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._header_tip(section)
        return None

    def _header_tip(self, section: int) -> str:
        """What a column means, shown when the pointer rests on its title (the table keeps all the room)."""
        n_keys = len(self._keys)
        if 2 <= section < 2 + n_keys:
            query = self._keys[section - 2]
            which = "your question as asked" if section == 2 else f"generated query Q{section - 2}"
            return f"Rank of the passage in the results of {which}: \u201c{query}\u201d (blank: that search did not find it)"
        if section == 1 and self._union:
            return "Best cosine similarity to any query (multi-query merges the lists by union, without RRF)"
        if section == 1:
            return f"RRF score: sum of weight/(k + rank) over the lists that found the passage; k = {self._rrf_k:g}."
        return {
            0: "The passage's place in the fused list (1 = best)",
            n_keys + 2: "The file the passage comes from",
            n_keys + 3: "The page (or section, or table) it is on",
            n_keys + 4: "The passage; point at a row for all of it, click it to see it on its page",
        }.get(section, "")

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        source = self._rows[index.row()]
        passage = source.passage
        column = index.column()
        n_keys = len(self._keys)
        if 2 <= column < 2 + n_keys:
            rank = source.ranks.get(self._keys[column - 2])
            if role == Qt.ItemDataRole.DisplayRole:
                return "" if rank is None else str(rank)
            if role == SORT_ROLE:
                return 10**6 if rank is None else rank  # missing ranks sort last
        elif role in (Qt.ItemDataRole.DisplayRole, SORT_ROLE):
            name = Path(passage.file).name
            snippet = " ".join(passage.text.split())
            page = str(passage.page)
            if passage.section is not None:  # Word, HTML: the heading it sits under; sorted in document order by `page`
                page = place_of(passage).removeprefix("section ")
            elif passage.kind == TABLE:
                page = f"table {page}"
            if passage.kind == TABLE:
                snippet = f"[{place_of(passage)}] {snippet}"
            shown = f"{name} (+{len(source.also)})" if source.also else name  # the same text elsewhere: in the tooltip
            display = {0: str(index.row() + 1), 1: f"{source.rrf_score:.4f}", n_keys + 2: shown, n_keys + 3: page, n_keys + 4: snippet[:160]}
            sort = {0: index.row() + 1, 1: -source.rrf_score, n_keys + 2: name.lower(), n_keys + 3: passage.page, n_keys + 4: snippet.lower()}
            return (display if role == Qt.ItemDataRole.DisplayRole else sort).get(column)
        if role == Qt.ItemDataRole.ToolTipRole:
            also = f"\n\n{also_label(source.also)}" if source.also else ""
            return " ".join(passage.text.split()) + also
        if role == Qt.ItemDataRole.TextAlignmentRole and column < 2 + n_keys + 0 or (role == Qt.ItemDataRole.TextAlignmentRole and column == n_keys + 3):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == ID_ROLE:
            return passage.chunk_id
        return None


ALL_DOCUMENTS = ""  # the selector's first row: no collection, search everything


class CollectionsModel(QAbstractListModel):
    """The "Search in" choices: all documents, then each saved collection with its document count."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self._collections: list[tuple[int, str, int]] = []

    def set_collections(self, collections: list[tuple[int, str, int]]) -> None:
        self.beginResetModel()
        self._collections = list(collections)
        self.endResetModel()

    def name(self, row: int) -> str:
        """The collection's name, or ALL_DOCUMENTS for the first row."""
        return ALL_DOCUMENTS if row <= 0 else self._collections[row - 1][1]

    def row_of(self, name: str) -> int:
        for row, collection in enumerate(self._collections, 1):
            if collection[1] == name:
                return row
        return 0

    def rowCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._collections) + 1

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() <= len(self._collections):
            return None
        if index.row() == 0:
            if role == Qt.ItemDataRole.DisplayRole:
                return "All documents"
            if role == Qt.ItemDataRole.ToolTipRole:
                return "Questions search every document (ticks narrow it further)"
            if role == ID_ROLE:
                return ALL_DOCUMENTS
            return None
        _id, name, count = self._collections[index.row() - 1]
        if role == Qt.ItemDataRole.DisplayRole:
            return f"{name} ({count})"
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"Collection '{name}': {count} document{'s' if count != 1 else ''}"
        if role == ID_ROLE:
            return name
        return None


class ResultRowsModel(QAbstractTableModel):
    """The rows an SQL query returned, read-only."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self._columns: list[str] = []
        self._rows: list[list[Any]] = []

    def set_result(self, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
        self.beginResetModel()
        self._columns = list(columns)
        self._rows = [list(r) for r in rows]
        self.endResetModel()

    def rowCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._columns)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal:
            return self._columns[section] if 0 <= section < len(self._columns) else None
        return str(section + 1)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows) or not 0 <= index.column() < len(self._columns):
            return None
        value = self._rows[index.row()][index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return format_value(value)
        if role == Qt.ItemDataRole.TextAlignmentRole and isinstance(value, (int, float)):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None
