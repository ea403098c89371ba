"""The main window: what is where (panels, menus, status bar) and which controller each action reaches.

What happens when lives in ui/controllers/. Two job runners do the slow work: `model_jobs` for everything
that touches the LLM (warm-up, questions, re-runs), one job at a time because llama.cpp is not
thread-safe; `import_jobs` for imports and removals. Their callbacks run on the GUI thread.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import Qt, QTimer, QUrl
from PySide6.QtGui import QAction, QCloseEvent, QDesktopServices, QDragEnterEvent, QDragMoveEvent, QDropEvent, QIcon, QKeySequence
from PySide6.QtWidgets import QLabel, QMainWindow, QMessageBox, QProgressBar, QSplitter, QStackedWidget, QStyle

from ..assets import ICON_PNG
from ..core.library import Library
from ..core.logs import log_folder
from .chat_list_panel import ChatListPanel
from .chat_panel import ChatPanel
from .controllers.asking import AskController
from .controllers.chats import ChatController
from .controllers.document_collections import CollectionController
from .controllers.evidence import EvidenceController
from .controllers.feedback import Feedback
from .controllers.importing import ImportController, dropped_files
from .controllers.model_loading import ModelController
from .controllers.overviews import OverviewController
from .controllers.settings import SettingsController
from .controllers.watched_folders import WatchedFolderController
from . import fonts
from .fusion_panel import FusionPanel
from .input_guards import FocusReturn, install_wheel_guard
from .library_panel import LibraryPanel
from .models import ChatsModel, CollectionsModel, DocumentsModel
from .page_view import PageView
from .shortcuts_dialog import ShortcutsDialog
from .text_view import PassageTextView
from .workers import Job, JobRunner

APP_NAME = "Desktop App"
GIL_SWITCH_INTERVAL_S = 0.001
ICON_PATH = ICON_PNG


class MainWindow(QMainWindow):
    def __init__(self, library: Library | None = None, home: Path | None = None, warm_up: bool = True):
        super().__init__()
        install_wheel_guard()  # before any control is shown: the wheel scrolls past controls it does not focus
        self._focus_return = FocusReturn(self)  # a closed dialog hands the keyboard back to this window
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
        self._closed = False
        self.model_jobs = JobRunner("model-jobs", self)
        self.import_jobs = JobRunner("import-jobs", self)
        # Chats, collections and settings are written here: a write waits for an import's lock on this thread.
        self.library_jobs = JobRunner("library-jobs", self)
        self.page_jobs = JobRunner("page-jobs", self)  # cited pages are rendered here
        if fonts.lacks_cjk_font():  # with pymupdf's, which the page jobs import anyway
            self.page_jobs.submit(Job("font for Chinese and Japanese", fonts.cjk_font_data, on_item=fonts.add_font))

        self.documents = DocumentsModel(self)
        self.chats = ChatsModel(self)
        self.collections = CollectionsModel(self)
        self.library_panel = LibraryPanel(self.documents, self.collections)
        self.chat_list_panel = ChatListPanel(self.chats)
        self.chat_panel = ChatPanel()
        self.fusion_panel = FusionPanel()
        self.page_view = PageView()
        self.text_view = PassageTextView()  # Word, HTML, EPUB and text files: the passage in its text
        self.source_views = QStackedWidget()
        self.source_views.addWidget(self.page_view)
        self.source_views.addWidget(self.text_view)
        self._build_layout()
        self._build_menus()
        self._build_status_bar()
        self._build_controllers()
        self._connect()

        self.chat_panel.set_mode(self.library.settings.mode)
        # Text widgets would swallow file drops as text; the whole window takes them instead.
        self.chat_panel.input.setAcceptDrops(False)
        self.chat_panel.view.setAcceptDrops(False)
        self.import_controller.refresh()
        self.collection_controller.refresh()
        self.chat_controller.refresh()
        self.chat_panel.view.render()
        for notice in self.library.notices:
            self.statusBar().showMessage(notice, 15_000)
        if warm_up:
            QTimer.singleShot(0, self.model_controller.warm_up)
        if any(d.status == "embedding" for d in self.documents.documents):
            QTimer.singleShot(0, self.import_controller.finish_indexing)
        else:  # an overview an earlier session did not finish (the queue runs again after every meaning index)
            QTimer.singleShot(0, self.overview_controller.start)
        QTimer.singleShot(0, self.watch_controller.start)  # rescan the watched folders, then watch them

    # -- what is where ------------------------------------------------------------------------
    def _build_layout(self) -> None:
        left = QSplitter(Qt.Orientation.Vertical)
        left.addWidget(self.library_panel)
        left.addWidget(self.chat_list_panel)
        # The library gets what the screen has to spare (its imports and folders unfold there); the chat list a few rows.
        left.setStretchFactor(0, 1)
        left.setStretchFactor(1, 0)
        left.setSizes([640, 180])
        # How the answer was found above, the cited page below: the page gets its half once a citation is opened.
        self.evidence_splitter = right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(self.fusion_panel)
        right.addWidget(self.source_views)
        right.setSizes([560, 340])
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(left)
        self.splitter.addWidget(self.chat_panel)
        self.splitter.addWidget(right)
        # A smaller screen narrows the chat and the evidence alike; the library keeps its width.
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setStretchFactor(2, 1)
        self.splitter.setSizes([370, 430, 640])
        self.setCentralWidget(self.splitter)

    def make_room_for_source(self) -> None:
        """An opened citation or passage: its page (or text) gets at least half of the side panel's height."""
        sizes = self.evidence_splitter.sizes()
        total = sum(sizes)
        area = self.page_view.scroll if self.source_views.currentWidget() is self.page_view else self.text_view.text
        # What sits above the page in its view (the caption, the zoom buttons), measured once it has been laid out.
        above = sizes[1] - area.height() if area.isVisible() and 0 < area.height() <= sizes[1] else 80
        wanted = (self.evidence_splitter.height() + 1) // 2 + above  # half of all of it, the splitter's handle included
        if total and sizes[1] < wanted:
            self.evidence_splitter.setSizes([total - wanted, wanted])

    def _build_menus(self) -> None:
        style = self.style()
        file_menu = self.menuBar().addMenu("&File")
        self.add_action = QAction(style.standardIcon(QStyle.StandardPixmap.SP_FileDialogNewFolder), "&Add documents...", self)
        self.add_action.setShortcut(QKeySequence.StandardKey.Open)
        self.watch_action = QAction("Add folder and &keep it in sync...", self)
        self.watch_action.setToolTip("Import a folder and follow it: new files imported, changed ones re-imported, deleted ones removed")
        self.new_chat_action = QAction("&New chat", self)
        self.new_chat_action.setShortcut(QKeySequence.StandardKey.New)
        self.settings_action = QAction("&Settings...", self)
        self.settings_action.setShortcut(QKeySequence("Ctrl+,"))
        quit_action = QAction("&Quit", self)
        quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.close)
        for action in (self.add_action, self.watch_action, self.new_chat_action, self.settings_action):
            file_menu.addAction(action)
        file_menu.addSeparator()
        file_menu.addAction(quit_action)
        chat_menu = self.menuBar().addMenu("&Chat")
        self.stop_action = QAction("&Stop answer", self)
        self.stop_action.setShortcut(QKeySequence(Qt.Key.Key_Escape))
        self.stop_action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.export_action = QAction("&Export to Markdown...", self)
        self.export_action.setToolTip("Save the open chat, with its citations and quoted passages, as a Markdown file")
        chat_menu.addAction(self.new_chat_action)
        chat_menu.addAction(self.stop_action)
        chat_menu.addSeparator()
        chat_menu.addAction(self.export_action)
        self.addAction(self.stop_action)
        help_menu = self.menuBar().addMenu("&Help")
        about = QAction("&About", self)
        about.triggered.connect(self._about)
        self.open_logs_action = QAction("Open &log folder", self)
        self.open_logs_action.setToolTip("The app's logs, to send with a problem report; they hold no document text or questions")
        self.open_logs_action.triggered.connect(self.open_log_folder)
        self.shortcuts_action = QAction("&Keyboard shortcuts", self)
        self.shortcuts_action.setShortcut(QKeySequence(Qt.Key.Key_F1))
        self.shortcuts_action.triggered.connect(self.show_shortcuts)
        help_menu.addAction(self.shortcuts_action)
        help_menu.addAction(self.open_logs_action)
        help_menu.addAction(about)

    def _build_status_bar(self) -> None:
        self.model_status = QLabel("Models: not loaded")
        self.model_bar = QProgressBar()
        self.model_bar.setMaximumWidth(220)
        self.model_bar.setFormat("preparing model %p%")
        self.model_bar.hide()
        # How much of the library the meaning index still lacks (questions find those passages by keyword).
        self.index_status = QLabel()
        self.index_status.setObjectName("indexStatus")
        self.index_status.hide()
        self.statusBar().addPermanentWidget(self.index_status)
        self.statusBar().addPermanentWidget(self.model_bar)
        self.statusBar().addPermanentWidget(self.model_status)

    def open_log_folder(self) -> Path:
        folder = log_folder(self.library.home)
        folder.mkdir(parents=True, exist_ok=True)
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder)))
        return folder

    def show_shortcuts(self) -> ShortcutsDialog:
        dialog = ShortcutsDialog(self)
        dialog.open()  # not exec(): answers and imports go on while it is open
        return dialog

    def _about(self) -> None:
        QMessageBox.about(self, APP_NAME, f"<b>{APP_NAME}</b><p>Chat with your documents, locally. RAG-Fusion over your PDFs with a local LLM.</p><p>Data folder: {self.library.home}</p>")

    # -- what happens when: the controllers, and what reaches them -----------------------------
    def _build_controllers(self) -> None:
        library = self.library
        self.feedback = feedback = Feedback(self)
        self.model_controller = ModelController(library, self.model_jobs, self.model_status, self.model_bar, feedback)
        self.import_controller = ImportController(library, self.import_jobs, self.documents, self.library_panel, feedback, self.index_status)
        self.watch_controller = WatchedFolderController(library, self.import_controller, self.library_panel.watched, feedback)
        self.collection_controller = CollectionController(library, self.collections, self.documents, self.library_panel, feedback, self.library_jobs)
        # The ask controller, made next, is late-bound here: a new chat stops a running answer, switching chats waits for it.
        running, stop = (lambda: self.ask_controller.running), (lambda: self.ask_controller.stop())
        self.chat_controller = ChatController(
            library, self.chats, self.chat_list_panel, self.chat_panel, self.fusion_panel, feedback, running, stop, self.library_jobs,
            lambda: self.evidence_controller.clear(),
        )
        self.ask_controller = AskController(
            library, self.model_jobs, self.chat_panel, self.fusion_panel, self.library_panel, self.documents, self.chat_controller, self.model_controller, feedback,
            lambda: self.evidence_controller.clear(), lambda entry_index, n: self.evidence_controller.show_citation(entry_index, n),
        )
        self.evidence_controller = EvidenceController(
            library, self.chat_panel.view, self.fusion_panel, self.page_view, feedback, self.text_view, self.source_views, self.page_jobs, self.make_room_for_source
        )
        self.overview_controller = OverviewController(library, self.import_jobs, self.library_jobs, self.library_panel, feedback, self.evidence_controller.show_place)
        self.import_controller.on_indexed = self.overview_controller.start
        self.settings_controller = SettingsController(
            library, self.chat_panel, self.model_controller, feedback, self.library_jobs, reindex=self.import_controller.start_indexing
        )

    def _connect(self) -> None:
        importing, asking, chats = self.import_controller, self.ask_controller, self.chat_controller
        collections, evidence = self.collection_controller, self.evidence_controller
        self.add_action.triggered.connect(importing.choose_files)
        self.watch_action.triggered.connect(self.watch_controller.choose_folder)
        self.new_chat_action.triggered.connect(chats.new_chat)
        self.settings_action.triggered.connect(self.settings_controller.open_dialog)
        self.stop_action.triggered.connect(asking.stop)
        self.export_action.triggered.connect(lambda: chats.export_chat())
        self.library_panel.add_requested.connect(importing.choose_files)
        self.library_panel.remove_requested.connect(importing.confirm_remove)
        self.library_panel.cancel_import.connect(importing.cancel)
        self.library_panel.collection_requested.connect(collections.create)
        self.library_panel.delete_collection_requested.connect(collections.delete)
        self.library_panel.scope_changed.connect(collections.scope_changed)
        self.chat_list_panel.new_requested.connect(chats.new_chat)
        self.chat_list_panel.open_requested.connect(chats.open_chat)
        self.chat_list_panel.delete_requested.connect(chats.delete_chat)
        self.chat_list_panel.rename_requested.connect(chats.rename_chat)
        self.chat_panel.send_requested.connect(asking.ask)
        self.chat_panel.stop_requested.connect(asking.stop)
        self.chat_panel.mode_changed.connect(self.settings_controller.mode_changed)
        self.chat_panel.view.citation_clicked.connect(evidence.show_citation)
        self.chat_panel.view.quote_clicked.connect(evidence.show_quote)
        self.fusion_panel.rerun_requested.connect(asking.rerun)
        self.fusion_panel.filter_removed.connect(asking.without_filter)
        self.fusion_panel.passage_selected.connect(evidence.show_source)
        self.page_view.failed.connect(self.feedback.report)

    # -- files dropped anywhere on the window are imported ------------------------------------
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if dropped_files(event.mimeData()):
            event.acceptProposedAction()

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        files = dropped_files(event.mimeData())
        if files:
            event.acceptProposedAction()
            self.import_controller.import_paths(files)

    def closeEvent(self, event: QCloseEvent) -> None:
        if self._closed:
            return super().closeEvent(event)
        self._closed = True
        self.ask_controller.stop()
        self.import_controller.shutdown()
        self.overview_controller.shutdown()
        self.watch_controller.shutdown()
        self.model_jobs.shutdown()  # a model still loading is left to the process's end (app.leave)
        imports_done = self.import_jobs.shutdown()  # an import stops at its next batch, its index saved
        writes_done = self.library_jobs.shutdown(cancel=False)  # a chat or setting being saved is kept
        self.page_jobs.shutdown()
        if self._owns_library and imports_done and writes_done:
            self.library.close()
        # Else a job still uses the library: SQLite has every committed change and the next start
        # brings the index level with it, so nothing is saved under the running job's feet.
        super().closeEvent(event)
