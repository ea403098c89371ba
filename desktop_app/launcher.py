"""`desktop-app --install-launcher`: put the app in the user's application menu (freedesktop.org).

Writes `applications/desktop-app.desktop` and the icon (`icons/hicolor/{256x256,scalable}/apps/`)
under $XDG_DATA_HOME (default ~/.local/share), for this user only. The entry starts the very program
that installed it: the bundle's executable, the `desktop-app` script of this environment, or this
Python with `-m desktop_app.ui.app`. No Qt here, so it also works where no display is.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from .assets import DESKTOP_ENTRY, ICON_PNG, ICON_SVG

APP_ID = "desktop-app"
# Characters that make a desktop-entry Exec argument need double quotes (Desktop Entry spec, "The Exec key").
_RESERVED = set(" \t\n\"'\\><~|&;$*?#()`")


@dataclass(frozen=True)
class LauncherFiles:
    desktop_entry: Path
    icons: tuple[Path, ...]


def data_home() -> Path:
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")


def launcher_files(base: Path | None = None) -> LauncherFiles:
    base = base or data_home()
    icons = base / "icons" / "hicolor"
    return LauncherFiles(
        base / "applications" / f"{APP_ID}.desktop",
        (icons / "256x256" / "apps" / f"{APP_ID}.png", icons / "scalable" / "apps" / f"{APP_ID}.svg"),
    )


def launch_command() -> list[str]:
    """How to start this same installation of the app."""
    if getattr(sys, "frozen", False):  # a PyInstaller bundle: its executable
        return [str(Path(sys.executable).resolve())]
    script = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if script and script.name == APP_ID and script.is_file() and os.access(script, os.X_OK):
        return [str(script.resolve())]
    beside = Path(sys.executable).parent / APP_ID  # the console script of this virtualenv
    if beside.is_file() and os.access(beside, os.X_OK):
        return [str(beside)]
    return [sys.executable, "-m", "desktop_app.ui.app"]


def exec_line(command: list[str]) -> str:
    """The Exec value: each argument quoted as the spec asks, then %F (the files the user opened with it)."""
    def quote(arg: str) -> str:
        arg = arg.replace("%", "%%")
        if not any(c in _RESERVED for c in arg):
            return arg
        return '"' + "".join("\\" + c if c in '"`$\\' else c for c in arg) + '"'

    return " ".join(quote(a) for a in command) + " %F"


def desktop_entry_text(command: list[str]) -> str:
    lines = []
    for line in DESKTOP_ENTRY.read_text().splitlines():
        if line.startswith("Exec="):
            line = f"Exec={exec_line(command)}"
        elif line.startswith("TryExec="):
            line = f"TryExec={command[0]}"
        lines.append(line)
    return "\n".join(lines) + "\n"


def install_launcher(base: Path | None = None, command: list[str] | None = None) -> LauncherFiles:
    files = launcher_files(base)
    for source, target in zip((ICON_PNG, ICON_SVG), files.icons):
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
    files.desktop_entry.parent.mkdir(parents=True, exist_ok=True)
    partial = files.desktop_entry.with_name(files.desktop_entry.name + ".partial")
    partial.write_text(desktop_entry_text(command or launch_command()))
    os.replace(partial, files.desktop_entry)  # a menu that reads it meanwhile sees the old entry or the new one
    _refresh_caches(files)
    return files


def uninstall_launcher(base: Path | None = None) -> LauncherFiles:
    files = launcher_files(base)
    for path in (files.desktop_entry, *files.icons):
        path.unlink(missing_ok=True)
    _refresh_caches(files)
    return files


def _refresh_caches(files: LauncherFiles) -> None:
    # Menus notice new entries by themselves; these caches, where a desktop keeps them, catch up sooner.
    # Optional tools: a desktop without them has nothing to refresh.
    for tool, folder in (("update-desktop-database", files.desktop_entry.parent), ("gtk-update-icon-cache", files.icons[0].parents[2])):
        if shutil.which(tool) and folder.is_dir():
            args = [tool, "-q", str(folder)] if tool == "update-desktop-database" else [tool, "-q", "-t", "-f", str(folder)]
            subprocess.run(args, check=False, capture_output=True, timeout=30)


def main(uninstall: bool = False) -> int:
    command = launch_command()
    try:
        files = uninstall_launcher() if uninstall else install_launcher(command=command)
    except OSError as exc:
        print(f"Could not {'remove' if uninstall else 'install'} the launcher: {exc}", file=sys.stderr)
        return 1
    if uninstall:
        print(f"Removed {files.desktop_entry} and the icons.")
    else:
        print(f"Installed {files.desktop_entry}\n  starts: {exec_line(command)}\n  icons: {', '.join(map(str, files.icons))}")
    return 0
