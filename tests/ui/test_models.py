"""Every Qt item model of the window passes pytest-qt's model tester, with data in it and empty."""

from __future__ import annotations

from PySide6.QtCore import QSortFilterProxyModel, Qt

from desktop_app.core.types import Document, RankedList, SearchHit
from desktop_app.ui.models import SORT_ROLE, ChatsModel, CollectionsModel, DocumentsModel, FusedPassagesModel, ResultRowsModel
from tests.ui.results import ask_result, fused_sources, passage

QUESTION = "What is the maximum temperature?"
QUERIES = ("maximum operating temperature", "PX-40 temperature limit")
PASSAGES = {
    7: passage(7, "/d/px40.pdf", 3, "The maximum operating temperature is 85 C."),
    2: passage(2, "/d/px40.pdf", 1, "Overview"),
}
# Passage 7 tops every list; passage 2 is second under the first query only.
LISTS = (
    RankedList(QUESTION, "vector", (SearchHit(7, 1, 0.7),)),
    RankedList(QUERIES[0], "vector", (SearchHit(7, 1, 0.6), SearchHit(2, 2, 0.3))),
    RankedList(QUERIES[1], "vector", (SearchHit(7, 1, 0.65),)),
)


def fused_result(mode: str = "fusion"):
    return ask_result(QUESTION, mode, QUERIES, fused_sources(LISTS, PASSAGES), total_s=1.0, lists=LISTS)


def test_documents_model(qtmodeltester):
    model = DocumentsModel()
    qtmodeltester.check(model)
    model.set_documents([Document(1, "/d/a.pdf", "A", 4, 9, "ready"), Document(2, "/d/b.pdf", "B", 2, 3, "ready")])
    qtmodeltester.check(model)
    assert model.setData(model.index(1, 0), Qt.CheckState.Checked.value, Qt.ItemDataRole.CheckStateRole)
    assert model.checked_ids() == [2]
    qtmodeltester.check(model)


def test_chats_model(qtmodeltester):
    model = ChatsModel()
    qtmodeltester.check(model)
    model.set_chats([(3, "Pump limits", "2026-01-01 10:00:00"), (1, "Seals", "2026-01-01 09:00:00")])
    qtmodeltester.check(model)
    assert model.row_of(1) == 1


def test_fused_passages_model_leaves_missing_ranks_blank(qtmodeltester):
    model = FusedPassagesModel()
    qtmodeltester.check(model)
    model.set_result(fused_result())
    qtmodeltester.check(model)
    headers = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
    assert headers == ["#", "RRF", "Asked", "Q1", "Q2", "File", "Page", "Passage"]
    second = [model.index(1, c).data() for c in range(model.columnCount())]
    assert second[1] == f"{1 / (60 + 2):.4f}"  # one list found it, at rank 2: 1/(k + 2)
    assert second[2:5] == ["", "2", ""]
    assert second[5:7] == ["px40.pdf", "1"]


def test_the_fused_passages_sort_by_their_numbers_in_the_panel(qtmodeltester):
    """The panel sorts through a proxy on SORT_ROLE: pages as numbers, and the best RRF score first."""
    model = FusedPassagesModel()
    model.set_result(fused_result())
    proxy = QSortFilterProxyModel()
    proxy.setSourceModel(model)
    proxy.setSortRole(SORT_ROLE)
    qtmodeltester.check(proxy)
    page = model.columnCount() - 2
    proxy.sort(page, Qt.SortOrder.AscendingOrder)
    assert [proxy.index(r, page).data() for r in range(proxy.rowCount())] == ["1", "3"]
    proxy.sort(1, Qt.SortOrder.AscendingOrder)
    assert proxy.index(0, 1).data() == f"{3 / 61:.4f}"  # found at rank 1 by all three lists


def test_the_panels_queries_are_a_valid_model_and_edits_come_back_trimmed(qtbot, qtmodeltester):
    from desktop_app.ui.fusion_panel import FusionPanel

    panel = FusionPanel()
    qtbot.addWidget(panel)
    panel.show_queries("What is the max temperature?", ["pump: temperature", "pump coolant"])
    qtmodeltester.check(panel.queries)
    assert panel.queries.stringList() == ["pump: temperature", "pump coolant"]
    panel.queries.setData(panel.queries.index(1, 0), "  pump inlet  ")  # as a double-click edit
    panel.queries.insertRows(2, 1)  # an added row left empty
    assert panel.edited_queries() == ["pump: temperature", "pump inlet"]


def test_collections_model(qtmodeltester):
    model = CollectionsModel()
    qtmodeltester.check(model)
    assert model.rowCount() == 1 and model.data(model.index(0, 0)) == "All documents"
    model.set_collections([(1, "Pumps", 3), (2, "Site notes", 1)])
    qtmodeltester.check(model)
    assert model.data(model.index(2, 0)) == "Site notes (1)"
    assert (model.name(0), model.name(2), model.row_of("Pumps"), model.row_of("gone")) == ("", "Site notes", 1, 0)


def test_fused_passages_model_of_a_multi_query_answer(qtmodeltester):
    model = FusedPassagesModel()
    model.set_result(fused_result("multi-query"))
    qtmodeltester.check(model)
    assert model.headerData(1, Qt.Orientation.Horizontal) == "Score"


def test_sql_result_rows_model(qtmodeltester):
    model = ResultRowsModel()
    qtmodeltester.check(model)
    model.set_result(("region", "total"), (("South", 300), ("North", 150.5), ("East", None)))
    qtmodeltester.check(model)
    assert [model.headerData(c, Qt.Orientation.Horizontal) for c in range(2)] == ["region", "total"]
    assert model.headerData(0, Qt.Orientation.Vertical) == "1"
    assert model.index(0, 1).data(Qt.ItemDataRole.TextAlignmentRole) == int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)


def test_a_passage_found_in_several_places_is_one_row_that_names_them(qtmodeltester):
    """The same text in a copy of the file is one fused row; its file cell counts the other places and the
    tooltip names them (issue 34)."""
    import dataclasses

    from desktop_app.core.types import Location

    result = fused_result()
    copy = Location(9, 4, "/d/px40 (copy).pdf", 3)
    sources = (dataclasses.replace(result.sources[0], also=(copy,)), *result.sources[1:])
    model = FusedPassagesModel()
    model.set_result(dataclasses.replace(result, sources=sources))
    qtmodeltester.check(model)
    file_column = model.columnCount() - 3
    assert model.rowCount() == 2
    assert model.index(0, file_column).data() == "px40.pdf (+1)"
    assert model.index(0, file_column).data(Qt.ItemDataRole.ToolTipRole).endswith("also in px40 (copy).pdf, page 3")
