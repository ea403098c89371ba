"""Settings: the model (a bundled one or any GGUF file) and the search and answer knobs."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ..core.catalog import Catalog
from ..core.settings import Settings


class SettingsDialog(QDialog):
    def __init__(self, settings: Settings, catalog: Catalog, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Settings")
        self._settings = settings
        self.model = QComboBox()
        for entry in catalog.llms:
            self.model.addItem(entry.title, entry.name)
        if self.model.findData(settings.model) < 0:
            self.model.addItem(Path(settings.model).name, settings.model)
        self.model.setCurrentIndex(self.model.findData(settings.model))
        browse = QPushButton("GGUF file...")
        browse.setToolTip("Use any llama.cpp GGUF model file")
        browse.clicked.connect(self._browse)
        model_row = QHBoxLayout()
        model_row.addWidget(self.model, 1)
        model_row.addWidget(browse)

        self.n_queries = QSpinBox()
        self.n_queries.setRange(0, 10)
        self.n_queries.setValue(settings.n_queries)
        self.rrf_k = QDoubleSpinBox()
        self.rrf_k.setRange(0, 1000)
        self.rrf_k.setDecimals(0)
        self.rrf_k.setValue(settings.rrf_k)
        self.top_k = QSpinBox()
        self.top_k.setRange(1, 20)
        self.top_k.setValue(settings.top_k)
        self.temperature = QDoubleSpinBox()
        self.temperature.setRange(0.0, 2.0)
        self.temperature.setSingleStep(0.1)
        self.temperature.setValue(settings.temperature)
        self.n_ctx = QSpinBox()
        self.n_ctx.setRange(1024, 32768)
        self.n_ctx.setSingleStep(1024)
        self.n_ctx.setValue(settings.n_ctx)
        self.n_threads = QSpinBox()
        self.n_threads.setRange(0, 256)
        self.n_threads.setSpecialValueText("all cores")
        self.n_threads.setValue(settings.n_threads)

        form = QFormLayout()
        form.addRow("Model:", model_row)
        form.addRow("Generated queries:", self.n_queries)
        form.addRow("RRF k:", self.rrf_k)
        form.addRow("Passages in the answer:", self.top_k)
        form.addRow("Temperature:", self.temperature)
        form.addRow("Context size (tokens):", self.n_ctx)
        form.addRow("Threads:", self.n_threads)
        note = QLabel("Search settings apply to the next question. A new model, context size or thread count\nis loaded on the next question.")
        note.setObjectName("hint")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(note)
        layout.addWidget(buttons)

    def _browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Choose a GGUF model", str(Path.home()), "GGUF models (*.gguf);;All files (*)")
        if path:
            if self.model.findData(path) < 0:
                self.model.addItem(Path(path).name, path)
            self.model.setCurrentIndex(self.model.findData(path))

    def settings(self) -> Settings:
        return self._settings.replace(
            model=self.model.currentData(),
            n_queries=self.n_queries.value(),
            rrf_k=float(self.rrf_k.value()),
            top_k=self.top_k.value(),
            temperature=float(self.temperature.value()),
            n_ctx=self.n_ctx.value(),
            n_threads=self.n_threads.value(),
        )
