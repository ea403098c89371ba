"""Choosing an OpenAI-compatible server in Settings: the address is checked in the dialog, then the server at once."""

from __future__ import annotations

import socket

from PySide6.QtWidgets import QDialog, QMessageBox

from desktop_app.core.library import Library
from desktop_app.core.models.openai_client import OpenAIHttpGenerator
from desktop_app.core.settings import load_settings
from desktop_app.ui.settings_dialog import SettingsDialog
from tests.fakes import HashingEmbedder


def dead_address() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}/v1"  # closed again: nothing listens there


def test_choosing_a_server_that_is_not_running_says_so_without_a_restart(make_window, data_home, qtbot):
    library = Library(data_home, embedder=HashingEmbedder())  # the configured generator, not a fake
    window = make_window(library, warm_up=False)
    dialog = SettingsDialog(library.settings, library.catalog, window)
    assert not dialog.llm_url.isEnabled()  # the local model is the default
    dialog.backend.setCurrentIndex(dialog.backend.findData("http"))
    assert dialog.llm_url.isEnabled() and not dialog.model.isEnabled()

    dialog.llm_url.setText("localhost:8000/v1")  # no http://
    dialog.accept()
    assert dialog.result() != QDialog.DialogCode.Accepted and not dialog.problem.isHidden()
    assert "http://" in dialog.problem.text()

    url = dead_address()
    dialog.llm_url.setText(url)
    dialog.llm_http_model.setText("qwen2.5")
    dialog.accept()
    assert dialog.result() == QDialog.DialogCode.Accepted
    window.settings_controller.apply(dialog.settings())
    qtbot.waitUntil(lambda: load_settings(data_home).llm_url == url)  # saved in the background
    assert isinstance(library.generator(), OpenAIHttpGenerator)

    qtbot.waitUntil(lambda: window.findChild(QMessageBox, "errorDialog") is not None, timeout=30_000)
    box = window.findChild(QMessageBox, "errorDialog")
    assert f"Nothing answered at {url}" in box.text() and "Start the server or check the address in Settings" in box.text()
    assert window.model_status.text() == "Model: not available"
    box.close()


def test_choosing_an_embeddings_server_indexes_the_library_again_through_it(make_window, data_home, qtbot, tmp_path, embeddings_server):
    from tests.document_files import write_town_report

    library = Library(data_home)  # the configured embedder (the bundled MiniLM), so the choice can replace it
    assert [e.stage for e in library.import_paths([write_town_report(tmp_path / "towns.pdf", pages=2)])][-1] == "ready"
    window = make_window(library, warm_up=False)
    dialog = SettingsDialog(library.settings, library.catalog, window)
    assert not dialog.embed_url.isEnabled()  # this computer is the default
    dialog.embedder_backend.setCurrentIndex(dialog.embedder_backend.findData("http"))
    assert dialog.embed_url.isEnabled() and dialog.embed_http_model.isEnabled()
    dialog.embed_url.setText(embeddings_server.url)
    dialog.embed_http_model.setText(embeddings_server.model)
    dialog.accept()
    assert dialog.result() == QDialog.DialogCode.Accepted
    window.settings_controller.apply(dialog.settings())

    qtbot.waitUntil(lambda: library.embedder.name == f"server:{embeddings_server.model}", timeout=30_000)
    qtbot.waitUntil(lambda: load_settings(data_home).embed_url == embeddings_server.url)
    # Every passage is indexed again in the background, through the server.
    qtbot.waitUntil(lambda: library.index_backlog().pending == 0 and window.import_controller.index_job is None, timeout=120_000)
    assert "POST /v1/embeddings" in embeddings_server.log.read_text()
    assert len(library.index) == library.index_backlog().total


def test_an_embeddings_server_that_is_not_running_is_reported_and_nothing_changes(make_window, data_home, qtbot):
    library = Library(data_home)
    window = make_window(library, warm_up=False)
    dialog = SettingsDialog(library.settings, library.catalog, window)
    dialog.embedder_backend.setCurrentIndex(dialog.embedder_backend.findData("http"))
    url = dead_address()
    dialog.embed_url.setText(url)
    dialog.accept()
    window.settings_controller.apply(dialog.settings())
    qtbot.waitUntil(lambda: window.findChild(QMessageBox, "errorDialog") is not None, timeout=30_000)
    box = window.findChild(QMessageBox, "errorDialog")
    assert f"Nothing answered at {url}" in box.text()
    assert library.settings.embedder_backend == "local" and load_settings(data_home).embedder_backend == "local"
    box.close()
