"""A document's overview in a window of its own, one click from the library panel: the abstract when there is
one, the outline with a link to each section's page, and each section's central sentences (each a link that
shows the sentence highlighted on its page). Progress of the overview queue sits in the library panel."""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtCore import QUrl, Signal
from PySide6.QtWidgets import QDialog, QLabel, QProgressBar, QTextBrowser, QVBoxLayout, QWidget

from ..core.document_overview import HEADINGS, SOURCE_WORDS, Overview, OverviewProgress
from ..core.types import Passage


def place_passage(overview: Overview, section_position: int, sentence_index: int | None) -> Passage:
    """What a link shows: a central sentence highlighted on its page, or a section's first page."""
    section = overview.sections[section_position]
    return overview.passage(section, None if sentence_index is None else section.sentences[sentence_index])


def overview_html(overview: Overview) -> str:
    unit = "§" if overview.outline_source == HEADINGS else "p."
    parts = [f"<h3>{html.escape(overview.title)}</h3>", f"<p style='color:#666'>{html.escape(Path(overview.file).name)} · outline from {SOURCE_WORDS.get(overview.outline_source, '')}</p>"]
    if overview.abstract:
        parts.append(f"<p><b>Abstract</b> (written by the local model from this overview): {html.escape(overview.abstract)}</p>")
    else:
        parts.append("<p style='color:#666'>No abstract yet: ask “What is this document about?” naming the file, and the local model writes one.</p>")
    top = min((s.level for s in overview.sections), default=1)
    for section in overview.sections:
        indent = 16 * (section.level - top)
        weight = "600" if section.level == top else "normal"
        parts.append(
            f"<div style='margin-left:{indent}px; font-weight:{weight}'><a href='section:{section.position}'>{html.escape(section.title)}</a>"
            f" <span style='color:#666'>({unit} {section.page})</span></div>"
        )
        for i, sentence in enumerate(section.sentences):
            parts.append(
                f"<div style='margin-left:{indent + 14}px; color:#333'>· <a style='color:#333; text-decoration:none' href='sentence:{section.position}:{i}'>"
                f"{html.escape(sentence.text)}</a> <span style='color:#888'>({unit} {sentence.page})</span></div>"
            )
    return "\n".join(parts)


class OverviewDialog(QDialog):
    place_requested = Signal(object)  # a Passage: the page (and sentence) to show

    def __init__(self, overview: Overview, parent: QWidget | None = None):
        super().__init__(parent)
        self.overview = overview
        self.setWindowTitle(f"Overview of {Path(overview.file).name}")
        self.resize(620, 720)
        self.browser = QTextBrowser()
        self.browser.setOpenLinks(False)  # links are handled here: they show a page, never a web browser
        self.browser.anchorClicked.connect(self._clicked)
        self.browser.setHtml(overview_html(overview))
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser)

    def _clicked(self, url: QUrl) -> None:
        kind, _, rest = url.toString().partition(":")
        numbers = [int(n) for n in rest.split(":") if n.isdigit()]
        if kind == "section" and numbers:
            self.place_requested.emit(place_passage(self.overview, numbers[0], None))
        elif kind == "sentence" and len(numbers) == 2:
            self.place_requested.emit(place_passage(self.overview, numbers[0], numbers[1]))


class OverviewStatus(QWidget):
    """The overview queue's progress under the meaning index's: "Overviews: 3 of 12 documents"."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.text = QLabel()
        self.text.setObjectName("overviewText")
        self.bar = QProgressBar()
        self.bar.setTextVisible(False)
        self.bar.setFixedHeight(6)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 0, 4, 0)
        layout.setSpacing(2)
        layout.addWidget(self.text)
        layout.addWidget(self.bar)
        self.hide()

    def show_progress(self, progress: OverviewProgress) -> None:
        self.text.setText(progress.text)
        self.bar.setRange(0, max(progress.total, 1))
        self.bar.setValue(progress.done)
        self.setVisible(progress.done < progress.total)
