"""Every Qt item model of the window passes pytest-qt's model tester, with data in it and empty."""

from __future__ import annotations

from PySide6.QtCore import QStringListModel, Qt

from desktop_app.core.types import Document
from desktop_app.ui.models import (
    ChatsModel,
    CollectionsModel,
    DocumentsModel,
    FusedPassagesModel,
)

RESULT = {
    "question": "What is the maximum temperature?",
    "mode": "fusion",
    "queries": ["maximum operating temperature", "PX-40 temperature limit"],
    "rrf_k": 60.0,
    "fused": [
        {"chunk_id": 7, "file": "/d/px40.pdf", "page": 3, "rrf_score": 0.049, "ranks": {"What is the maximum temperature?": 1, "PX-40 temperature limit": 1}, "similarity": 0.7, "text": "The maximum operating temperature is 85 C."},
        {"chunk_id": 2, "file": "/d/px40.pdf", "page": 1, "rrf_score": 0.016, "ranks": {"maximum operating temperature": 2}, "similarity": 0.3, "text": "Overview"},
    ],
    "citations": [],
    "timings": {"total": 1.0},
}


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
    model.set_result(RESULT)
    qtmodeltester.check(model)
    headers = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
    assert headers == ["#", "RRF", "Question", "Q1", "Q2", "File", "Page", "Passage"]
    second = [model.index(1, c).data() for c in range(model.columnCount())]
    assert second[2:5] == ["", "2", ""]
    assert second[5:7] == ["px40.pdf", "1"]


def test_queries_model(qtmodeltester):
    model = QStringListModel(["a", "b"])
    qtmodeltester.check(model)


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
    model.set_result({**RESULT, "mode": "multi-query"})
    qtmodeltester.check(model)
    assert model.headerData(1, Qt.Orientation.Horizontal) == "Score"
