"""Render desktop-app.svg to the PNG the window and the .desktop file use: `python packaging/make_icon.py`."""

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

RESOURCES = Path(__file__).resolve().parents[1] / "resources"

if __name__ == "__main__":
    app = QGuiApplication([])
    renderer = QSvgRenderer(str(RESOURCES / "desktop-app.svg"))
    image = QImage(256, 256, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    image.save(str(RESOURCES / "desktop-app.png"))
