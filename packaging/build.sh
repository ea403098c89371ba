#!/bin/sh
# Builds dist/desktop-app/ (a one-folder app) and checks that it starts; run from the repository root.
set -eu
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
"$PY" -m PyInstaller --noconfirm --distpath dist --workpath build/pyinstaller packaging/desktop-app.spec
cp packaging/desktop-app.desktop dist/desktop-app/
cp resources/desktop-app.png dist/desktop-app/desktop-app.png
# Smoke test: the built app opens its window offscreen and quits by itself.
DESKTOP_APP_HOME="$(mktemp -d)" QT_QPA_PLATFORM=offscreen DESKTOP_APP_SMOKE_TEST=1 dist/desktop-app/desktop-app
echo "built dist/desktop-app/desktop-app; install the launcher with:"
echo "  cp packaging/desktop-app.desktop ~/.local/share/applications/ && cp resources/desktop-app.png ~/.local/share/icons/desktop-app.png"
