"""Kill the import process at random moments and restart it: nothing is lost, half-written or duplicated."""

from __future__ import annotations

import hashlib
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from desktop_app.core.events import AnswerDone
from desktop_app.core.library import Library
from desktop_app.core.storage.vector_index import IndexState, VectorIndex
from desktop_app.sample_datasheet import write_sample_datasheet
from tests.fakes import HashingEmbedder, ScriptedGenerator
from tests.reliability.conftest import REPO, assert_index_matches_sqlite, subprocess_env

KILLS = 12
FILES = 16
TOPICS = ["pump seals", "bearing grease", "valve torque", "motor current", "filter mesh", "coolant flow", "belt tension", "shaft alignment"]
QUESTIONS = ["How often are the pump seals replaced?", "bearing grease interval", "valve torque for the flange bolts", "coolant flow rate", "belt tension check"]


def note_text(n: int, version: str) -> str:
    topic = TOPICS[n % len(TOPICS)]
    paragraphs = [
        f"Maintenance note {n}, {version}, paragraph {p}: the {topic} must be checked every {n + p + 2} weeks "
        f"by the shift technician, who records the reading of gauge {p} and signs the log for unit {n}."
        for p in range(12)
    ]
    return "\n\n".join(paragraphs) + "\n"


def start_worker(home: Path, folder: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.reliability.import_worker", str(home), str(folder)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=subprocess_env(home), cwd=REPO,
    )


def run_to_completion(home: Path, folder: Path) -> list[str]:
    proc = start_worker(home, folder)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    lines = out.splitlines()
    assert lines[-1] == "finished"
    return lines


def check_database(home: Path, versions: dict[str, str]) -> None:
    """Integrity, and every document whole: all its pages and chunks, of one version of the file."""
    if not (home / "library.sqlite").exists():
        return  # killed before the library was created
    conn = sqlite3.connect(f"file:{home / 'library.sqlite'}?mode=rw", uri=True)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version == 0:
            # Killed inside the first migration: it rolled back whole, no half schema.
            assert conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0
            return
        for doc_id, path, content_hash, pages, chunks, status in conn.execute("SELECT id, path, content_hash, pages, chunks, status FROM documents"):
            # Killed while embedding: stored whole and searchable, vectors to follow on the next run.
            assert status in ("ready", "embedding")
            unembedded = conn.execute("SELECT count(*) FROM chunks WHERE document_id = ? AND embedding IS NULL", (doc_id,)).fetchone()[0]
            assert (unembedded == 0) == (status == "ready")
            assert conn.execute("SELECT count(*) FROM pages WHERE document_id = ?", (doc_id,)).fetchone()[0] == pages
            assert conn.execute("SELECT count(*) FROM chunks WHERE document_id = ?", (doc_id,)).fetchone()[0] == chunks > 0
            if path.endswith(".txt"):
                text = conn.execute("SELECT text FROM pages WHERE document_id = ?", (doc_id,)).fetchone()[0]
                assert versions[content_hash] == text, f"{path}: the stored text is not the version its hash names"
        assert conn.execute("SELECT count(*) FROM chunks WHERE document_id NOT IN (SELECT id FROM documents)").fetchone()[0] == 0
    finally:
        conn.close()


def check_index_on_disk(home: Path) -> None:
    """The saved index is never half-written: it loads, or it was never saved yet."""
    embedder = HashingEmbedder()
    index = VectorIndex(home / "chunks.hnsw", IndexState(embedder.name, embedder.dimension))
    reason = index.load()
    if (home / "chunks.json").exists():
        assert reason is None, f"the index on disk is unusable after a kill: {reason}"
    else:
        assert reason == "missing"


def search_view(library: Library, generator: ScriptedGenerator) -> list:
    out = []
    for question in QUESTIONS:
        generator.enqueue("See [1].")
        events = list(library.ask(question, "rag"))
        result = next(e for e in events if isinstance(e, AnswerDone)).result
        out.append([(Path(s.passage.file).name, s.passage.page, s.passage.start, s.passage.end, round(s.similarity, 5)) for s in result.sources])
        out.append(result.answer)
    return out


def open_and_view(home: Path):
    generator = ScriptedGenerator()
    library = Library(home, embedder=HashingEmbedder(), generator=generator)
    try:
        assert not library.notices, library.notices
        assert_index_matches_sqlite(library)
        docs = sorted((Path(d.path).name, d.title, d.pages, d.chunks) for d in library.documents())
        return docs, search_view(library, generator), [m[-1]["content"] for m in generator.prompts]
    finally:
        library.close()


@pytest.mark.slow
def test_sigkill_at_random_points_then_restart(tmp_path):
    rng = random.Random(20261122)
    folder = tmp_path / "docs"
    folder.mkdir()
    versions: dict[str, str] = {}

    def write(n: int, version: str) -> None:
        text = note_text(n, version)
        (folder / f"note{n:02}.txt").write_text(text)
        versions[hashlib.sha256(text.encode()).hexdigest()] = text

    for n in range(FILES):
        write(n, "v0")
    write_sample_datasheet(folder / "px40.pdf")

    # Calibrate: how long opening the library takes here, so some kills land in start-up (migrations, index repair).
    calibration = tmp_path / "calibration-home"
    started = time.monotonic()
    proc = start_worker(calibration, folder)
    assert proc.stdout.readline().strip() == "opened"
    startup = time.monotonic() - started
    proc.communicate(timeout=300)

    home = tmp_path / "home"
    kills = 0
    attempts = 0
    log = [f"start-up: {startup:.2f} s"]
    while kills < KILLS:
        attempts += 1
        assert attempts < 60, "the worker kept finishing before the kill"
        # Changed files are re-imported, so every run has work to interrupt, including replacements.
        changed = rng.sample(range(FILES), 5)
        for n in changed:
            write(n, f"v{attempts}")
        proc = start_worker(home, folder)
        started_run = time.monotonic()
        imported = 0
        if rng.random() < 0.25:
            moment = "start-up"
            time.sleep(rng.uniform(0.0, startup))
        else:
            # After a random number of files, plus a random few milliseconds: inside extraction, the
            # SQLite transaction or the index save of the next file.
            moment = "import"
            target = rng.randint(0, len(changed) - 1)
            line = proc.stdout.readline()
            while line and imported < target:
                imported += line.startswith("ready")
                line = proc.stdout.readline()
            time.sleep(rng.uniform(0.0, 0.08))
        elapsed = time.monotonic() - started_run
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            kills += 1
        rest, _ = proc.communicate(timeout=60)
        imported += sum(line.startswith("ready") for line in rest.splitlines())
        state = "killed" if proc.returncode == -signal.SIGKILL else "finished"
        log.append(f"run {attempts}: {state} during {moment} after {elapsed:.2f} s; files imported in this run before the end: {imported} of 5")
        check_database(home, versions)
        check_index_on_disk(home)

    (REPO / ".cache" / "reliability").mkdir(parents=True, exist_ok=True)
    (REPO / ".cache" / "reliability" / "crash-loop.txt").write_text("\n".join(log) + "\n")
    # The next start repairs the index from SQLite and finishes the job: every file ready, none failed.
    for n in range(FILES):
        write(n, "final")
    lines = run_to_completion(home, folder)
    assert not [line for line in lines if line.startswith("failed")], lines
    check_database(home, versions)
    check_index_on_disk(home)

    clean = tmp_path / "clean-home"
    run_to_completion(clean, folder)
    after_crashes = open_and_view(home)
    clean_import = open_and_view(clean)
    assert len(after_crashes[0]) == FILES + 1
    # Same documents, same ranked passages and scores, and so the same prompt for the model: the same answers.
    assert after_crashes == clean_import
