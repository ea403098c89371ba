"""The fusion panel: the generated queries (editable, removable, re-run), the fused passages and the timings."""

from __future__ import annotations

import html
from collections.abc import Sequence

from PySide6.QtCore import QSize, QSortFilterProxyModel, QStringListModel, Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QHBoxLayout, QHeaderView, QLabel, QListView, QTableView, QToolButton, QVBoxLayout, QWidget

from ..core.sql.text_to_sql import duration_text
from ..core.types import AskResult, QuestionFilters, SqlResult, Timings
from .models import SORT_ROLE, FusedPassagesModel
from .parts import OneLineLabel, Pixmap, push_button, tool_button
from .table_result import SqlResultView

# The totals first: the line is one line high, cut to the panel's width (all of it in its tooltip).
_STAGES = (
    ("total", "total"),
    ("first_token", "first token"),
    ("query_generation", "queries"),
    ("embedding", "embed"),
    ("retrieval", "search"),
    ("fusion", "fuse"),
    ("generation", "answer"),
)
_SEARCH_STAGES = ("query_generation", "embedding", "retrieval", "fusion")


def timings_text(timings: Timings, searched: bool = True) -> str:
    # A search without an answer (no first token) says nothing of the answer rather than "0.00 s"; an answer without a
    # search (a whole document's) nothing of the search.
    shown = [(key, label) for key, label in _STAGES if (key not in ("first_token", "generation") or timings.first_token)
             and (searched or key not in _SEARCH_STAGES)]
    waited = [f"waited for the model {timings.model_wait:.2f} s"] if timings.model_wait >= 0.05 else []
    parts = [f"{label} {getattr(timings, key):.2f} s" for key, label in shown]
    return "  ·  ".join(parts[:1] + waited + parts[1:])


FUSED_TITLE = "Fused passages: click a row to see its page"
READ_TITLE = "Passages read, not searched: click a row to see its page"  # a whole-document answer's
PASSAGE_MIN_WIDTH = 200  # px: a few words of the passage, whatever the number of queries


class FusedTable(QTableView):
    """The fused passages: Passage takes the room the narrow columns leave, never less than PASSAGE_MIN_WIDTH;
    when many queries leave less, the rank columns (at the right) scroll instead."""

    passage_column = -1

    def fit_passage(self) -> None:
        column = self.passage_column
        if not 0 <= column < self.model().columnCount():
            return
        others = sum(self.columnWidth(c) for c in range(self.model().columnCount()) if c != column)
        self.setColumnWidth(column, max(PASSAGE_MIN_WIDTH, self.viewport().width() - others))

    def minimumSizeHint(self) -> QSize:
        """Room for the titles, one whole passage and the scroll bar under it, however little the panel has."""
        hint = super().minimumSizeHint()
        scroll_bar = self.horizontalScrollBar().sizeHint().height()
        hint.setHeight(self.horizontalHeader().sizeHint().height() + self.verticalHeader().defaultSectionSize() + scroll_bar + 2 * self.frameWidth())
        return hint

    def resizeEvent(self, event) -> None:  # the viewport's size, a vertical scroll bar coming or going included
        super().resizeEvent(event)
        self.fit_passage()


class FusionPanel(QWidget):
    rerun_requested = Signal(str, list)  # question, edited queries
    filter_removed = Signal(object, str)  # the question's filters, the phrase of the chip removed
    passage_selected = Signal(object)  # the Source of the clicked row

    def __init__(self, parent=None):
        super().__init__(parent)
        self.result: AskResult | None = None
        title = QLabel("How the answer was found")
        title.setObjectName("panelTitle")
        # One line: the question is in the chat already (the whole of it in the tooltip here).
        self.question = OneLineLabel("Ask a question to see the search queries and how their results were fused.")
        self.question.setObjectName("hint")
        # A follow-up ("and its IP rating?") is searched as a standalone question rewritten from the chat.
        self.searched_as = QLabel()
        self.searched_as.setObjectName("searchedAs")
        self.searched_as.setWordWrap(True)
        self.searched_as.setToolTip("The follow-up question, rewritten from the chat history so it stands alone; this is what was searched")
        self.searched_as.hide()
        # The filters the question stated ("in R-data.pdf", "pages 3-4"), one chip each; removing one asks again without it.
        self.filters: QuestionFilters | None = None
        self.filter_row = QWidget()
        self.filter_chips = QHBoxLayout(self.filter_row)
        self.filter_chips.setContentsMargins(0, 0, 0, 0)
        self.filter_row.hide()

        self.queries = QStringListModel(self)
        self.query_list = QListView()
        self.query_list.setModel(self.queries)
        self.query_list.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked | QAbstractItemView.EditTrigger.EditKeyPressed | QAbstractItemView.EditTrigger.SelectedClicked
        )
        self.query_list.setToolTip("Generated search queries. Double-click to edit; re-run searches with the edited list.")
        self.query_list.setMaximumHeight(74)  # three queries; more scroll
        # The model's queries the app did not search (saying nothing, echoing the prompt's examples, off the question):
        # a person reading the list sees why a query they expected is missing.
        self.not_searched = QLabel()
        self.not_searched.setObjectName("notSearched")
        self.not_searched.setWordWrap(True)
        self.not_searched.setToolTip("Queries the model wrote that were not searched: a single letter or a number the question does not state, "
                                     "a name from the prompt's made-up examples, a thing no passage of your documents names, or a query far from the question")
        self.not_searched.hide()
        self.add_query = tool_button(self, Pixmap.SP_FileDialogNewFolder, "Add a query", self._add_query)
        self.remove_query = tool_button(self, Pixmap.SP_TrashIcon, "Remove the selected query", self._remove_query)
        self.rerun = push_button(self, Pixmap.SP_BrowserReload, "Re-run search", "Search again with the edited queries and fuse the results", self._rerun)
        self.rerun.setEnabled(False)
        query_buttons = QHBoxLayout()
        query_buttons.addWidget(QLabel("Search queries"), 1)
        query_buttons.addWidget(self.add_query)
        query_buttons.addWidget(self.remove_query)
        query_buttons.addWidget(self.rerun)

        self.fused = FusedPassagesModel(self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.fused)
        self.proxy.setSortRole(SORT_ROLE)
        self.table = FusedTable()
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setAlternatingRowColors(True)
        self.table.setShowGrid(False)
        # Two lines of passage per row: the text is what a reader scans; the full passage is in its tooltip.
        self.table.setWordWrap(True)
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.verticalHeader().setDefaultSectionSize(2 * self.table.fontMetrics().lineSpacing() + 6)
        self.table.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        header = self.table.horizontalHeader()
        header.setStretchLastSection(False)
        # Fixed widths: measuring every cell (ResizeToContents) costs tens of ms per update on the GUI thread.
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setMinimumSectionSize(24)
        self.fused.modelReset.connect(self._size_columns)
        self.table.clicked.connect(self._row_clicked)
        self.table.selectionModel().currentRowChanged.connect(lambda cur, _prev: self._row_clicked(cur))

        self.timings = OneLineLabel()
        self.timings.setObjectName("hint")

        # Passage answers show queries and fused passages; answers from tables show the SQL and its rows instead.
        self.passages_view = QWidget()
        passages = QVBoxLayout(self.passages_view)
        passages.setContentsMargins(0, 0, 0, 0)
        passages.addLayout(query_buttons)
        passages.addWidget(self.query_list)
        passages.addWidget(self.not_searched)
        self.table_title = QLabel(FUSED_TITLE)
        self.table_title.setToolTip("Point at a column title for what the column means")
        passages.addWidget(self.table_title)
        passages.addWidget(self.table, 1)
        self.sql_view = SqlResultView()
        self.sql_view.hide()

        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 4)
        layout.addWidget(title)
        layout.addWidget(self.question)
        layout.addWidget(self.searched_as)
        layout.addWidget(self.filter_row)
        layout.addWidget(self.passages_view, 1)
        layout.addWidget(self.sql_view, 1)
        layout.addWidget(self.timings)

    def _size_columns(self) -> None:
        """Passage, file and page first, the passage taking the room left; then the score and narrow rank columns
        (they scroll into view when there are too many of them for the panel's width)."""
        n_keys = len(self.fused.query_keys)
        if not self.fused.columnCount():
            return
        passage, file, page = n_keys + 4, n_keys + 2, n_keys + 3
        order = [0, passage, file, page, 1, *range(2, 2 + n_keys)]
        header = self.table.horizontalHeader()
        for visual, logical in enumerate(order):
            header.moveSection(header.visualIndex(logical), visual)
        widths = {0: 26, file: 88, page: 46, 1: 56} | {2 + i: (56 if i == 0 else 28) for i in range(n_keys)}
        for column, width in widths.items():
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
            self.table.setColumnWidth(column, width)
        self.table.passage_column = passage
        self.table.fit_passage()

    def edited_queries(self) -> list[str]:
        return [q.strip() for q in self.queries.stringList() if q.strip()]

    def show_queries(self, question: str, queries: list[str], dropped: Sequence[str] = ()) -> None:
        self.question.setText(f"Question: {question}")
        self.queries.setStringList(list(queries))
        self.not_searched.setText("Not searched: " + ", ".join(f"\u201c{html.escape(q)}\u201d" for q in dropped) if dropped else "")
        self.not_searched.setVisible(bool(dropped))

    def show_searched_as(self, standalone: str) -> None:
        """Shows the rewritten follow-up; an empty text (not a follow-up, or left unchanged) hides the line."""
        self.searched_as.setText(f"Searched as: <b>{html.escape(standalone)}</b>" if standalone else "")
        self.searched_as.setVisible(bool(standalone))

    def show_filters(self, filters: QuestionFilters | None, asked: str = "") -> None:
        """One removable chip per filter the question stated, or a follow-up kept from its chat (its words are not in
        `asked`, the question as typed); none hides the row."""
        self.filters = filters
        while self.filter_chips.count():
            item = self.filter_chips.takeAt(0)
            if item.widget():
                item.widget().deleteLater()
        parts = filters.parts if filters else ()
        if parts:
            self.filter_chips.addWidget(QLabel("Limited to:"))
        for part in parts:
            chip = QToolButton()
            chip.setObjectName("filterChip")
            chip.setText(f"{part.label}  \u2715")
            typed = not asked or part.phrase.casefold() in asked.casefold()
            where = f"Read from \u201c{part.phrase}\u201d in the question." if typed else f"Kept from this chat\u2019s earlier question (\u201c{part.phrase}\u201d)."
            chip.setToolTip(f"{where} Click to ask again without this filter (its words are then searched).")
            chip.setAutoRaise(False)
            chip.clicked.connect(lambda _checked=False, phrase=part.phrase: self.filter_removed.emit(self.filters, phrase))
            self.filter_chips.addWidget(chip)
        self.filter_chips.addStretch(1)
        self.filter_row.setVisible(bool(parts))

    def chips(self) -> list[str]:
        """The chips' labels, as shown."""
        return [part.label for part in self.filters.parts] if self.filters else []

    def searched_question(self) -> str:
        """What the question's own list searched: the standalone rewrite of a follow-up, else the question. With
        filters, the text they were read from, so a re-run reads them again."""
        if not self.result:
            return ""
        if self.result.filters is not None:
            return self.result.filters.text
        return self.result.standalone_question or self.result.question

    def show_result(self, result: AskResult | None, update_queries: bool = True) -> None:
        self.result = result
        self.fused.set_result(result)
        self.table_title.setText(READ_TITLE if result is not None and result.answered_from else FUSED_TITLE)
        self.proxy.sort(-1)  # back to fused order
        self.table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        if result is None:
            self.passages_view.show()
            self.sql_view.hide()
            self.show_searched_as("")
            self.show_filters(None)
            self.show_queries("", [])
            self.timings.setText("")
            self.rerun.setEnabled(False)
            return
        if update_queries:
            self.show_queries(result.question, list(result.queries), result.dropped_queries)
            self.show_searched_as(result.standalone_question)
            self.show_filters(result.filters, result.question)
        if result.answered_from:  # a whole-document question: no search, the overview's key sentences below
            self.searched_as.setText(html.escape(result.answered_from))
            self.searched_as.setVisible(True)
        is_sql = bool(result.sql_runs)
        self.passages_view.setVisible(not is_sql)
        self.sql_view.setVisible(is_sql)
        if is_sql:
            self.sql_view.show_result(result.sql_runs, result.chart)
            t = result.timings
            self.timings.setText(f"Timings: total {t.total:.2f} s  ·  SQL written {t.query_generation:.2f} s  ·  ran {duration_text(t.retrieval)}  ·  answer {t.generation:.2f} s")
            self.rerun.setEnabled(False)
            return
        self.timings.setText(("Timings: " + timings_text(result.timings, searched=not result.answered_from)) if result.timings.total else "")
        self.rerun.setEnabled(result.mode == "fusion")

    def show_sql_run(self, run: SqlResult) -> None:
        """A query the model wrote has run: show it before the answer is written."""
        self.passages_view.hide()
        self.sql_view.show()
        self.sql_view.show_result((run,))

    def _add_query(self) -> None:
        row = self.queries.rowCount()
        self.queries.insertRows(row, 1)
        index = self.queries.index(row)
        self.queries.setData(index, "new query")
        self.query_list.setCurrentIndex(index)
        self.query_list.edit(index)

    def _remove_query(self) -> None:
        index = self.query_list.currentIndex()
        if index.isValid():
            self.queries.removeRows(index.row(), 1)

    def _rerun(self) -> None:
        if self.result:
            self.rerun_requested.emit(self.searched_question(), self.edited_queries())

    def _row_clicked(self, index) -> None:
        if index.isValid():
            source = self.proxy.mapToSource(index)
            self.passage_selected.emit(self.fused.source(source.row()))
