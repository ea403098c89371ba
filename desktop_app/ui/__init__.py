"""The Qt shell over desktop_app.core: widgets, item models and background workers. Never a second engine."""
