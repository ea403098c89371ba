"""A fact that is only in a table cell, asked on the CLI with the real default models: the table is the cited source."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.table_pdfs import write_table_datasheet

pytestmark = pytest.mark.integration


def cli(*args, timeout=600):
    return subprocess.run([sys.executable, "-m", "desktop_app.cli", *args], capture_output=True, text=True, timeout=timeout)


def test_a_spec_table_cell_is_answered_and_cited_as_the_table(tmp_path):
    pdf = write_table_datasheet(tmp_path / "hx.pdf")
    done = cli("ingest", str(pdf))
    assert done.returncode == 0, done.stderr

    # The fused list names the table chunk (search only: no answer generated).
    searched = cli("search", "What is the maximum pressure of model HX-B?", "--mode", "rag")
    assert searched.returncode == 0, searched.stderr
    assert "hx.pdf table p.1" in searched.stdout

    out = cli("ask", "What is the maximum pressure of model HX-B?", "--mode", "rag", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert "11" in data["answer"], data["answer"]
    cited = [(c["kind"], c["page"]) for c in data["citations"]]
    assert ("table", 1) in cited, (data["answer"], cited, data["notices"])
    assert next(f for f in data["fused"] if f["kind"] == "table")["page"] == 1
