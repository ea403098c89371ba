"""A bar or line chart of a table answer's result, drawn with QPainter.

PySide6-Essentials has no QtCharts, and a bar or line chart of one column over another needs no plotting library.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from ..core.sql.text_to_sql import format_value
from ..core.types import ChartSpec

BAR_COLOR = QColor("#3b6ea5")


class ChartView(QWidget):
    """A bar or line chart of a result: one bar (or point) per row, labels under the x axis."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.chart: ChartSpec | None = None
        self.setMinimumHeight(110)  # the panel shares its height with the page view below
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def set_chart(self, chart: ChartSpec | None) -> None:
        self.chart = chart
        self.setVisible(bool(chart and chart.values))
        self.update()

    def paintEvent(self, event) -> None:
        chart = self.chart
        if not chart or not chart.values:
            return
        values = [float(v) for v in chart.values]
        labels = [str(x) for x in chart.labels]
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
        painter.drawText(QRectF(0, 0, self.width(), metrics.height() + 2), Qt.AlignmentFlag.AlignCenter, f"{chart.value_column} by {chart.label_column}")

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
        if chart.kind == "line":
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
