"""Asking during an import, removing during an answer, and two libraries (or processes) on one data folder."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

from desktop_app.core.events import AnswerDone, Token
from desktop_app.core.library import Library
from tests.document_files import write_text_files
from tests.fakes import HashingEmbedder, ScriptedGenerator
from tests.reliability.conftest import REPO, assert_index_matches_sqlite, subprocess_env, terminal_events


class SlowEmbedder(HashingEmbedder):
    """Import takes a while, so questions land in the middle of it."""

    def embed(self, texts):
        time.sleep(0.05)
        return super().embed(texts)


def write_notes(folder: Path, count: int, word: str) -> list[Path]:
    texts = [f"The {word} procedure, step {n}: close the {word} valve and log the {word} pressure reading." for n in range(count)]
    return write_text_files(folder, word, texts)


def result_of(events) -> object:
    return next(e for e in events if isinstance(e, AnswerDone)).result


def test_asking_while_an_import_runs_uses_what_is_committed(data_home, tmp_path):
    library = Library(data_home, embedder=SlowEmbedder(), generator=ScriptedGenerator())
    files = write_notes(tmp_path / "docs", 20, "coolant")
    errors: list[BaseException] = []

    def run_import():
        try:
            list(library.import_paths(files))
        except BaseException as exc:  # noqa: BLE001 - reported to the test thread
            errors.append(exc)

    worker = threading.Thread(target=run_import)
    worker.start()
    answers_during = []
    while worker.is_alive():
        library.generator().enqueue("Close the valve [1].")
        # Every note matches and a list holds 20 passages: the ask must find every document that was
        # whole (all its chunks embedded) before it started, and nothing that was not committed by its end.
        ready_before = {d.path for d in library.documents() if d.status == "ready"}
        result = result_of(library.ask("coolant valve pressure", "rag"))
        committed_after = {d.path for d in library.documents()}
        found = {s.passage.file for s in result.sources}
        assert ready_before <= found, sorted(ready_before - found)
        assert found <= committed_after
        answers_during.append(len(found))
        time.sleep(0.05)
    worker.join()
    assert not errors, errors
    assert any(0 < n for n in answers_during), "no question ran while the import was half done"
    assert len(library.documents()) == 20
    assert_index_matches_sqlite(library)
    library.close()


class RemovingGenerator(ScriptedGenerator):
    """Removes the cited document from another thread while the answer streams."""

    def __init__(self, remove):
        super().__init__()
        self.remove = remove

    def stream(self, messages, max_tokens, temperature=0.0, stop=()):
        first = True
        for piece in super().stream(messages, max_tokens, temperature, stop):
            if first:
                thread = threading.Thread(target=self.remove)
                thread.start()
                thread.join()
                first = False
            yield piece


def test_removing_a_document_during_an_answer(data_home, datasheet, tmp_path):
    holder = {}
    generator = RemovingGenerator(lambda: holder["library"].remove_document(holder["doc"]))
    library = Library(data_home, embedder=HashingEmbedder(), generator=generator)
    holder["library"] = library
    list(library.import_paths([datasheet]))
    holder["doc"] = library.documents()[0].id
    generator.enqueue("The maximum temperature is 85 degrees Celsius [1].")
    events = list(library.ask("maximum operating temperature", "rag"))
    result = result_of(events)
    assert "85" in "".join(e.text for e in events if isinstance(e, Token))
    assert result.citations  # the answer keeps the text it was given
    assert library.documents() == []
    # Removal between the vector search and reading the passages: the missing passages are left out.
    list(library.import_paths([datasheet]))
    doc = library.documents()[0].id
    original = library.store.passages

    def remove_then_read(ids):
        library.remove_document(doc)
        return original(ids)

    library.store.passages = remove_then_read
    generator.enqueue("Nothing.")
    result = result_of(library.ask("maximum operating temperature", "rag"))
    assert result.sources == () or list(result.sources) == []
    library.store.passages = original
    assert library.index.ids() == set() and library.store.chunk_count() == 0
    library.close()


def test_two_libraries_on_one_data_folder(data_home, tmp_path):
    first = Library(data_home, embedder=HashingEmbedder(), generator=ScriptedGenerator())
    second = Library(data_home, embedder=HashingEmbedder(), generator=ScriptedGenerator())
    [pumps] = write_notes(tmp_path / "a", 1, "pump")
    list(first.import_paths([pumps]))
    # The second window sees the first one's import at its next question, without reopening.
    second.generator().enqueue("Close it [1].")
    result = result_of(second.ask("pump valve pressure", "rag"))
    assert [Path(s.passage.file).name for s in result.sources] == ["pump00.txt"]
    second.remove_document(second.documents()[0].id)
    first.generator().enqueue("Nothing.")
    assert result_of(first.ask("pump valve pressure", "rag")).sources == ()
    # Both import at the same time, each in its own thread: SQLite serialises the writes.
    a = write_notes(tmp_path / "b", 10, "filter")
    b = write_notes(tmp_path / "c", 10, "belt")
    outcomes = {}
    threads = [
        threading.Thread(target=lambda: outcomes.setdefault("first", terminal_events(first.import_paths(a)))),
        threading.Thread(target=lambda: outcomes.setdefault("second", terminal_events(second.import_paths(b)))),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(e.stage == "ready" for finals in outcomes.values() for e in finals.values())
    first.refresh_index()
    second.refresh_index()
    assert_index_matches_sqlite(first)
    assert_index_matches_sqlite(second)
    first.close()
    second.close()
    third = Library(data_home, embedder=HashingEmbedder(), generator=ScriptedGenerator())
    assert not third.notices and len(third.documents()) == 20
    assert third.store.integrity_problems() == []
    assert_index_matches_sqlite(third)
    third.close()


def test_two_processes_importing_into_one_data_folder(data_home, tmp_path):
    folders = []
    for word in ("gasket", "impeller"):
        write_notes(tmp_path / word, 25, word)
        folders.append(tmp_path / word)
    procs = [
        subprocess.Popen([sys.executable, "-m", "tests.reliability.import_worker", str(data_home), str(folder)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=subprocess_env(data_home), cwd=REPO)
        for folder in folders
    ]
    outputs = [p.communicate(timeout=300) for p in procs]
    for proc, (out, err) in zip(procs, outputs):
        assert proc.returncode == 0, err
        assert out.splitlines()[-1] == "finished"
        assert not [line for line in out.splitlines() if line.startswith("failed")], out
    conn = sqlite3.connect(data_home / "library.sqlite")
    assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    conn.close()
    library = Library(data_home, embedder=HashingEmbedder(), generator=ScriptedGenerator())
    assert not library.notices  # the index file is whole; a lagging one just catches up quietly
    assert len(library.documents()) == 50
    assert_index_matches_sqlite(library)
    library.close()
