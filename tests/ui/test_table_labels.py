"""The window labels a table chunk "table on page N" in the sources line and the fusion panel."""

from __future__ import annotations

from desktop_app.ui.chat_panel import source_link
from desktop_app.ui.models import FusedPassagesModel


def test_the_window_labels_table_sources():
    link = source_link(0, {"n": 2, "file": "/x/hx.pdf", "page": 1, "kind": "table"})
    assert "hx.pdf, table&nbsp;on&nbsp;page&nbsp;1" in link
    assert "p.&nbsp;1" in source_link(0, {"n": 1, "file": "/x/hx.pdf", "page": 1})
    model = FusedPassagesModel()
    hit = {"chunk_id": 1, "file": "/x/hx.pdf", "page": 1, "kind": "table", "rrf_score": 0.1, "ranks": {"q": 1}, "text": "| Model |"}
    model.set_result({"question": "q", "fused": [hit], "mode": "rag"})
    row = [model.data(model.index(0, c)) for c in range(model.columnCount())]
    assert "table 1" in row and any(str(v).startswith("[table on page 1]") for v in row)
