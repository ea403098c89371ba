"""How a question about tables was answered: the SQL the model wrote, its result rows, and a chart when asked.

The chart is drawn with QPainter: PySide6-Essentials has no QtCharts, and a bar or line chart of one
column over another needs no plotting library.
"""

from __future__ import annotations

import html
import math
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QPointF,
    QRectF,
    Qt,
)
from PySide6.QtGui import QColor, QFont, QFontDatabase, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QSizePolicy,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ..core.sql.text_to_sql import duration_text, format_value

_Index = QModelIndex | QPersistentModelIndex
BAR_COLOR = QColor("#3b6ea5")


class ResultRowsModel(QAbstractTableModel):
    """The rows an SQL query returned, read-only."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self._columns: list[str] = []
        self._rows: list[list[Any]] = []

    def set_result(self, columns: list[str], rows: list[list[Any]]) -> None:
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


class ChartView(QWidget):
    """A bar or line chart of a result: one bar (or point) per row, labels under the x axis."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.chart: dict | None = None
        self.setMinimumHeight(110)  # the panel shares its height with the page view below
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def set_chart(self, chart: dict | None) -> None:
        self.chart = chart
        self.setVisible(bool(chart and chart.get("values")))
        self.update()

    def paintEvent(self, event) -> None:
        if not self.chart or not self.chart.get("values"):
            return
        values = [float(v) for v in self.chart["values"]]
        labels = [str(x) for x in self.chart["labels"]]
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        palette = self.palette()
        text_color = palette.color(palette.ColorRole.WindowText)
        metrics = painter.fontMetrics()
        top = max(values + [0.0])
        bottom = min(values + [0.0])
        span = (top - bottom) or 1.0
        left_margin = metrics.horizontalAdvance(format_value(top)) + 10
        plot = QRectF(left_margin, metrics.height() + 6, self.width() - left_margin - 8, self.height() - 2 * metrics.height() - 16)
        if plot.width() <= 10 or plot.height() <= 10:
            return
        painter.setPen(text_color)
        painter.drawText(QRectF(0, 0, self.width(), metrics.height() + 2), Qt.AlignmentFlag.AlignCenter, f"{self.chart['value_column']} by {self.chart['label_column']}")

        def y_of(value: float) -> float:
            return plot.bottom() - (value - bottom) / span * plot.height()

        axis = QPen(text_color)
        axis.setWidthF(1.0)
        painter.setPen(axis)
        painter.drawLine(QPointF(plot.left(), plot.top()), QPointF(plot.left(), plot.bottom()))
        painter.drawLine(QPointF(plot.left(), y_of(0.0)), QPointF(plot.right(), y_of(0.0)))
        for value in {top, bottom}:
            painter.drawText(QRectF(0, y_of(value) - metrics.height() / 2, left_margin - 4, metrics.height()), Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, format_value(value))

        slot = plot.width() / len(values)
        centers = [plot.left() + slot * (i + 0.5) for i in range(len(values))]
        if self.chart.get("kind") == "line":
            path = QPainterPath(QPointF(centers[0], y_of(values[0])))
            for x, v in zip(centers[1:], values[1:]):
                path.lineTo(QPointF(x, y_of(v)))
            pen = QPen(BAR_COLOR)
            pen.setWidthF(2.0)
            painter.setPen(pen)
            painter.drawPath(path)
            painter.setBrush(BAR_COLOR)
            for x, v in zip(centers, values):
                painter.drawEllipse(QPointF(x, y_of(v)), 3, 3)
        else:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(BAR_COLOR)
            width = max(2.0, slot * 0.7)
            for x, v in zip(centers, values):
                y0, y1 = sorted((y_of(0.0), y_of(v)))
                painter.drawRect(QRectF(x - width / 2, y0, width, max(1.0, y1 - y0)))
        # Labels under the axis, skipping some when they would overlap.
        painter.setPen(text_color)
        step = max(1, math.ceil((max(metrics.horizontalAdvance(x) for x in labels) + 6) / slot))
        for i in range(0, len(labels), step):
            rect = QRectF(centers[i] - slot * step / 2, plot.bottom() + 4, slot * step, metrics.height())
            painter.drawText(rect, Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop, metrics.elidedText(labels[i], Qt.TextElideMode.ElideRight, int(slot * step)))
        painter.end()


class SqlResultView(QWidget):
    """The SQL, the result rows (or the error) and the chart of one table answer (the result JSON's sql keys)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.sql = QPlainTextEdit()
        self.sql.setReadOnly(True)
        font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        font.setStyleHint(QFont.StyleHint.Monospace)
        self.sql.setFont(font)
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

    def show_result(self, result: dict) -> None:
        self.sql.setPlainText(result.get("sql", ""))
        attempts = result.get("sql_attempts", [])
        failed_first = [a for a in attempts[:-1] if a.get("error")]
        notes = [f"First query failed ({html.escape(a['error'])}); the model was shown the error and wrote another." for a in failed_first]
        if result.get("sql_error"):
            notes.append(f"<b>The query failed:</b> {html.escape(result['sql_error'])}")
            self.rows.set_result([], [])
        else:
            rows = result.get("rows", [])
            more = "more than " if result.get("rows_truncated") else ""
            notes.append(f"{more}{len(rows)} row{'s' if len(rows) != 1 else ''} in {duration_text(result.get('sql_elapsed', 0.0))}")
            self.rows.set_result(result.get("columns", []), rows)
        self.status.setText("<br>".join(notes))
        self.chart.set_chart(result.get("chart"))
