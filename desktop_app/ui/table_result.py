"""How a question about tables was answered: the SQL the model wrote, its result rows, and a chart when asked."""

from __future__ import annotations

import html
from collections.abc import Sequence

from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QLabel, QPlainTextEdit, QTableView, QVBoxLayout, QWidget

from ..core.sql.text_to_sql import duration_text
from ..core.types import ChartSpec, SqlResult
from ..core.wording import counted
from .chart_view import ChartView
from .models import ResultRowsModel
from .parts import fixed_pitch_font


class SqlResultView(QWidget):
    """The SQL, the result rows (or the error) and the chart of one table answer."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.sql = QPlainTextEdit()
        self.sql.setReadOnly(True)
        self.sql.setFont(fixed_pitch_font())
        self.sql.setMaximumHeight(72)
        self.sql.setToolTip("The SQL the model wrote; it ran read-only on your tables")
        self.status = QLabel()
        self.status.setObjectName("hint")
        self.status.setWordWrap(True)
        self.rows = ResultRowsModel(self)
        self.table = QTableView()
        self.table.setModel(self.rows)
        self.table.setAlternatingRowColors(True)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.setMinimumHeight(70)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.chart = ChartView()
        self.chart.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel("SQL the model wrote (run read-only)"))
        layout.addWidget(self.sql)
        layout.addWidget(self.status)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.chart, 1)

    def show_result(self, runs: Sequence[SqlResult], chart: ChartSpec | None = None) -> None:
        """Every query the model ran for one answer, the last one answering; an earlier one failed and was retried."""
        final = runs[-1]
        self.sql.setPlainText(final.sql)
        notes = [f"First query failed ({html.escape(r.error)}); the model was shown the error and wrote another." for r in runs[:-1] if r.error]
        if final.error:
            notes.append(f"<b>The query failed:</b> {html.escape(final.error)}")
            self.rows.set_result([], [])
        else:
            more = "more than " if final.truncated else ""
            notes.append(f"{more}{counted(len(final.rows), 'row')} in {duration_text(final.elapsed)}")
            self.rows.set_result(final.columns, final.rows)
        self.status.setText("<br>".join(notes))
        self.chart.set_chart(chart)
