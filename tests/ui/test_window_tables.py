"""Questions about CSV tables in the window, with fakes: dropped CSVs import, the panel shows the SQL, its rows, a chart."""

from __future__ import annotations

from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent

from desktop_app.core.library import Library
from tests.fakes import HashingEmbedder, ScriptedGenerator

SALES = "region,year,revenue\nNorth,2023,150\nSouth,2023,300\nEast,2023,120\nSouth,2022,50\n"
SQL = "SELECT region, sum(revenue) AS total FROM sales WHERE year = 2023 GROUP BY region ORDER BY total DESC"


def drop_files(window, paths) -> None:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    event = QDropEvent(QPointF(QPoint(10, 10)), Qt.DropAction.CopyAction, mime, Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier)
    window.dropEvent(event)


def ask_and_wait(window, qtbot, question: str) -> None:
    window.ask_controller.ask(question)
    qtbot.waitUntil(lambda: window.ask_controller.job is None, timeout=30_000)


def test_a_dropped_csv_is_listed_and_its_answer_shows_the_sql_rows_and_chart(make_window, data_home, tmp_path, qtbot):
    csv_file = tmp_path / "sales.csv"
    csv_file.write_text(SALES)
    library = Library(data_home, embedder=HashingEmbedder(), generator=ScriptedGenerator([f"```sql\n{SQL}\n```", "South sold the most in 2023 (300)."]))
    window = make_window(library, warm_up=False)
    drop_files(window, [csv_file])
    qtbot.waitUntil(lambda: window.documents.rowCount() == 1, timeout=15_000)
    docs = window.documents
    assert docs.data(docs.index(0, 0)) == "sales.csv" and docs.data(docs.index(0, 1)) == "table" and docs.data(docs.index(0, 2)) == "4 rows"

    ask_and_wait(window, qtbot, "Which region sold most in 2023? Show a bar chart.")
    panel = window.fusion_panel
    assert panel.sql_view.isVisible() and not panel.passages_view.isVisible()
    assert panel.sql_view.sql.toPlainText() == SQL
    rows = panel.sql_view.rows
    assert [rows.headerData(c, Qt.Orientation.Horizontal) for c in range(rows.columnCount())] == ["region", "total"]
    assert [[rows.data(rows.index(r, c)) for c in range(2)] for r in range(rows.rowCount())] == [["South", "300"], ["North", "150"], ["East", "120"]]
    assert "3 rows" in panel.sql_view.status.text()
    chart = panel.sql_view.chart
    assert chart.isVisible() and list(chart.chart.labels) == ["South", "North", "East"]
    chart.grab()  # paints the chart offscreen: a drawing error would raise here
    assert "South sold the most" in window.chat_panel.view.entries[-1].text

    # A new chat clears the table answer; the passages view is back for the next question.
    window.chat_controller.new_chat()
    assert panel.passages_view.isVisible() and not panel.sql_view.isVisible()
    # Reopening the chat shows the stored SQL and rows again.
    window.chat_controller.open_chat(window.chats.chat_id(0))
    assert panel.sql_view.isVisible() and panel.sql_view.sql.toPlainText() == SQL and rows.rowCount() == 3


def test_a_failed_query_shows_its_error_and_no_chart(make_window, data_home, tmp_path, qtbot):
    csv_file = tmp_path / "sales.csv"
    csv_file.write_text(SALES)
    library = Library(data_home, embedder=HashingEmbedder(), generator=ScriptedGenerator(["DROP TABLE sales", "SELECT amount FROM sales"]))
    list(library.import_paths([csv_file]))
    window = make_window(library, warm_up=False)
    ask_and_wait(window, qtbot, "Plot revenue by region")
    view = window.fusion_panel.sql_view
    assert view.isVisible() and "no such column: amount" in view.status.text() and "only reading is allowed" in view.status.text()
    assert view.rows.rowCount() == 0 and not view.chart.isVisible()
    assert "failed twice" in window.chat_panel.view.entries[-1].text
