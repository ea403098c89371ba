"""The window fits the screen a person has (1440x900, 1280x800) whatever it holds: a ten-file import with three
watched folders, an answer searched with many queries, an opened citation. Each test checks what is on screen:
widgets shown inside the window, columns wide enough to read, rows in view."""

from __future__ import annotations

import dataclasses

import pytest
from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtWidgets import QWidget

from desktop_app.core.library import Library
from desktop_app.sample_batch import BROKEN, write_import_batch, write_watched_folders
from tests.fakes import GatedEmbedder, HashingEmbedder, ScriptedGenerator

SCREENS = [QSize(1440, 900), QSize(1280, 800)]
SCREEN_IDS = ["1440x900", "1280x800"]


def in_window(window, widget: QWidget) -> QRect:
    return QRect(widget.mapTo(window, widget.rect().topLeft()), widget.size())


def on_screen(window, widget: QWidget) -> QRect:
    """The widget's rectangle in the window, after checking a person can see all of it."""
    assert widget.isVisible(), widget
    rect = in_window(window, widget)
    assert window.rect().contains(rect), (widget, rect, window.rect())
    return rect


def rows_in_view(table) -> int:
    viewport = table.viewport().rect()
    return sum(1 for r in range(table.model().rowCount()) if viewport.contains(table.visualRect(table.model().index(r, 0))))


def settle(qtbot, window, size: QSize) -> None:
    window.resize(size)
    qtbot.wait(50)  # layouts run and a window that has to grow for its contents grows


def assert_fits(window, size: QSize, *shown: QWidget) -> None:
    """The window kept the screen's size and shows the question box, Send, the documents and `shown` in it."""
    assert window.size() == size  # nothing pushed the window taller than the screen
    panel = window.library_panel
    for widget in (window.chat_panel.input, window.chat_panel.send_button, panel.table, panel.scope):
        on_screen(window, widget)
    assert rows_in_view(panel.table) >= min(6, window.documents.rowCount())
    for widget in shown:
        on_screen(window, widget)


@pytest.fixture
def embedder():
    gated = GatedEmbedder()
    yield gated
    gated.open()  # nothing may stay blocked when the window closes


@pytest.mark.parametrize("size", SCREENS, ids=SCREEN_IDS)
def test_ten_files_and_three_watched_folders_leave_the_question_box_on_screen(make_window, data_home, embedder, tmp_path, size, qtbot):
    library = Library(data_home, embedder=embedder, generator=ScriptedGenerator())
    library.settings = dataclasses.replace(library.settings, embed_batch_size=4)
    files = write_import_batch(tmp_path / "drop")
    folders = write_watched_folders(tmp_path / "synced")
    window = make_window(library, warm_up=False)
    panel = window.library_panel
    settle(qtbot, window, size)
    window.import_controller.import_paths([str(f) for f in files])
    for folder in folders:
        window.watch_controller.add_folder(str(folder))
    broken = str((tmp_path / "drop" / BROKEN).resolve())
    # Mid-import: every file stored (searchable by keyword) or failed, the meaning index held back.
    qtbot.waitUntil(lambda: window.documents.rowCount() == 15 and panel.rows.get(broken) is not None and panel.rows[broken].stage == "failed", timeout=30_000)
    settle(qtbot, window, size)
    assert_fits(window, size, panel.imports, panel.watched)

    # The import is one line, one line high, whatever the number of files.
    imports = panel.imports
    line = imports.fold.summary.fontMetrics().lineSpacing()
    assert on_screen(window, imports.fold.summary).height() < 2 * line
    assert imports.fold.summary.text().startswith("Importing 16 files: 1 done, 1 failed")
    # Its detail opens in place and scrolls: the window stays the same, each row's status under its bar.
    imports.fold.set_open(True)
    settle(qtbot, window, size)
    assert_fits(window, size, imports.detail, panel.watched.list)
    detail = on_screen(window, imports.detail)
    shown = [row for row in panel.rows.values() if row.isVisible() and detail.intersects(in_window(window, row))]
    assert 2 <= len(shown) < len(panel.rows)  # a few rows in view, the rest a scroll away
    for row in panel.rows.values():
        status, bar = row.status.geometry(), row.bar.geometry()
        assert status.top() >= bar.bottom() and status.height() >= row.status.fontMetrics().height(), (row.file, status, bar)
    # The failed file's whole reason is one hover away, in its row and in the summary line.
    reason = panel.rows[broken].status.text()
    assert "not a PDF" in reason and len(reason) > 60
    assert panel.rows[broken].status.toolTip() == reason and reason in imports.fold.summary.toolTip()
    # Three watched folders: one line, its list a fixed few rows high.
    assert panel.watched.fold.summary.text() == "Kept in sync: 3 folders"

    imports.stay_ms = 100  # finished rows leave by themselves (6 s in the app; shortened here)
    embedder.open()
    qtbot.waitUntil(lambda: not window.import_controller.busy and list(panel.rows) == [broken], timeout=30_000)
    qtbot.wait(300)
    assert list(panel.rows) == [broken]  # a failed row stays until dismissed
    assert imports.fold.summary.text() == "16 files: 15 imported, 1 failed" and imports.fold.is_open
    settle(qtbot, window, size)
    assert_fits(window, size, panel.rows[broken].status, panel.watched.list)
    panel.rows[broken].button.click()  # dismiss
    assert not panel.rows and not imports.isVisible()


# The default query style's reply: three names sharing one fact, searched as six queries (each name, and with the fact).
SHARED_FACT = "PX-40; SK-40 seal kit; PX-40 enclosure: operating temperature"


def asked_with_many_queries(make_window, data_home, sample_pdf, qtbot, size: QSize):
    library = Library(data_home, embedder=HashingEmbedder(), generator=ScriptedGenerator([SHARED_FACT, "It runs to 85 degrees Celsius [1]."]))
    list(library.import_paths([sample_pdf]))
    window = make_window(library, warm_up=False)
    settle(qtbot, window, size)
    window.chat_panel.set_mode("fusion")
    window.ask_controller.ask("What is the maximum operating temperature of the PX-40?")
    qtbot.waitUntil(lambda: window.ask_controller.job is None, timeout=30_000)
    settle(qtbot, window, size)
    return window


@pytest.mark.parametrize("size", SCREENS, ids=SCREEN_IDS)
def test_the_fused_passages_keep_the_passage_readable_and_name_the_query_boxs_queries(make_window, data_home, sample_pdf, size, qtbot):
    window = asked_with_many_queries(make_window, data_home, sample_pdf, qtbot, size)
    panel = window.fusion_panel
    table, fused = panel.table, panel.fused
    queries = panel.queries.stringList()
    assert len(queries) == 6
    # A column per query in the box (its searches by meaning and by keywords together), titled Q1..Q6.
    headers = [fused.headerData(c, Qt.Orientation.Horizontal) for c in range(fused.columnCount())]
    assert headers == ["#", "RRF", "Asked", *(f"Q{i}" for i in range(1, 7)), "File", "Page", "Passage"]
    tip = fused.headerData(4, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
    assert queries[1] in tip and "keywords" in tip
    # Passage, file and page in view and the passage wide enough to read; the rank columns scroll if need be.
    passage = headers.index("Passage")
    assert table.columnWidth(passage) >= 200
    viewport = table.viewport().rect()
    for column in (passage, headers.index("File"), headers.index("Page")):
        rect = table.visualRect(table.model().index(0, column))
        assert viewport.left() <= rect.left() and rect.right() <= viewport.right(), (headers[column], rect, viewport)
    table.scrollTo(table.model().index(0, headers.index("Q6")))
    assert viewport.intersects(table.visualRect(table.model().index(0, headers.index("Q6"))))
    on_screen(window, table)


@pytest.mark.parametrize("size", SCREENS, ids=SCREEN_IDS)
def test_an_opened_citation_gets_half_of_the_side_panel_for_its_page(make_window, data_home, sample_pdf, size, qtbot):
    window = asked_with_many_queries(make_window, data_home, sample_pdf, qtbot, size)
    view = window.page_view
    assert window.evidence_controller.show_citation(len(window.chat_panel.view.entries) - 1, 1)
    qtbot.waitUntil(lambda: view.file is not None, timeout=20_000)
    settle(qtbot, window, size)
    side = on_screen(window, window.source_views.parentWidget())
    assert on_screen(window, view.scroll).height() >= side.height() / 2
    # How the answer was found stays in view above it (the splitter moves it back).
    assert rows_in_view(window.fusion_panel.table) >= (2 if size.height() >= 900 else 1)
    assert_fits(window, size)
