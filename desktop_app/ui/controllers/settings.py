"""Settings: the dialog, the mode switch above the chat; a new model or server is loaded (or checked) at once."""

from __future__ import annotations

from dataclasses import dataclass

from ...core.library import Library
from ...core.settings import HTTP_FIELDS, Settings
from ..chat_panel import ChatPanel
from ..settings_dialog import SettingsDialog
from .feedback import Feedback
from .model_loading import ModelController

RELOADED_BY = ("model", "n_ctx", "n_threads", *HTTP_FIELDS)  # settings whose change warms the model up again


@dataclass(eq=False)
class SettingsController:
    library: Library
    chat_panel: ChatPanel
    models: ModelController
    feedback: Feedback

    def open_dialog(self) -> None:
        dialog = SettingsDialog(self.library.settings, self.library.catalog, self.feedback.window)
        if dialog.exec():
            self.apply(dialog.settings())

    def apply(self, settings: Settings) -> None:
        old = self.library.settings
        try:
            self.library.update_settings(settings)
        except Exception as exc:  # an invalid value or an unwritable settings file: shown, the old settings stay
            self.feedback.report(exc)
            return
        self.chat_panel.set_mode(settings.mode)
        self.feedback.say("Settings saved.", 5000)
        if any(getattr(settings, f) != getattr(old, f) for f in RELOADED_BY):
            self.models.warm_up()

    def mode_changed(self, mode: str) -> None:
        try:
            self.library.update_settings(self.library.settings.replace(mode=mode))
        except Exception as exc:  # as in apply
            self.feedback.report(exc)
