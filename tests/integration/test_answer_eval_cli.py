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
    # Plain RAG and a short answer cap keep it to one model call of a few seconds (the fusion path is covered with
    # fakes in tests/unit/test_answer_eval.py); a mode variant is how any setting is changed for an eval.
    mode = "rag+max_answer_tokens=80"
    done = subprocess.run(
        [sys.executable, "-m", "desktop_app.cli", "eval", str(folder), "--answers", "--modes", mode, "--home", str(tmp_path / "home"), "--json", str(out_json)],
        capture_output=True, text=True, timeout=1800, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "citeR" in done.stdout and "citeP" in done.stdout and "notfnd" in done.stdout
    data = json.loads(out_json.read_text())
    assert [s["mode"] for s in data["summaries"]] == [mode]
    row = data["questions"][0]["modes"][mode]
    assert row["answer"].strip() and row["total_s"] > 0
    assert {"citations", "cited_records", "cited_recall", "citation_precision", "accuracy", "supported_share", "not_found"} <= row.keys()
    assert row["accuracy"] is not None  # the question carries a gold answer
    # The one relevant article states the answer outright: the answer cites it, and only it.
    assert row["cited_records"] == ["oslo"] and row["citation_precision"] == 1.0, row
    assert all(c["record"] == "oslo" and c["file"] == "oslo.txt" for c in row["citations"])
    # Every answer was checkpointed: an interrupted run resumes from these rows.
    assert len((tmp_path / "answers.json.rows.jsonl").read_text().splitlines()) == 1
