"""`desktop-app --install-launcher`: a valid menu entry and the icon, under the user's own data folder only."""

from __future__ import annotations

import configparser
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from desktop_app import launcher
from desktop_app.ui import app


@pytest.fixture
def user_dirs(tmp_path, monkeypatch) -> Path:
    """A home of its own: XDG_DATA_HOME unset, so the default ~/.local/share is used."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    return tmp_path / "home" / ".local" / "share"


def read_entry(path: Path) -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # keys are case-sensitive
    parser.read_string(path.read_text())
    return parser["Desktop Entry"]


def test_the_app_installs_its_menu_entry_and_icon_without_opening_a_window(user_dirs, capsys):
    assert app.main(["desktop-app", "--install-launcher"]) == 0
    entry_file = user_dirs / "applications" / "desktop-app.desktop"
    entry = read_entry(entry_file)
    assert entry["Type"] == "Application" and entry["Name"] == "Desktop App"
    assert entry["Icon"] == "desktop-app"
    assert entry["Exec"].endswith(" %F")  # files opened with the app are passed to it
    assert "application/pdf" in entry["MimeType"]
    png = user_dirs / "icons" / "hicolor" / "256x256" / "apps" / "desktop-app.png"
    svg = user_dirs / "icons" / "hicolor" / "scalable" / "apps" / "desktop-app.svg"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and b"<svg" in svg.read_bytes()
    assert str(entry_file) in capsys.readouterr().out
    if shutil.which("desktop-file-validate"):  # desktop-file-utils (make system-deps installs it)
        check = subprocess.run(["desktop-file-validate", str(entry_file)], capture_output=True, text=True)
        assert check.returncode == 0 and not check.stdout.strip(), check.stdout


def test_the_menu_entry_starts_this_installation_of_the_app(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    files = launcher.install_launcher()
    assert files.desktop_entry == tmp_path / "data" / "applications" / "desktop-app.desktop"
    command = launcher.launch_command()
    exec_value = read_entry(files.desktop_entry)["Exec"]
    if command[0] == sys.executable:  # no desktop-app script beside this Python: it runs the module
        assert command[1:] == ["-m", "desktop_app.ui.app"]
    assert exec_value.startswith(launcher.exec_line(command[:1]).removesuffix(" %F"))
    # What the menu runs exists and can be executed.
    program = Path(command[0])
    assert program.is_file() and program.stat().st_mode & 0o111


def test_paths_with_spaces_and_quotes_are_quoted_as_the_desktop_entry_spec_asks():
    line = launcher.exec_line(["/opt/My Apps/desktop-app", "--flag", 'say "hi" $HOME', "100%"])
    assert line == '"/opt/My Apps/desktop-app" --flag "say \\"hi\\" \\$HOME" 100%% %F'


def test_uninstall_removes_what_install_wrote_and_leaves_the_rest(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    other = tmp_path / "data" / "applications" / "other.desktop"
    other.parent.mkdir(parents=True)
    other.write_text("[Desktop Entry]\n")
    files = launcher.install_launcher()
    assert app.main(["desktop-app", "--uninstall-launcher"]) == 0
    assert not files.desktop_entry.exists() and not any(p.exists() for p in files.icons)
    assert other.exists()


def test_qt_options_and_documents_on_the_command_line_are_told_apart(tmp_path):
    pdf = tmp_path / "manual.pdf"
    pdf.write_bytes(b"%PDF-1.4")
    options, qt_args = app.parse_arguments(["desktop-app", "-platform", "offscreen", str(pdf)])
    assert options.files == [str(pdf)]
    assert qt_args == ["-platform", "offscreen"]
    assert not options.install_launcher
