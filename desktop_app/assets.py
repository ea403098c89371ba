"""Files the app ships beside its code: the icon and the desktop entry, in the repository's top-level resources/.

A source checkout reads that folder; an installed wheel and a PyInstaller bundle carry it inside the package
(core/storage/paths.shipped_dir finds either).
"""

from __future__ import annotations

from pathlib import Path

from .core.storage.paths import shipped_dir


def asset(name: str) -> Path:
    """The path of a file in resources/."""
    return shipped_dir("resources") / name


ICON_PNG = asset("desktop-app.png")  # 256 x 256, rendered from the SVG by packaging/make_icon.py
ICON_SVG = asset("desktop-app.svg")
DESKTOP_ENTRY = asset("desktop-app.desktop")
