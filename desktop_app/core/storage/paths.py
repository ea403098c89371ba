"""Where the app keeps its data: one folder, readable by the user only."""

from __future__ import annotations

import os
import sys
from pathlib import Path

APP_NAME = "desktop-app"
_PACKAGE = Path(__file__).resolve().parents[2]  # desktop_app/
_CHECKOUT = _PACKAGE.parent
# Only a source checkout has a models/ folder of its own for the user's GGUF files; an installed wheel or a
# bundle keeps them in the data folder (it carries the catalog and the icons inside the package: shipped_dir).
CHECKOUT_MODELS_DIR = _CHECKOUT / "models" if (_CHECKOUT / "pyproject.toml").is_file() else None


def shipped_dir(name: str) -> Path:
    """The repository's top-level models/ (the catalog) or resources/ (icons, tokenizer, desktop entry).

    A checkout, and an editable install (`make run`), use the folder itself; a wheel and the PyInstaller
    bundle carry it inside the package (setup.py and packaging/desktop-app.spec map it there)."""
    inside = _PACKAGE / name
    return inside if inside.is_dir() else _CHECKOUT / name


def data_home() -> Path:
    """The user data folder: DESKTOP_APP_HOME, else the platform's user data folder."""
    override = os.environ.get("DESKTOP_APP_HOME")
    if override:
        home = Path(override).expanduser()
    else:
        import platformdirs

        home = Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
    ensure_private_dir(home)
    return home


def prepared_models_dir() -> Path:
    """Where bundled GGUF files are assembled. DESKTOP_APP_MODELS_DIR lets tests share one copy."""
    override = os.environ.get("DESKTOP_APP_MODELS_DIR")
    folder = Path(override).expanduser() if override else data_home() / "models"
    ensure_private_dir(folder)
    return folder


def bundled_models_dir() -> Path | None:
    """A packaged app's own model files (the PyInstaller bundle ships the default GGUF ready to load), else None."""
    bundle = getattr(sys, "_MEIPASS", None) if getattr(sys, "frozen", False) else None
    return Path(bundle) / "models" if bundle else None


def user_models_dirs() -> list[Path]:
    """Folders where a user may drop their own GGUF files."""
    return [*([CHECKOUT_MODELS_DIR] if CHECKOUT_MODELS_DIR else []), data_home() / "models"]


def ensure_private_dir(path: Path) -> None:
    # Documents are private: the data folder is readable by its owner only.
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    try:
        if path.stat().st_mode & 0o077:
            path.chmod(0o700)
    except PermissionError:
        pass
