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
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ..core.models.catalog import Catalog
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

        # The generator: the local model, or an OpenAI-compatible server (the only setting that uses the network).
        self.backend = QComboBox()
        self.backend.addItem("Local model (nothing leaves this computer)", "local")
        self.backend.addItem("OpenAI-compatible server", "http")
        self.backend.setCurrentIndex(max(0, self.backend.findData(settings.llm_backend)))
        self.llm_url = QLineEdit(settings.llm_url)
        self.llm_url.setPlaceholderText("http://127.0.0.1:8000/v1")
        self.llm_url.setToolTip("llama.cpp's server, vLLM, Ollama (http://127.0.0.1:11434/v1) or any OpenAI-compatible API")
        self.llm_http_model = QLineEdit(settings.llm_http_model)
        self.llm_http_model.setPlaceholderText("the first model the server lists")
        self.llm_api_key = QLineEdit(settings.llm_api_key)
        self.llm_api_key.setEchoMode(QLineEdit.EchoMode.Password)
        self.llm_api_key.setPlaceholderText("none, or DESKTOP_APP_LLM_API_KEY")
        self.backend.currentIndexChanged.connect(self._backend_changed)
        self._backend_changed()

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

        # Fusion weights: how much the user's own question and the keyword lists count against generated queries.
        self.question_weight = QDoubleSpinBox()
        self.question_weight.setRange(0.0, 10.0)
        self.question_weight.setSingleStep(0.5)
        self.question_weight.setValue(settings.question_weight)
        self.question_weight.setToolTip("RRF weight of your question's own result list; each generated query weighs 1")
        self.keyword_weight = QDoubleSpinBox()
        self.keyword_weight.setRange(0.0, 10.0)
        self.keyword_weight.setSingleStep(0.25)
        self.keyword_weight.setValue(settings.keyword_weight)
        self.keyword_weight.setSpecialValueText("off")
        self.keyword_weight.setToolTip("RRF weight of the keyword (full-text) result lists; 0 searches by meaning only")
        self.drift_guard = QDoubleSpinBox()
        self.drift_guard.setRange(0.0, 1.0)
        self.drift_guard.setSingleStep(0.05)
        self.drift_guard.setValue(settings.drift_guard)
        self.drift_guard.setSpecialValueText("off")
        self.drift_guard.setToolTip("Generated queries less similar than this to your question are dropped")
        self.max_queries = QSpinBox()
        self.max_queries.setRange(0, 10)
        self.max_queries.setValue(settings.max_queries)
        self.max_queries.setToolTip("The model writes one line per thing to look up, up to this many; with the default prompt each is searched by name and with the fact asked")

        # Reranking: off, the local model as judge, or a sentence-transformers CrossEncoder folder.
        self.reranker = QComboBox()
        self.reranker.addItem("Off", "")
        self.reranker.addItem("The local model judges each passage", "llm")
        if settings.reranker not in ("", "llm"):
            self.reranker.addItem(f"CrossEncoder: {Path(settings.reranker).name}", settings.reranker)
        self.reranker.setCurrentIndex(max(0, self.reranker.findData(settings.reranker)))
        self.reranker.setToolTip("Re-orders the best fused passages before answering; it keeps the passages in the answer")
        rerank_browse = QPushButton("CrossEncoder folder...")
        rerank_browse.setToolTip("Use a sentence-transformers CrossEncoder model folder on this computer")
        rerank_browse.clicked.connect(self._browse_reranker)
        rerank_row = QHBoxLayout()
        rerank_row.addWidget(self.reranker, 1)
        rerank_row.addWidget(rerank_browse)

        form = QFormLayout()
        form.addRow("Answers from:", self.backend)
        form.addRow("Model:", model_row)
        form.addRow("Server address:", self.llm_url)
        form.addRow("Server model:", self.llm_http_model)
        form.addRow("API key:", self.llm_api_key)
        form.addRow("Generated queries:", self.n_queries)
        form.addRow("Most queries:", self.max_queries)
        form.addRow("RRF k:", self.rrf_k)
        form.addRow("Question weight:", self.question_weight)
        form.addRow("Keyword weight:", self.keyword_weight)
        form.addRow("Drop queries below similarity:", self.drift_guard)
        form.addRow("Reranking:", rerank_row)
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
        self.problem = QLabel()
        self.problem.setObjectName("problem")
        self.problem.setWordWrap(True)
        self.problem.hide()
        layout.addWidget(self.problem)
        layout.addWidget(buttons)

    def accept(self) -> None:
        """Settings that cannot work (a server address without http://) keep the dialog open and say why."""
        try:
            self.settings().validated()
        except ValueError as exc:
            text = str(exc)
            self.problem.setText(text[:1].upper() + text[1:] + ".")
            self.problem.show()
            return
        super().accept()

    def _backend_changed(self) -> None:
        server = self.backend.currentData() == "http"
        self.model.setEnabled(not server)
        for field in (self.llm_url, self.llm_http_model, self.llm_api_key):
            field.setEnabled(server)

    def _browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Choose a GGUF model", str(Path.home()), "GGUF models (*.gguf);;All files (*)")
        if path:
            if self.model.findData(path) < 0:
                self.model.addItem(Path(path).name, path)
            self.model.setCurrentIndex(self.model.findData(path))

    def _browse_reranker(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Choose a CrossEncoder model folder", str(Path.home()))
        if folder:
            if self.reranker.findData(folder) < 0:
                self.reranker.addItem(f"CrossEncoder: {Path(folder).name}", folder)
            self.reranker.setCurrentIndex(self.reranker.findData(folder))

    def settings(self) -> Settings:
        return self._settings.replace(
            model=self.model.currentData(),
            n_queries=self.n_queries.value(),
            rrf_k=float(self.rrf_k.value()),
            top_k=self.top_k.value(),
            temperature=float(self.temperature.value()),
            n_ctx=self.n_ctx.value(),
            n_threads=self.n_threads.value(),
            question_weight=float(self.question_weight.value()),
            keyword_weight=float(self.keyword_weight.value()),
            drift_guard=float(self.drift_guard.value()),
            max_queries=self.max_queries.value(),
            reranker=self.reranker.currentData(),
            llm_backend=self.backend.currentData(),
            llm_url=self.llm_url.text().strip(),
            llm_http_model=self.llm_http_model.text().strip(),
            llm_api_key=self.llm_api_key.text().strip(),
        )
