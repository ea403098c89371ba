"""The window on a library in PostgreSQL, chosen in Settings (a real throwaway cluster; fakes for the models)."""

from __future__ import annotations

from desktop_app.core.library import Library
from desktop_app.core.settings import Settings, save_settings
from tests.fakes import HashingEmbedder, ScriptedGenerator


def test_the_window_imports_into_and_removes_from_a_library_in_postgresql(make_window, data_home, database, sample_pdf, qtbot):
    data_home.mkdir(parents=True, exist_ok=True)
    save_settings(data_home, Settings(library_url=database))  # the Settings field, read when the app starts
    library = Library(data_home, embedder=HashingEmbedder(), generator=ScriptedGenerator())
    assert library.in_database
    window = make_window(library)
    window.import_controller.import_paths([str(sample_pdf)])
    qtbot.waitUntil(lambda: not window.import_jobs.busy and library.index_backlog().pending == 0 and window.documents.rowCount() == 1, timeout=60_000)
    assert window.library_panel.rows[str(sample_pdf.resolve())].stage == "ready"
    assert [d.title for d in window.documents.documents] == ["PX-40 Industrial Pump Datasheet"]
    assert not (data_home / "library.sqlite").exists()  # the documents are in the database, not the data folder

    window.import_controller.remove_documents([window.documents.document(0).id])
    qtbot.waitUntil(lambda: window.documents.rowCount() == 0, timeout=10_000)
    assert library.store.documents() == []
