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
