"""Logs a user can send: timings and errors at the default level, the questions and texts only with debug on."""

from __future__ import annotations

import logging

import pytest

from desktop_app.core.library import Library
from desktop_app.core.logs import DEBUG_ENV, LOGGER, setup_logging
from tests.fakes import HashingEmbedder, ScriptedGenerator

SECRET_QUESTION = "Is the zebrafish tank heater still broken?"
SECRET_TEXT = "The quartzite heater of the zebrafish tank failed on Tuesday."


@pytest.fixture(autouse=True)
def restore_logging():
    yield
    logger = logging.getLogger(LOGGER)
    for handler in [h for h in logger.handlers if getattr(h, "_desktop_app", False)]:
        logger.removeHandler(handler)
        handler.close()
    logger.setLevel(logging.NOTSET)


def ask_once(data_home, tmp_path) -> str:
    log_file = setup_logging(data_home)
    library = Library(data_home, embedder=HashingEmbedder(), generator=ScriptedGenerator(["The heater failed [1]."]))
    note = tmp_path / "tank.txt"
    note.write_text(SECRET_TEXT)
    list(library.import_paths([note]))
    list(library.ask(SECRET_QUESTION, "rag"))
    library.close()
    for handler in logging.getLogger(LOGGER).handlers:
        handler.flush()
    return log_file.read_text()


def test_the_default_log_has_timings_but_no_question_or_document_text(data_home, tmp_path, monkeypatch):
    monkeypatch.delenv(DEBUG_ENV, raising=False)
    text = ask_once(data_home, tmp_path)
    assert "asked: mode=rag" in text and "total=" in text  # the stage timings
    assert "import ready: tank.txt" in text
    for private in ("zebrafish", "quartzite", "heater"):
        assert private not in text


def test_debug_logging_adds_the_question_and_the_answer(data_home, tmp_path, monkeypatch):
    monkeypatch.setenv(DEBUG_ENV, "1")
    text = ask_once(data_home, tmp_path)
    assert SECRET_QUESTION in text and "The heater failed [1]." in text


def test_an_import_failure_and_its_reason_reach_the_log(data_home, tmp_path):
    log_file = setup_logging(data_home)
    library = Library(data_home, embedder=HashingEmbedder(), generator=ScriptedGenerator())
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.7 this is not really a PDF")
    events = list(library.import_paths([broken]))
    library.close()
    [failed] = [e for e in events if e.stage == "failed"]
    assert failed.message and failed.message in log_file.read_text()
