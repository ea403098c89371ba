"""The main window: wires the panels to the core Library and runs its work on background threads.

Two job runners: `model_jobs` for everything that touches the LLM (warm-up, questions, re-runs),
one job at a time because llama.cpp is not thread-safe; `import_jobs` for imports and removals.
Their callbacks run on the GUI thread; nothing here blocks the event loop for long.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QDragEnterEvent,
    QDropEvent,
    QIcon,
    QKeySequence,
)
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QListView,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QSplitter,
    QStyle,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ..core.codec import result_to_json
from ..core.errors import AppError
from ..core.events import (
    AnswerDone,
    QueriesGenerated,
    QuestionRewritten,
    SourcesRanked,
    SqlRan,
    Token,
)
from ..core.ingest.importer import collect_files
from ..core.library import Library
from ..core.settings import HTTP_FIELDS
from ..core.storage import paths
from ..core.types import ImportProgress
from .chat_panel import ChatEntry, ChatPanel
from .errors import show_error
from .fusion_panel import FusionPanel
from .library_panel import LibraryPanel
from .models import ChatsModel, CollectionsModel, DocumentsModel
from .page_view import PageView
from .settings_dialog import SettingsDialog
from .workers import Job, JobRunner

APP_NAME = "Desktop App"
GIL_SWITCH_INTERVAL_S = 0.001
ICON_PATH = paths.REPO_ROOT / "resources" / "desktop-app.png"
PASSWORD_PROTECTED = "password protected"  # in the ImportProgress message of a PasswordProtected failure


class _ProgressRelay(QObject):
    """Carries the model's byte progress from the worker thread to the GUI thread."""

    progressed = Signal(int, int)


def _passage_json(source) -> dict:
    p = source.passage
    return {"chunk_id": p.chunk_id, "file": p.file, "page": p.page, "rrf_score": source.rrf_score, "ranks": dict(source.ranks),
            "similarity": source.similarity, "text": p.text, "start": p.start, "end": p.end,
            "kind": p.kind, "bbox": list(p.bbox) if p.bbox else None}


class MainWindow(QMainWindow):
    def __init__(self, library: Library | None = None, home: Path | None = None, warm_up: bool = True):
        super().__init__()
        # Workers run Python between native calls; a short switch interval hands the GUI thread the
        # interpreter sooner (the default 5 ms, times several busy threads, shows as stutter).
        sys.setswitchinterval(GIL_SWITCH_INTERVAL_S)
        self._owns_library = library is None
        self.library = library or Library(home)
        self.setWindowTitle(APP_NAME)
        if ICON_PATH.exists():
            self.setWindowIcon(QIcon(str(ICON_PATH)))
        self.setAcceptDrops(True)
        self.resize(1440, 900)
        self.model_jobs = JobRunner("model-jobs", self)
        self.import_jobs = JobRunner("import-jobs", self)
        self.import_by_file: dict[str, Job] = {}
        self.ask_job: Job | None = None
        self.chat_id: int | None = None
        self.models_ready = False
        self._closed = False
        self._passwords_tried: set[str] = set()  # files re-imported with a password, so a wrong one says so
        self._needs_password: set[str] = set()  # failed as password protected; asked when their job ends

        self.documents = DocumentsModel(self)
        self.chats = ChatsModel(self)
        self.collections = CollectionsModel(self)
        self.library_panel = LibraryPanel(self.documents, self.collections)
        self.chat_panel = ChatPanel()
        self.fusion_panel = FusionPanel()
        self.page_view = PageView()
        self._build_layout()
        self._build_menus()
        self._build_status_bar()

        self.library_panel.add_requested.connect(self.choose_files)
        self.library_panel.remove_requested.connect(self.confirm_remove)
        self.library_panel.cancel_import.connect(self.cancel_import)
        self.library_panel.collection_requested.connect(self.create_collection)
        self.library_panel.delete_collection_requested.connect(self.delete_collection)
        self.library_panel.scope_changed.connect(self._collection_selected)
        self.chat_panel.send_requested.connect(self.ask)
        self.chat_panel.stop_requested.connect(self.stop)
        self.chat_panel.mode_changed.connect(self._mode_changed)
        self.chat_panel.view.citation_clicked.connect(self.show_citation)
        self.fusion_panel.rerun_requested.connect(self.rerun)
        self.fusion_panel.passage_selected.connect(self.show_hit)
        self.page_view.failed.connect(self.report)
        self.chat_panel.set_mode(self.library.settings.mode)
        # Text widgets would swallow file drops as text; the whole window takes them instead.
        self.chat_panel.input.setAcceptDrops(False)
        self.chat_panel.view.setAcceptDrops(False)

        self.refresh_documents()
        self.refresh_collections()
        self.refresh_chats()
        self.chat_panel.view.render()
        for notice in self.library.notices:
            self.statusBar().showMessage(notice, 15_000)
        if warm_up:
            QTimer.singleShot(0, self.warm_up)
        if any(d.status == "embedding" for d in self.library.documents()):
            QTimer.singleShot(0, self.finish_indexing)

    # -- layout -------------------------------------------------------------------------------
    def _build_layout(self) -> None:
        chats_title = QLabel("Chats")
        chats_title.setObjectName("panelTitle")
        self.new_chat_button = QPushButton(self.style().standardIcon(QStyle.StandardPixmap.SP_FileIcon), "New chat")
        self.new_chat_button.setToolTip("Start a new conversation (Ctrl+N)")
        self.new_chat_button.clicked.connect(self.new_chat)
        self.delete_chat_button = QToolButton()
        self.delete_chat_button.setIcon(self.style().standardIcon(QStyle.StandardPixmap.SP_TrashIcon))
        self.delete_chat_button.setToolTip("Delete the selected chat")
        self.delete_chat_button.clicked.connect(self.delete_current_chat)
        chat_header = QHBoxLayout()
        chat_header.addWidget(chats_title, 1)
        chat_header.addWidget(self.new_chat_button)
        chat_header.addWidget(self.delete_chat_button)
        self.chat_list = QListView()
        self.chat_list.setModel(self.chats)
        self.chat_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.chat_list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.chat_list.clicked.connect(lambda index: self.open_chat(self.chats.chat_id(index.row())))
        chats = QWidget()
        chats_layout = QVBoxLayout(chats)
        chats_layout.setContentsMargins(8, 4, 8, 8)
        chats_layout.addLayout(chat_header)
        chats_layout.addWidget(self.chat_list)

        left = QSplitter(Qt.Orientation.Vertical)
        left.addWidget(self.library_panel)
        left.addWidget(chats)
        left.setSizes([560, 260])
        right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(self.fusion_panel)
        right.addWidget(self.page_view)
        right.setSizes([540, 360])
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(left)
        self.splitter.addWidget(self.chat_panel)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([370, 500, 580])
        self.setCentralWidget(self.splitter)

    def _build_menus(self) -> None:
        style = self.style()
        file_menu = self.menuBar().addMenu("&File")
        self.add_action = QAction(style.standardIcon(QStyle.StandardPixmap.SP_FileDialogNewFolder), "&Add documents...", self)
        self.add_action.setShortcut(QKeySequence.StandardKey.Open)
        self.add_action.triggered.connect(self.choose_files)
        self.new_chat_action = QAction("&New chat", self)
        self.new_chat_action.setShortcut(QKeySequence.StandardKey.New)
        self.new_chat_action.triggered.connect(self.new_chat)
        self.settings_action = QAction("&Settings...", self)
        self.settings_action.setShortcut(QKeySequence("Ctrl+,"))
        self.settings_action.triggered.connect(self.open_settings)
        quit_action = QAction("&Quit", self)
        quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.close)
        for action in (self.add_action, self.new_chat_action, self.settings_action):
            file_menu.addAction(action)
        file_menu.addSeparator()
        file_menu.addAction(quit_action)
        chat_menu = self.menuBar().addMenu("&Chat")
        self.stop_action = QAction("&Stop answer", self)
        self.stop_action.setShortcut(QKeySequence(Qt.Key.Key_Escape))
        self.stop_action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.stop_action.triggered.connect(self.stop)
        self.export_action = QAction("&Export to Markdown...", self)
        self.export_action.setToolTip("Save the open chat, with its citations and quoted passages, as a Markdown file")
        self.export_action.triggered.connect(lambda: self.export_chat())
        chat_menu.addAction(self.new_chat_action)
        chat_menu.addAction(self.stop_action)
        chat_menu.addSeparator()
        chat_menu.addAction(self.export_action)
        self.addAction(self.stop_action)
        help_menu = self.menuBar().addMenu("&Help")
        about = QAction("&About", self)
        about.triggered.connect(self._about)
        help_menu.addAction(about)

    def _build_status_bar(self) -> None:
        self.model_status = QLabel("Models: not loaded")
        self.model_bar = QProgressBar()
        self.model_bar.setMaximumWidth(220)
        self.model_bar.setFormat("preparing model %p%")
        self.model_bar.hide()
        self.statusBar().addPermanentWidget(self.model_bar)
        self.statusBar().addPermanentWidget(self.model_status)
        self._relay = _ProgressRelay(self)
        self._relay.progressed.connect(self._model_progress, Qt.ConnectionType.QueuedConnection)

    def _about(self) -> None:
        QMessageBox.about(self, APP_NAME, f"<b>{APP_NAME}</b><p>Chat with your documents, locally. RAG-Fusion over your PDFs with a local LLM.</p><p>Data folder: {self.library.home}</p>")

    def report(self, exc: BaseException) -> None:
        show_error(self, exc, self.statusBar())

    # -- models -------------------------------------------------------------------------------
    def warm_up(self) -> None:
        """Load the models in the background so the first question does not wait; the window is already usable."""
        self.library.model_progress = self._relay.progressed.emit

        def work(job: Job):
            yield "Loading the search model..."
            import pymupdf  # noqa: F401  (seconds on first import; better here than in the first import job)

            load = getattr(self.library.embedder, "load", None)
            if load:
                load()
            yield f"Preparing {self.library.model_label()}..."
            generator = self.library.generator()
            load = getattr(generator, "load", None)
            if load:
                load()
            yield "Reading the prompt instructions..."
            self.library.pipeline().warm_up()
            yield None

        self.models_ready = False
        self.model_jobs.submit(Job("warm-up", work, on_item=self._model_status, on_error=self._model_failed))

    def _model_status(self, text: str | None) -> None:
        if text is None:
            self.models_ready = True
            self.model_bar.hide()
            self.model_status.setText(f"Model: {self.library.model_label()} · ready")
        else:
            self.model_status.setText(text)

    def _model_progress(self, done: int, total: int) -> None:
        self.model_bar.show()
        self.model_bar.setRange(0, 1000)
        self.model_bar.setValue(int(1000 * done / total) if total else 0)
        if done >= total:
            self.model_bar.hide()

    def _model_failed(self, exc: BaseException) -> None:
        self.model_bar.hide()
        self.model_status.setText("Model: not available")
        self.report(exc)

    # -- documents ----------------------------------------------------------------------------
    def refresh_documents(self) -> None:
        self.documents.set_documents(self.library.documents())

    def choose_files(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(self, "Add documents", str(Path.home()), "Documents (*.pdf *.txt *.md *.csv *.tsv *.xlsx *.xlsm);;All files (*)")
        if files:
            self.import_paths(files)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if event.mimeData().hasUrls() and any(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()

    def dragMoveEvent(self, event) -> None:
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        paths = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        if paths:
            event.acceptProposedAction()
            self.import_paths(paths)

    def import_paths(self, paths: list[str], passwords: dict[str, str] | None = None) -> None:
        """One job per file, so each can be cancelled alone; they run one after another on the import thread."""
        self.library_panel.clear_finished()
        self.library_panel.show_warning("")
        files = collect_files(paths)
        if not files:
            self.statusBar().showMessage("No PDF, .txt, .md, CSV or Excel files there.", 8000)
            return
        for file in files:
            name = str(file)
            if name in self.import_by_file and not self.import_by_file[name].finished:
                continue
            job = Job(f"import {file.name}", lambda job, f=file: self.library.import_paths([f], passwords=passwords, cancel=job.cancel))
            job.on_item = self._import_progress
            job.on_error = self.report
            job.on_done = lambda name=name: self._import_finished(name)
            self.import_by_file[name] = job
            self.import_jobs.submit(job)
        self.statusBar().showMessage(f"Importing {len(files)} file{'s' if len(files) != 1 else ''}...", 5000)

    def finish_indexing(self) -> None:
        """Embed what an earlier session left unembedded (it quit or crashed mid-import); searchable meanwhile."""
        job = Job("finish indexing", lambda job: self.library.import_paths([], cancel=job.cancel))
        job.on_item = self._import_progress
        job.on_error = self.report
        self.import_jobs.submit(job)

    def _import_progress(self, event) -> None:
        if event.stage == "warning":
            # About the whole library (the index file could not be saved), not one file: no import row.
            self.library_panel.show_warning(event.message)
            self.statusBar().showMessage(event.message, 15_000)
            return
        self.library_panel.show_progress(event)
        if event.stage == "ready":
            self._passwords_tried.discard(event.file)
        if event.stage in ("searchable", "ready", "failed"):
            self.refresh_documents()
        if event.stage == "failed":
            self.statusBar().showMessage(event.message, 15_000)
            message = event.message.lower()
            # A wrong password fails with "the password ... is wrong": ask again for files we already asked about.
            if PASSWORD_PROTECTED in message or (event.file in self._passwords_tried and "password" in message):
                # Asked once the file's job is finished, so the retry is not taken for a duplicate of it.
                self._needs_password.add(event.file)

    def ask_password(self, file: str, again: bool = False) -> str | None:
        """Asks for a file's password; None when the user skips it. (Tests replace this.)"""
        name = Path(file).name
        prompt = f"{name} is password protected.\nEnter its password to import it, or Cancel to skip it."
        if again:
            prompt = f"That password did not open {name}.\nTry again, or Cancel to skip it."
        password, ok = QInputDialog.getText(self, "Password protected", prompt, QLineEdit.EchoMode.Password)
        return password if ok and password else None

    def retry_with_password(self, file: str) -> None:
        if self._closed:
            return
        again = file in self._passwords_tried
        password = self.ask_password(file, again)
        if password is None:
            self._passwords_tried.discard(file)
            return
        self._passwords_tried.add(file)
        self.import_paths([file], passwords={file: password})

    def _import_finished(self, name: str) -> None:
        if name in self._needs_password:
            self._needs_password.discard(name)
            # After this slot returns: a modal dialog must not open while the runner is delivering results.
            QTimer.singleShot(0, lambda: self.retry_with_password(name))
        job = self.import_by_file.get(name)
        row = self.library_panel.rows.get(name)
        if job is not None and job.cancel.is_set() and row is not None and not row.finished:
            row.update_progress(ImportProgress(name, "cancelled", message="Import cancelled"))
        if not self.import_jobs.busy:
            self.refresh_documents()

    def cancel_import(self, file: str) -> None:
        job = self.import_by_file.get(file)
        if job is not None:
            job.cancel.set()

    def confirm_remove(self, ids: list[int]) -> None:
        names = [d.title for d in self.documents.documents if d.id in ids]
        answer = QMessageBox.question(self, "Remove documents", "Remove from the library?\n\n" + "\n".join(names) + "\n\nThe files themselves stay on disk.")
        if answer == QMessageBox.StandardButton.Yes:
            self.remove_documents(ids)

    def remove_documents(self, ids: list[int]) -> Job:
        def work(job: Job):
            for document_id in ids:
                self.library.remove_document(document_id)
                yield document_id

        return self.import_jobs.submit(Job("remove", work, on_error=self.report, on_done=self.refresh_documents))

    # -- collections --------------------------------------------------------------------------
    def refresh_collections(self, select: str | None = None) -> None:
        """Reloads the collections from SQLite and keeps (or switches to) the selected one."""
        name = self.library_panel.collection_name() if select is None else select
        try:
            collections = self.library.collections()
            if name and name not in {n for _, n, _ in collections}:
                name = ""
            ids = self.library.collection_documents(name) if name else None
        except AppError as exc:
            self.report(exc)
            return
        self.library_panel.collection.blockSignals(True)
        self.collections.set_collections(collections)
        self.library_panel.collection.blockSignals(False)
        self.library_panel.select_collection(name, ids)

    def _collection_selected(self) -> None:
        self.refresh_collections(self.library_panel.collection_name())

    def create_collection(self, document_ids: list[int]) -> None:
        if not document_ids:
            self.statusBar().showMessage("Tick the documents to put in the collection first.", 8000)
            return
        name, ok = QInputDialog.getText(self, "New collection", f"Name of the collection of the {len(document_ids)} ticked documents:")
        name = name.strip()
        if ok and name:
            self.add_to_collection(name, document_ids)

    def add_to_collection(self, name: str, document_ids: list[int]) -> None:
        paths_ = [d.path for d in self.documents.documents if d.id in set(document_ids)]
        try:
            self.library.add_to_collection(name, paths_)
        except AppError as exc:
            self.report(exc)
            return
        self.refresh_collections(select=name)
        self.statusBar().showMessage(f"Collection '{name}' saved; questions now search it.", 8000)

    def delete_collection(self, name: str) -> None:
        if not name:
            return
        try:
            self.library.delete_collection(name)
        except AppError as exc:
            self.report(exc)
            return
        self.refresh_collections(select="")

    # -- chats --------------------------------------------------------------------------------
    def refresh_chats(self) -> None:
        self.chats.set_chats(self.library.chats())
        if self.chat_id is not None:
            row = self.chats.row_of(self.chat_id)
            if row >= 0:
                self.chat_list.setCurrentIndex(self.chats.index(row))

    def new_chat(self) -> None:
        if self.ask_job is not None:
            self.stop()
        self.chat_id = None
        self.chat_panel.title.setText("New chat")
        self.chat_panel.view.set_entries([])
        self.fusion_panel.show_result(None)
        self.chat_list.clearSelection()
        self.chat_panel.input.setFocus()

    def open_chat(self, chat_id: int) -> None:
        if self.ask_job is not None:
            self.statusBar().showMessage("Stop the running answer before switching chats.", 5000)
            return
        self.chat_id = chat_id
        entries = []
        for _id, role, content, result_json in self.library.chat_messages(chat_id):
            result = json.loads(result_json) if result_json else None
            entries.append(ChatEntry(role, content, result, notices=list(result.get("notices", [])) if result else []))
        self.chat_panel.view.set_entries(entries)
        title = next((t for i, t, _ in self.library.chats() if i == chat_id), "Chat")
        self.chat_panel.title.setText(title)
        last = next((e.result for e in reversed(entries) if e.result), None)
        self.fusion_panel.show_result(last)

    def delete_current_chat(self) -> None:
        index = self.chat_list.currentIndex()
        if not index.isValid():
            return
        chat_id = self.chats.chat_id(index.row())
        try:
            self.library.delete_chat(chat_id)
        except AppError as exc:
            self.report(exc)
            return
        if chat_id == self.chat_id:
            self.new_chat()
        self.refresh_chats()

    def export_chat(self, path: str | None = None) -> Path | None:
        """Saves the open chat as Markdown (question, answer, each citation's file, page and quoted passage)."""
        if self.chat_id is None:
            self.statusBar().showMessage("Open a chat to export it.", 5000)
            return None
        try:
            markdown = self.library.export_chat(self.chat_id)
        except AppError as exc:
            self.report(exc)
            return None
        if path is None:
            title = self.chat_panel.title.text() or "chat"
            stem = "".join(c if c.isalnum() or c in " -_" else "_" for c in title).strip() or "chat"
            path, _ = QFileDialog.getSaveFileName(self, "Export chat to Markdown", str(Path.home() / f"{stem}.md"), "Markdown (*.md);;All files (*)")
            if not path:
                return None
        target = Path(path)
        try:
            target.write_text(markdown, encoding="utf-8")
        except OSError as exc:
            self.report(AppError(f"The chat could not be saved to {target} ({exc.strerror or exc})", hint="Choose another folder."))
            return None
        self.statusBar().showMessage(f"Chat exported to {target}", 8000)
        return target

    # -- questions ----------------------------------------------------------------------------
    def _mode_changed(self, mode: str) -> None:
        try:
            self.library.update_settings(self.library.settings.replace(mode=mode))
        except Exception as exc:
            self.report(exc)

    def ask(self, question: str) -> Job | None:
        if self.ask_job is not None:
            return None
        if not self.documents.rowCount():
            self.statusBar().showMessage("Add documents first: drop PDFs on the window or press Ctrl+O.", 8000)
        store = self.library.store
        try:
            if self.chat_id is None:
                self.chat_id = store.create_chat(question if len(question) <= 60 else question[:57] + "...")
                self.chat_panel.title.setText(store.chats()[0][1] if store.chats() else "Chat")
        except AppError as exc:  # busy, disk full, read-only: say so, keep the question in the box
            self.report(exc)
            return None
        self.refresh_chats()
        self.chat_panel.input.clear()
        view = self.chat_panel.view
        view.add(ChatEntry("user", question))
        entry = ChatEntry("assistant", "", streaming=True)
        entry_index = view.add(entry)
        mode = self.chat_panel.mode.currentData()
        allowed = self.library_panel.allowed_documents()
        chat_id = self.chat_id
        self.fusion_panel.show_result(None)
        self.fusion_panel.show_queries(question, [])
        state = {"answering": False, "done": False, "standalone": ""}

        def work(job: Job):
            # ask_in_chat rewrites a follow-up from the chat's history and stores the question and the answer.
            events = self.library.ask_in_chat(chat_id, question, mode=mode, allowed_documents=allowed, cancel=job.cancel)
            try:
                for event in events:
                    if isinstance(event, SourcesRanked):
                        state["answering"] = True
                    yield event
                    # Before the answer starts nothing is worth keeping; once it streams, the pipeline stops at the next token.
                    if job.cancel.is_set() and not state["answering"]:
                        return
            finally:
                events.close()

        def on_item(event) -> None:
            if isinstance(event, QuestionRewritten):
                state["standalone"] = event.standalone if event.standalone != event.original else ""
                self.fusion_panel.show_searched_as(state["standalone"])
            elif isinstance(event, QueriesGenerated):
                self.fusion_panel.show_queries(question, list(event.queries))
                if event.notice:
                    entry.notices.append(event.notice)
            elif isinstance(event, SourcesRanked):
                partial = {"question": question, "standalone_question": state["standalone"], "mode": mode, "queries": self.fusion_panel.edited_queries(),
                           "rrf_k": self.library.settings.rrf_k, "fused": [_passage_json(s) for s in event.sources], "timings": {}}
                entry.result = {"citations": [], "context_sources": [_passage_json(s) for s in event.context]}
                self.fusion_panel.show_result(partial, update_queries=False)
            elif isinstance(event, SqlRan):
                self.fusion_panel.show_sql_run(event.result)
            elif isinstance(event, Token):
                entry.text += event.text
                view.schedule_render()
            elif isinstance(event, AnswerDone):
                state["done"] = True
                result = result_to_json(event.result)
                if job.cancel.is_set():
                    result["notices"] = [*result["notices"], "Stopped."]
                entry.text = event.result.answer
                entry.result = result
                entry.notices = list(result["notices"])
                entry.streaming = False
                self.fusion_panel.show_result(result)
                view.render()

        def on_done() -> None:
            self.ask_job = None
            self.chat_panel.set_generating(False)
            if not state["done"]:
                # ask_in_chat stores only finished answers; keep the question (and what streamed) in the chat anyway.
                entry.streaming = False
                entry.text = entry.text or "(stopped before the answer began)"
                entry.notices.append("Stopped.")
                try:
                    store.add_message(chat_id, "user", question)
                    store.add_message(chat_id, "assistant", entry.text, None)
                except AppError as exc:
                    self.report(exc)
                view.render()
            self.refresh_chats()
            self.chat_panel.input.setFocus()
            if self.models_ready:
                self._model_status(None)

        job = Job("ask", work, on_item=on_item, on_done=on_done, on_error=self.report)
        self.ask_job = job
        self.chat_panel.set_generating(True)
        self.model_status.setText("Answering..." if self.models_ready else "Loading the models, then answering...")
        return self.model_jobs.submit(job)

    def stop(self) -> None:
        if self.ask_job is not None:
            self.ask_job.cancel.set()
            self.statusBar().showMessage("Stopping...", 3000)

    def rerun(self, question: str, queries: list[str]) -> Job:
        allowed = self.library_panel.allowed_documents()

        def work(job: Job):
            yield from self.library.ask(question, mode="fusion", allowed_documents=allowed, generate_answer=False, queries=queries)

        def on_item(event) -> None:
            if isinstance(event, AnswerDone):
                result = result_to_json(event.result)
                self.fusion_panel.show_result(result, update_queries=False)
                self.statusBar().showMessage(f"Searched again with {len(queries)} queries; ask again for a new answer.", 8000)

        self.fusion_panel.rerun.setEnabled(False)
        return self.model_jobs.submit(Job("rerun", work, on_item=on_item, on_error=self.report, on_done=lambda: self.fusion_panel.rerun.setEnabled(True)))

    # -- pages --------------------------------------------------------------------------------
    def show_citation(self, entry_index: int, n: int) -> bool:
        entries = self.chat_panel.view.entries
        if not 0 <= entry_index < len(entries) or not entries[entry_index].result:
            return False
        result = entries[entry_index].result
        cite = next((c for c in result.get("citations", []) if c["n"] == n), None)
        if cite is None:
            context = result.get("context_sources", [])
            if not 1 <= n <= len(context):
                self.statusBar().showMessage(f"[{n}] does not match a passage given to the model.", 5000)
                return False
            cite = context[n - 1]
        if "fused" in result and self.fusion_panel.result is not result:
            self.fusion_panel.show_result(result)
        self._select_chunk(cite["chunk_id"])
        return self.page_view.show_passage(cite["file"], cite["page"], cite.get("start"), cite.get("end"), f"[{n}]", bbox=cite.get("bbox"))

    def _select_chunk(self, chunk_id: int) -> None:
        fused = self.fusion_panel.fused
        for row in range(fused.rowCount()):
            if fused.hit(row)["chunk_id"] == chunk_id:
                index = self.fusion_panel.proxy.mapFromSource(fused.index(row, 0))
                table = self.fusion_panel.table
                table.selectionModel().blockSignals(True)
                table.selectRow(index.row())
                table.selectionModel().blockSignals(False)
                table.scrollTo(index)
                return

    def show_hit(self, hit: dict) -> bool:
        start, end, bbox = hit.get("start"), hit.get("end"), hit.get("bbox")
        if start is None:
            passage = self.library.passage(hit["chunk_id"])
            if passage is not None:
                start, end, bbox = passage.start, passage.end, passage.bbox
        return self.page_view.show_passage(hit["file"], hit["page"], start, end, bbox=bbox)

    # -- settings and shutdown ----------------------------------------------------------------
    def open_settings(self) -> None:
        dialog = SettingsDialog(self.library.settings, self.library.catalog, self)
        if dialog.exec():
            self.apply_settings(dialog.settings())

    def apply_settings(self, settings) -> None:
        old = self.library.settings
        try:
            self.library.update_settings(settings)
        except Exception as exc:
            self.report(exc)
            return
        self.chat_panel.set_mode(settings.mode)
        self.statusBar().showMessage("Settings saved.", 5000)
        watched = ("model", "n_ctx", "n_threads", *HTTP_FIELDS)  # a new model or server is loaded or checked at once
        if any(getattr(settings, f) != getattr(old, f) for f in watched):
            self.warm_up()

    def closeEvent(self, event: QCloseEvent) -> None:
        if self._closed:
            return super().closeEvent(event)
        self._closed = True
        self.stop()
        self.import_jobs.cancel_all()
        self.model_jobs.shutdown()
        self.import_jobs.shutdown()
        if self._owns_library:
            self.library.close()
        super().closeEvent(event)
