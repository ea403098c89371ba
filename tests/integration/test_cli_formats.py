"""The CLI with Word, HTML and EPUB files: a separate process, the real embedding model, real files."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.document_files import write_damaged_docx, write_docx, write_epub, write_html

pytestmark = pytest.mark.integration


def cli(*args, timeout=600):
    return subprocess.run([sys.executable, "-m", "desktop_app.cli", *args], capture_output=True, text=True, timeout=timeout)


def test_a_folder_of_word_html_and_epub_files_imports_and_is_found_by_section(tmp_path):
    folder = tmp_path / "docs"
    write_docx(folder / "report.docx")
    write_html(folder / "care.html")
    write_epub(folder / "book.epub")
    write_damaged_docx(folder / "broken.docx")
    done = cli("ingest", str(folder))
    assert done.returncode == 1, done.stderr  # one file failed, the others imported
    lines = done.stdout.splitlines()
    assert "ready    report.docx: 6 sections" in lines
    assert "ready    care.html: 3 sections" in lines
    assert any(line.startswith("ready    book.epub: ") and line.endswith(" pages") for line in lines)
    assert any(line.startswith("failed   broken.docx: broken.docx is damaged") for line in lines)

    out = cli("search", "How many months of warranty does the Orbit kettle have?", "--mode", "rag", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    word = [f for f in data["fused"] if f["file"].endswith("report.docx")]
    assert word and word[0]["section"] == "3.2 Warranty" and word[0]["place"] == "section 3.2 Warranty"
    shown = cli("search", "How many months of warranty does the Orbit kettle have?", "--mode", "rag")
    assert "report.docx § 3.2 Warranty" in shown.stdout
