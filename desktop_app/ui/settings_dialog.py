"""Settings a person understands: the model and where answers come from, how thorough the search is, the passages
in the answer; every other setting under a collapsed "Advanced", each with the sentence saying what it changes
(core.settings.SETTING_HELP says which are advanced and gives the sentences)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ..core.models.catalog import Catalog
from ..core.settings import SEARCH_DEPTHS, SETTING_HELP, Settings, search_depth_of, setting_names
from .mode_names import MODE_TIP, MODES
from .settings_editors import LABELS, Editor, simple_editor

CUSTOM = "Custom"  # the thoroughness shown when the Advanced numbers match no plain choice
SEARCH_BY_DEPTH = ("n_queries", "list_depth")
EMBEDDINGS_SERVER = ("embedder_backend", "embed_url", "embed_http_model", "embed_api_key")  # in the Model section  # what the thoroughness choice sets; shown under Advanced too


def help_label(text: str) -> QLabel:
    label = QLabel(text)
    label.setObjectName("hint")
    label.setWordWrap(True)
    label.setContentsMargins(0, 0, 0, 6)
    return label


class SettingsDialog(QDialog):
    def __init__(self, settings: Settings, catalog: Catalog, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Settings")
        self.setMinimumWidth(720)
        self._settings = settings
        self.editors: dict[str, Editor] = {}

        # -- the model, and where answers come from --------------------------------------------------
        self.model = QComboBox()
        for entry in catalog.llms:
            self.model.addItem(f"{entry.title} (bundled)", entry.name)
        if self.model.findData(settings.model) < 0:
            self.model.addItem(Path(settings.model).name, settings.model)
        self.model.setCurrentIndex(self.model.findData(settings.model))
        browse = QPushButton("GGUF file...")
        browse.setToolTip("Use any llama.cpp GGUF model file on this computer")
        browse.clicked.connect(self._browse)
        self.editors["model"] = Editor(self._row(self.model, browse), self.model.currentData)
        self.backend, self.llm_url, self.llm_http_model, self.llm_api_key = self._server_choice(
            ("llm_backend", "llm_url", "llm_http_model", "llm_api_key"),
            ("This computer (nothing leaves it)", "A server (OpenAI-compatible: llama.cpp, vLLM, Ollama)"),
            ("http://127.0.0.1:8000/v1", "the first model the server lists", "none, or DESKTOP_APP_LLM_API_KEY"),
        )
        # Where passages are embedded: the bundled model here, or an embeddings server (big imports, a GPU box).
        self.embedder_backend, self.embed_url, self.embed_http_model, self.embed_api_key = self._server_choice(
            EMBEDDINGS_SERVER,
            ("On this computer (nothing leaves it)", "By an embeddings server (OpenAI-compatible /v1/embeddings)"),
            ("http://127.0.0.1:8080/v1", "the server's model name", "none, or DESKTOP_APP_EMBED_API_KEY"),
        )

        # -- the search ------------------------------------------------------------------------------
        self.thoroughness = QComboBox()
        for depth in SEARCH_DEPTHS:
            self.thoroughness.addItem(depth.name, depth)
        self.thoroughness.addItem(CUSTOM, None)
        self.thoroughness_help = help_label("")
        self.mode = QComboBox()
        for key, label in MODES:
            self.mode.addItem(label, key)
        self.mode.setCurrentIndex(max(0, self.mode.findData(settings.mode)))
        self.mode.setToolTip(MODE_TIP)
        self.editors["mode"] = Editor(self.mode, self.mode.currentData)
        self.top_k = self._simple("top_k")
        self.temperature = self._simple("temperature")
        self.general_knowledge = self._simple("general_knowledge")

        # -- everything else: Advanced, made from the metadata ------------------------------------------
        self.reranker = QComboBox()
        self.reranker.addItem("Off", "")
        self.reranker.addItem("The local model judges each passage", "llm")
        if settings.reranker not in ("", "llm"):
            self.reranker.addItem(f"CrossEncoder: {Path(settings.reranker).name}", settings.reranker)
        self.reranker.setCurrentIndex(max(0, self.reranker.findData(settings.reranker)))
        for combo in (self.model, self.reranker):  # long names elide instead of widening the dialog
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(16)
        rerank_browse = QPushButton("CrossEncoder folder...")
        rerank_browse.setToolTip("Use a sentence-transformers CrossEncoder model folder on this computer")
        rerank_browse.clicked.connect(self._browse_reranker)
        self.editors["reranker"] = Editor(self._row(self.reranker, rerank_browse), self.reranker.currentData)
        embedder = QLabel(next((e.title for e in catalog.embedders if e.name == settings.embedder), settings.embedder))
        embedder.setToolTip("Chosen when the library was made; changing it means reading every document again")
        self.editors["embedder"] = Editor(embedder, lambda: settings.embedder)
        advanced_names = [n for n in setting_names() if SETTING_HELP[n].advanced or n in SEARCH_BY_DEPTH]
        for name in advanced_names:
            if name not in self.editors:
                setattr(self, name, self._simple(name))
        for name in SEARCH_BY_DEPTH:
            self.editors[name].widget.valueChanged.connect(self._show_thoroughness)

        sections = QVBoxLayout()
        sections.addWidget(self._section("Model", ["llm_backend", "model", "llm_url", "llm_http_model", "llm_api_key", *EMBEDDINGS_SERVER]))
        search = self._section("Search", ["mode", "top_k"])
        search.layout().insertRow(0, "How thorough:", self.thoroughness)
        search.layout().insertRow(1, self.thoroughness_help)
        sections.addWidget(search)
        sections.addWidget(self._section("Answers", ["temperature", "general_knowledge"]))
        self.advanced_toggle = QToolButton()
        self.advanced_toggle.setText("Advanced")
        self.advanced_toggle.setCheckable(True)
        self.advanced_toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.advanced_toggle.setArrowType(Qt.ArrowType.RightArrow)  # drawn by the style: no font character
        self.advanced_toggle.setToolTip("Research settings: how the searches are blended, the model's limits, speed")
        self.advanced_toggle.toggled.connect(self._toggle_advanced)
        self.advanced = self._form(advanced_names)
        self.advanced.hide()

        note = help_label("Search settings apply to the next question. A new model, context size or core count is loaded at once.")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        restore = buttons.addButton("Restore defaults", QDialogButtonBox.ButtonRole.ResetRole)
        restore.clicked.connect(self.restore_defaults)
        self.problem = QLabel()
        self.problem.setObjectName("problem")
        self.problem.setWordWrap(True)
        self.problem.hide()
        # Everything scrolls as one page, so no row is squeezed on a short screen; the sentences wrap, never scroll sideways.
        content = QWidget()
        inner = QVBoxLayout(content)
        inner.setContentsMargins(0, 0, 6, 0)
        inner.addLayout(sections)
        inner.addWidget(self.advanced_toggle, 0, Qt.AlignmentFlag.AlignLeft)
        inner.addWidget(self.advanced)
        inner.addStretch(1)
        self.page = QScrollArea()
        self.page.setWidgetResizable(True)
        self.page.setFrameShape(QScrollArea.Shape.NoFrame)
        self.page.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.page.setWidget(content)
        layout = QVBoxLayout(self)
        layout.addWidget(self.page, 1)
        layout.addWidget(note)
        layout.addWidget(self.problem)
        layout.addWidget(buttons)
        self._backend_changed()
        self._show_thoroughness()
        self.thoroughness.currentIndexChanged.connect(self._thoroughness_chosen)

    # -- building ---------------------------------------------------------------------------------
    def _server_choice(self, names: tuple[str, ...], choices: tuple[str, str], placeholders: tuple[str, str, str]) -> tuple:
        """This computer or a server: the choice, and the server's address, model name and key (enabled for a server)."""
        backend_name, *field_names = names
        backend = QComboBox()
        for label, value in zip(choices, ("local", "http")):
            backend.addItem(label, value)
        backend.setCurrentIndex(max(0, backend.findData(getattr(self._settings, backend_name))))
        self.editors[backend_name] = Editor(backend, backend.currentData)
        fields = [self._simple(name) for name in field_names]
        for field, placeholder in zip(fields, placeholders):
            field.setPlaceholderText(placeholder)
        fields[-1].setEchoMode(QLineEdit.EchoMode.Password)  # the key
        backend.currentIndexChanged.connect(self._backend_changed)
        return (backend, *fields)

    def _simple(self, name: str) -> QWidget:
        editor = simple_editor(name, getattr(self._settings, name))
        editor.widget.setToolTip(SETTING_HELP[name].text)
        self.editors[name] = editor
        return editor.widget

    @staticmethod
    def _row(*widgets: QWidget) -> QWidget:
        row = QWidget()
        layout = QHBoxLayout(row)
        layout.setContentsMargins(0, 0, 0, 0)
        for i, widget in enumerate(widgets):
            layout.addWidget(widget, 1 if i == 0 else 0)
        return row

    def _form(self, names: list[str], holder: QWidget | None = None) -> QWidget:
        """Each setting: its label, its editor, and below it the sentence saying what it changes."""
        holder = holder or QWidget()
        form = QFormLayout(holder)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        for name in names:
            form.addRow(LABELS[name] + ":", self.editors[name].widget)
            form.addRow(help_label(SETTING_HELP[name].text))  # a row of its own, the form's full width
        return holder

    def _section(self, title: str, names: list[str]) -> QGroupBox:
        box = QGroupBox(title)
        self._form(names, box)
        return box

    # -- behaviour --------------------------------------------------------------------------------
    def _toggle_advanced(self, shown: bool) -> None:
        self.advanced.setVisible(shown)
        self.advanced_toggle.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)
        self._fit_height()
        if shown:  # the opened part in view, its title at the top
            QTimer.singleShot(0, lambda: self.page.verticalScrollBar().setValue(self.advanced_toggle.y()))

    def _fit_height(self) -> None:
        """As high as the content needs at this width (its wrapped sentences too), at most nine tenths of the screen."""
        content = self.page.widget()
        content.layout().activate()
        needed = content.heightForWidth(self.page.viewport().width())
        if needed <= 0:
            needed = content.sizeHint().height()
        chrome = self.sizeHint().height() - self.page.sizeHint().height()
        screen = self.screen().availableGeometry().height() if self.screen() else needed + chrome
        self.resize(self.width(), min(needed + chrome + 4, int(screen * 0.9)))

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self._fit_height()

    def _thoroughness_chosen(self) -> None:
        depth = self.thoroughness.currentData()
        if depth is not None:
            self.n_queries.setValue(depth.n_queries)
            self.list_depth.setValue(depth.list_depth)
        self._show_thoroughness()

    def _show_thoroughness(self) -> None:
        """The plain choice the numbers under Advanced match (or Custom), and what it does."""
        depth = search_depth_of(self._settings.replace(n_queries=self.n_queries.value(), list_depth=self.list_depth.value()))
        self.thoroughness.blockSignals(True)
        self.thoroughness.setCurrentIndex(self.thoroughness.findText(depth.name if depth else CUSTOM))
        self.thoroughness.blockSignals(False)
        self.thoroughness_help.setText(
            depth.says if depth else f"Set under Advanced: at most {self.n_queries.value()} extra search queries, {self.list_depth.value()} results from each search."
        )

    def restore_defaults(self) -> None:
        """Every editor back to its default; the model, the server and the search model stay as chosen."""
        defaults = Settings()
        keep = {"model", "embedder", "llm_backend", "llm_url", "llm_http_model", "llm_api_key", *EMBEDDINGS_SERVER}
        for name, editor in self.editors.items():
            if name in keep:
                continue
            value = getattr(defaults, name)
            widget = editor.widget
            if isinstance(widget, QComboBox):
                widget.setCurrentIndex(max(0, widget.findData(value)))
            elif name == "reranker":
                self.reranker.setCurrentIndex(max(0, self.reranker.findData(value)))
            elif hasattr(widget, "setChecked"):
                widget.setChecked(value)
            elif hasattr(widget, "setValue"):
                widget.setValue(value)

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
        embeddings_server = self.embedder_backend.currentData() == "http"
        for field in (self.embed_url, self.embed_http_model, self.embed_api_key):
            field.setEnabled(embeddings_server)

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
        return self._settings.replace(**{name: editor.value() for name, editor in self.editors.items()})
