"""A filter in the question is a chip in the panel; removing the chip asks again without it."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QToolButton

from desktop_app.core.library import Library
from tests.fakes import HashingEmbedder, ScriptedGenerator

NOTES = "# Cooling notes\n\nThe maximum operating temperature of the old pump in the basement is 60 degrees Celsius.\n"


def fused_files(panel) -> set[str]:
    return {Path(panel.fused.source(r).passage.file).name for r in range(panel.fused.rowCount())}


def asked_of_the_datasheet(make_window, data_home, sample_pdf, qtbot):
    """A window over the datasheet and notes.md, asked a question naming the datasheet; and its scripted model."""
    (sample_pdf.parent / "notes.md").write_text(NOTES)
    generator = ScriptedGenerator(["PX-40: maximum operating temperature", "It runs to 85 degrees Celsius [1]."])
    library = Library(data_home, embedder=HashingEmbedder(), generator=generator)
    list(library.import_paths([sample_pdf, sample_pdf.parent / "notes.md"]))
    window = make_window(library)
    window.ask_controller.ask("What is the maximum operating temperature in px40-datasheet.pdf?")
    qtbot.waitUntil(lambda: window.ask_controller.job is None, timeout=30_000)
    return window, generator


def test_a_named_file_is_a_chip_and_removing_it_searches_everything(make_window, data_home, sample_pdf, qtbot):
    window, generator = asked_of_the_datasheet(make_window, data_home, sample_pdf, qtbot)
    panel = window.fusion_panel
    assert panel.chips() == ["px40-datasheet.pdf"] and panel.filter_row.isVisible()
    assert fused_files(panel) == {"px40-datasheet.pdf"}
    assert "Searched as: <b>What is the maximum operating temperature?</b>" in panel.searched_as.text()

    generator.enqueue("PX-40: maximum operating temperature", "It runs to 85 degrees Celsius [1].")
    chip = next(b for b in panel.filter_row.findChildren(QToolButton) if b.objectName() == "filterChip")
    qtbot.mouseClick(chip, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.ask_controller.job is None and len(window.chat_panel.view.entries) == 4, timeout=30_000)
    assert panel.chips() == [] and not panel.filter_row.isVisible()
    assert fused_files(panel) == {"px40-datasheet.pdf", "notes.md"}  # the file's name is searched as words now
    answer = window.chat_panel.view.entries[-1]
    assert answer.result.filters is None and answer.result.question == "What is the maximum operating temperature in px40-datasheet.pdf?"


def test_a_follow_up_keeps_its_chats_file_as_a_chip_that_says_so(make_window, data_home, sample_pdf, qtbot):
    # The bundled model's rewrite of a follow-up dropped the file its chat named, and the follow-up searched every document.
    window, generator = asked_of_the_datasheet(make_window, data_home, sample_pdf, qtbot)
    generator.enqueue("What is the maximum operating temperature of the pump?", "pump: maximum operating temperature", "It runs to 85 degrees Celsius [1].")
    window.ask_controller.ask("and of the pump?")
    qtbot.waitUntil(lambda: window.ask_controller.job is None and len(window.chat_panel.view.entries) == 4, timeout=30_000)
    panel = window.fusion_panel
    assert panel.chips() == ["px40-datasheet.pdf"] and fused_files(panel) == {"px40-datasheet.pdf"}
    chip = next(b for b in panel.filter_row.findChildren(QToolButton) if b.objectName() == "filterChip")
    assert chip.toolTip().startswith("Kept from this chat\u2019s earlier question")

    generator.enqueue("pump: maximum operating temperature", "It runs to 60 degrees Celsius [1].")
    qtbot.mouseClick(chip, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.ask_controller.job is None and len(window.chat_panel.view.entries) == 6, timeout=30_000)
    assert panel.chips() == [] and "notes.md" in fused_files(panel)
