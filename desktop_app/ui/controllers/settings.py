"""Settings: the dialog, the mode switch above the chat; a new model or server is loaded (or checked) at once."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ...core.library import Library
from ...core.settings import HTTP_FIELDS, Settings
from ..chat_panel import ChatPanel
from ..settings_dialog import SettingsDialog
from ..workers import JobRunner, call_in_background
from .feedback import Feedback
from .model_loading import ModelController

RELOADED_BY = ("model", "n_ctx", "n_threads", *HTTP_FIELDS)  # settings whose change warms the model up again


@dataclass(eq=False)
class SettingsController:
    library: Library
    chat_panel: ChatPanel
    models: ModelController
    feedback: Feedback
    jobs: JobRunner  # the library runner: settings.json is written there, never in the window
    reindex: Callable[[], object] = lambda: None  # starts the embedding queue (another embedder: every passage again)

    def open_dialog(self) -> None:
        dialog = SettingsDialog(self.library.settings, self.library.catalog, self.feedback.window)
        if dialog.exec():
            self.apply(dialog.settings())

    def apply(self, settings: Settings) -> None:
        old = self.library.settings

        def saved(notice: str | None) -> None:
            self.chat_panel.set_mode(settings.mode)
            self.feedback.say(notice or "Settings saved.", 15_000 if notice else 5000)
            if notice:
                self.reindex()
            if any(getattr(settings, f) != getattr(old, f) for f in RELOADED_BY):
                self.models.warm_up()

        # An invalid value or an unwritable settings file is shown (on_error); the old settings stay.
        call_in_background(self.jobs, "save settings", lambda: self.library.update_settings(settings), saved, self.feedback.report)

    def mode_changed(self, mode: str) -> None:
        settings = self.library.settings.replace(mode=mode)
        call_in_background(self.jobs, "save mode", lambda: self.library.update_settings(settings), None, self.feedback.report)
