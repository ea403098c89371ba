"""The window labels a table chunk "table on page N" in the sources line and the fusion panel."""

from __future__ import annotations

from desktop_app.core.types import Citation, Source
from desktop_app.ui.chat_view import source_link
from desktop_app.ui.models import FusedPassagesModel
from tests.ui.results import ask_result, passage


def test_the_window_labels_table_sources():
    link = source_link(0, Citation(2, "/x/hx.pdf", 1, "| Model |", chunk_id=1, start=0, end=9, kind="table"))
    assert "hx.pdf, table&nbsp;on&nbsp;page&nbsp;1" in link
    assert "p.&nbsp;1" in source_link(0, Citation(1, "/x/hx.pdf", 1, "text", chunk_id=2, start=0, end=4))
    model = FusedPassagesModel()
    source = Source(1, passage(1, "/x/hx.pdf", 1, "| Model |", kind="table"), 0.1, {"q": 1}, 0.4)
    model.set_result(ask_result("q", "rag", sources=[source]))
    row = [model.data(model.index(0, c)) for c in range(model.columnCount())]
    assert "table 1" in row and any(str(v).startswith("[table on page 1]") for v in row)


def test_a_table_citation_in_the_window_is_labelled_and_highlights_the_table_area(make_window, data_home, tmp_path, qtbot):
    from desktop_app.core.events import AnswerDone
    from desktop_app.core.library import Library
    from tests.fakes import HashingEmbedder, ScriptedGenerator
    from tests.table_pdfs import write_table_datasheet

    question = "What is the maximum pressure of model HX-B?"
    pdf = write_table_datasheet(tmp_path / "docs" / "hx.pdf")
    generator = ScriptedGenerator()
    library = Library(data_home, embedder=HashingEmbedder(), generator=generator)
    list(library.import_paths([pdf]))
    searched = next(e for e in library.ask(question, "rag", generate_answer=False) if isinstance(e, AnswerDone)).result
    n = next(i for i, s in enumerate(searched.context, 1) if s.passage.kind == "table")
    generator.enqueue(f"Model HX-B reaches 11 bar [{n}].")
    window = make_window(library)
    window.chat_panel.set_mode("rag")
    window.ask_controller.ask(question)
    qtbot.waitUntil(lambda: window.ask_controller.job is None, timeout=30_000)

    text = window.chat_panel.view.toPlainText().replace("\u00a0", " ")
    assert f"[{n}] hx.pdf, table on page 1" in text
    entry = len(window.chat_panel.view.entries) - 1
    assert window.evidence_controller.show_citation(entry, n)
    qtbot.waitUntil(lambda: window.page_view.page == 1)  # rendered in the background
    # One highlight: the table's whole area, not its words one by one.
    assert window.page_view.highlighted == 1
    fused = window.fusion_panel.fused
    pages = [fused.data(fused.index(r, fused.columnCount() - 2)) for r in range(fused.rowCount())]
    assert "table 1" in pages
