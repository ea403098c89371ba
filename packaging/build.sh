#!/bin/sh
# Builds dist/desktop-app/ (a one-folder app, no PyTorch); run from anywhere. `make package` runs it, and
# `make package-check` runs it and then packaging/check_bundle.py (start, import a PDF, ask, quit; size, start-up).
# PYTHON: a Python with the app's `models` and `package` extras installed (default: .venv/bin/python).
set -eu
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
"$PY" -m PyInstaller --noconfirm --distpath dist --workpath build/pyinstaller packaging/desktop-app.spec
# Smoke test: the built app opens its window offscreen and quits by itself.
DESKTOP_APP_HOME="$(mktemp -d)" QT_QPA_PLATFORM=offscreen DESKTOP_APP_SMOKE_TEST=window dist/desktop-app/desktop-app
echo "built dist/desktop-app/desktop-app ($(du -sh dist/desktop-app | cut -f1)); add it to your application menu with:"
echo "  dist/desktop-app/desktop-app --install-launcher"
