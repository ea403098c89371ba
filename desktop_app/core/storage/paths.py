"""Where the app keeps its data: one folder, readable by the user only."""

from __future__ import annotations

import os
from pathlib import Path

APP_NAME = "desktop-app"
REPO_ROOT = Path(__file__).resolve().parents[3]


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


def user_models_dirs() -> list[Path]:
    """Folders where a user may drop their own GGUF files."""
    return [REPO_ROOT / "models", data_home() / "models"]


def ensure_private_dir(path: Path) -> None:
    # Documents are private: the data folder is readable by its owner only.
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    try:
        if path.stat().st_mode & 0o077:
            path.chmod(0o700)
    except PermissionError:
        pass
