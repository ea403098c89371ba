"""The import boundaries in pyproject.toml ([tool.importlinter]) hold: the core never imports Qt, storage
never imports the models, and the core packages import only downwards (library > pipeline > sql >
answers | retrieval > ingest > models > storage)."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import REPO

LINT = "import sys; from importlinter.cli import lint_imports; sys.exit(lint_imports(config_filename='pyproject.toml', no_cache=True, no_logo=True))"


def test_the_import_contracts_are_kept():
    # In a child process from the repository root: import-linter analyses the desktop_app found first on
    # sys.path, which is this checkout's, and its output names every import that breaks a contract.
    run = subprocess.run([sys.executable, "-c", LINT], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "0 broken" in run.stdout


def test_the_answer_stage_stays_small():
    # Issue 30: one grounding check instead of a chain of word rules; the stage that checks answers stays readable.
    lines = sum(len(path.read_text(encoding="utf-8").splitlines()) for path in (REPO / "desktop_app" / "core" / "answers").glob("*.py"))
    assert lines < 700, f"core/answers has {lines} lines"
