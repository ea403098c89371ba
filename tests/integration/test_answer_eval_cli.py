"""`desktop-app-cli eval DIR --answers` as a user runs it: a separate process, the real default models."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytestmark = pytest.mark.integration

RECORDS = [
    {"_id": "oslo", "title": "Oslo", "text": "Oslo is the capital and most populous city of Norway. It lies at the head of the Oslofjord."},
    {"_id": "bergen", "title": "Bergen", "text": "Bergen is a city on the west coast of Norway, known as one of the rainiest cities in Europe."},
    {"_id": "lund", "title": "Lund", "text": "Lund is a university town in the province of Scania in southern Sweden."},
]


def test_eval_answers_scores_each_mode_and_keeps_every_answer(tmp_path):
    folder = tmp_path / "set"
    folder.mkdir()
    (folder / "corpus.jsonl").write_text("".join(json.dumps(r) + "\n" for r in RECORDS))
    (folder / "queries.jsonl").write_text(json.dumps({"_id": "q1", "text": "What is the capital of Norway?", "answers": ["Oslo"]}) + "\n")
    (folder / "qrels.tsv").write_text("query-id\tcorpus-id\tscore\nq1\toslo\t1\n")
    out_json = tmp_path / "answers.json"
    done = subprocess.run(
        [sys.executable, "-m", "desktop_app.cli", "eval", str(folder), "--answers", "--modes", "rag,fusion", "--home", str(tmp_path / "home"), "--json", str(out_json)],
        capture_output=True, text=True, timeout=1200, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "citeR" in done.stdout and "citeP" in done.stdout and "notfnd" in done.stdout
    data = json.loads(out_json.read_text())
    assert [s["mode"] for s in data["summaries"]] == ["rag", "fusion"]
    rows = data["questions"][0]["modes"]
    for mode in ("rag", "fusion"):
        row = rows[mode]
        assert row["answer"].strip() and row["total_s"] > 0
        assert {"citations", "cited_records", "cited_recall", "citation_precision", "accuracy", "supported_share", "not_found"} <= row.keys()
        assert row["accuracy"] is not None  # the question carries a gold answer
        for citation in row["citations"]:
            assert citation["record"] in {"oslo", "bergen", "lund"}
    # The one relevant article states the answer outright: at least one mode answers and cites it.
    assert any(rows[m]["cited_records"] == ["oslo"] and rows[m]["citation_precision"] == 1.0 for m in rows), rows
    # Every answer was checkpointed, one row per (question, mode): an interrupted run resumes from them.
    assert len((tmp_path / "answers.json.rows.jsonl").read_text().splitlines()) == 2
