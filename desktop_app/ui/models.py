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
from ..core.wording import counted
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
                return (doc.label, "table", counted(doc.rows, "row"), _STATUS_TEXT.get(doc.status, doc.status))[column]
            return (doc.label, str(doc.pages), str(doc.chunks), _STATUS_TEXT.get(doc.status, doc.status))[column]
        if role == Qt.ItemDataRole.ToolTipRole:
            if doc.kind == "table" and not doc.error:
                return f"{doc.path}\n{counted(doc.rows, 'row')} in {counted(doc.pages, 'table')}; asked with SQL (Tables mode)"
            if doc.unit == SECTION and not doc.error:
                return f"{doc.path}\n{counted(doc.pages, 'section')} (the file has no pages; passages are cited by their heading)"
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


SEARCH_KINDS = {"vector": "by meaning", "keyword": "by keywords"}


def rank_columns(result: AskResult) -> list[tuple[str, tuple[str, ...]]]:
    """One rank column per searched text, in a stable order: the question, each generated query (the query
    box's Q1..Qn), then any other text searched; each with the keys of its ranked lists.

    A text is searched by meaning and, in fusion, by keywords too: both lists are that text's column, so the
    table has exactly the columns the query box names. A follow-up is searched as its standalone rewrite, so
    that is the question's column.
    """
    text_of = {ranked.key: ranked.query for ranked in result.lists}
    columns: dict[str, list[str]] = {text: [] for text in (result.standalone_question or result.question, *result.queries)}
    for key in [*(ranked.key for ranked in result.lists), *(key for source in result.sources for key in source.ranks)]:
        keys = columns.setdefault(text_of.get(key, key), [])
        if key not in keys:
            keys.append(key)
    return [(text, tuple(keys)) for text, keys in columns.items()]


class FusedPassagesModel(QAbstractTableModel):
    """The fused list of one answer: RRF score, rank under each query (blank where it missed), file, page, snippet."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self._rows: list[Source] = []
        self._columns: list[tuple[str, tuple[str, ...]]] = []  # rank columns: (searched text, its lists' keys)
        self._kinds: dict[str, str] = {}  # list key -> "vector" or "keyword"
        self._n_queries = 0
        self._union = False
        self._searched = True  # False: a whole-document answer's passages, read from the document, never searched
        self._rrf_k = 60.0

    def set_result(self, result: AskResult | None) -> None:
        self.beginResetModel()
        self._rows = list(result.sources) if result else []
        self._searched = result is None or not result.answered_from
        self._columns = rank_columns(result) if result and self._searched else []  # no search: no rank to show
        self._kinds = {ranked.key: ranked.kind for ranked in result.lists} if result else {}
        self._n_queries = len(result.queries) if result else 0
        # Multi-query merges by union: its "rrf_score" holds the passage's best cosine similarity.
        self._union = result is not None and result.mode == "multi-query"
        self._rrf_k = result.rrf_k if result else 60.0
        self.endResetModel()

    def source(self, row: int) -> Source:
        return self._rows[row]

    @property
    def query_keys(self) -> list[str]:
        """The searched texts, one per rank column: the question, then the queries."""
        return [text for text, _ in self._columns]

    def _rank_title(self, i: int) -> str:
        # "Asked": the question as asked; short titles, so the narrow rank columns show all of them.
        if i == 0:
            return "Asked"
        return f"Q{i}" if i <= self._n_queries else f"+{i - self._n_queries}"  # "+1": a text searched besides the queries

    def _headers(self) -> list[str]:
        ranks = [self._rank_title(i) for i in range(len(self._columns))]
        return ["#", "Score" if self._union else "RRF", *ranks, "File", "Page", "Passage"]

    def _ranks(self, source: Source, column: int) -> list[tuple[str, int]]:
        """The passage's rank in each list of a rank column that found it, with how that list searched."""
        _text, keys = self._columns[column]
        return [(SEARCH_KINDS.get(self._kinds.get(key, ""), "searched"), source.ranks[key]) for key in keys if key in source.ranks]

    def rowCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else (len(self._columns) + 5 if self._rows or self._columns else 0)

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
        n_keys = len(self._columns)
        if 2 <= section < 2 + n_keys:
            query, keys = self._columns[section - 2]
            which = "your question as asked" if section == 2 else f"query {self._rank_title(section - 2)}"
            both = "; the better of its searches by meaning and by keywords (point at a cell for each)" if len(keys) > 1 else ""
            return f"Rank of the passage in the results of {which}: \u201c{query}\u201d{both} (blank: not found)"
        if section == 1 and not self._searched:
            return "No score: nothing was searched; these passages were read from the document itself (its outline or overview)"
        if section == 1 and self._union:
            return "Best cosine similarity to any query (multi-query merges the lists by union, without RRF)"
        if section == 1:
            return (f"RRF score: sum of weight/(k + rank) over the lists that found the passage; k = {self._rrf_k:g}. A question about one "
                    "thing has the passage nearest it first (in meaning and in words), whatever its score.")
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
        n_keys = len(self._columns)
        if 2 <= column < 2 + n_keys:
            ranks = self._ranks(source, column - 2)
            best = min((rank for _, rank in ranks), default=None)
            if role == Qt.ItemDataRole.DisplayRole:
                return "" if best is None else str(best)
            if role == SORT_ROLE:
                return 10**6 if best is None else best  # missing ranks sort last
            if role == Qt.ItemDataRole.ToolTipRole:
                found = ", ".join(f"{rank} {kind}" for kind, rank in ranks) or "not found"
                return f"{self._rank_title(column - 2)} \u201c{self._columns[column - 2][0]}\u201d: ranked {found}"
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
            display = {0: str(index.row() + 1), 1: f"{source.rrf_score:.4f}" if self._searched else "", n_keys + 2: shown, n_keys + 3: page, n_keys + 4: snippet[:160]}
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
            return f"Collection '{name}': {counted(count, 'document')}"
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
