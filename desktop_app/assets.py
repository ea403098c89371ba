"""Files the app ships beside its code, as package data: the icon and the desktop entry.

Found through importlib.resources, so a source checkout, an installed wheel and a PyInstaller
bundle all find them the same way.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path


def asset(name: str) -> Path:
    """The path of a file in desktop_app/resources (wheels and bundles unpack package data to real files)."""
    return Path(str(resources.files(__package__).joinpath("resources", name)))


ICON_PNG = asset("desktop-app.png")  # 256 x 256, rendered from the SVG by packaging/make_icon.py
ICON_SVG = asset("desktop-app.svg")
DESKTOP_ENTRY = asset("desktop-app.desktop")
