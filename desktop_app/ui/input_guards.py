"""Two guards over the whole application, so input goes where the person means it.

- The mouse wheel scrolls: it never changes a combo box, spin box or slider the pointer merely passes over.
  Such a control takes the wheel once it has the keyboard focus (clicked or tabbed to), never gets that focus
  from the wheel itself, and passes an unfocused wheel on to what holds it (the scroll area scrolls).
- After a dialog or message box closes, the main window is the active window again, so its shortcuts
  (Ctrl+N, Ctrl+, ...) work at once, not only after a click. Without a window manager that hands activation
  back (Xvfb, some tiling set-ups) no window would be active and every shortcut would be ignored.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtWidgets import QAbstractSpinBox, QApplication, QComboBox, QDialog, QSlider, QWidget

# Controls whose value the wheel sets. Not QAbstractSlider: a scroll area scrolls by handing the wheel to its
# scroll bar (never focused), which must keep taking it.
WHEEL_SET_CONTROLS = (QComboBox, QAbstractSpinBox, QSlider)


class WheelGuard(QObject):
    """An application event filter: see the module's first point."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind not in (QEvent.Type.Polish, QEvent.Type.Wheel) or not isinstance(watched, WHEEL_SET_CONTROLS):
            return False
        if watched.focusPolicy() & Qt.FocusPolicy.WheelFocus == Qt.FocusPolicy.WheelFocus:
            watched.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # the wheel no longer gives it the focus
        if kind == QEvent.Type.Wheel and not _has_focus(watched):
            event.ignore()  # unaccepted: Qt hands the wheel to the parent (a scroll area scrolls)
            return True
        return False


def _has_focus(widget: QWidget) -> bool:
    focused = QApplication.focusWidget()
    return focused is not None and (focused is widget or widget.isAncestorOf(focused))


def install_wheel_guard() -> None:
    """Once per application: every combo box, spin box and slider, made now or later, is guarded."""
    app = QApplication.instance()
    if app is not None and not isinstance(getattr(app, "_wheel_guard", None), WheelGuard):
        app._wheel_guard = WheelGuard(app)
        app.installEventFilter(app._wheel_guard)


class FocusReturn(QObject):
    """An application event filter: when a dialog of the app hides (closed, accepted, cancelled) and leaves no
    window of the app active, the main window is activated. Only then: switching to another program is left alone."""

    def __init__(self, window: QWidget):
        super().__init__(window)
        self.window = window
        QApplication.instance().installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Hide and isinstance(watched, QDialog) and watched.isWindow():
            QTimer.singleShot(0, self, self._take_back)  # once the dialog has finished hiding
        return False

    def _take_back(self) -> None:
        window = self.window
        if QApplication.activeModalWidget() is None and QApplication.activeWindow() is None and window.isVisible() and not window.isMinimized():
            window.activateWindow()
