"""Quitting while the model loads and an import runs ends the process cleanly and loses nothing."""

from __future__ import annotations

import subprocess
import sys

from desktop_app.core.library import Library
from tests.document_files import write_text_files
from tests.fakes import HashingEmbedder, ScriptedGenerator
from tests.reliability.conftest import REPO, assert_index_matches_sqlite, subprocess_env


def test_quitting_mid_import_and_mid_model_load_exits_cleanly_and_the_library_reopens_whole(data_home, tmp_path):
    texts = ["\n\n".join(f"Shift {n}, entry {i}: the coolant pump {i} was checked and logged." for i in range(200)) for n in range(12)]
    files = [str(p) for p in write_text_files(tmp_path / "docs", "log", texts)]
    run = subprocess.run(
        [sys.executable, "-m", "tests.reliability.quit_worker", str(data_home), "20", *files],
        cwd=REPO, env=subprocess_env(data_home), capture_output=True, text=True, timeout=300, check=False,
    )
    assert "quitting" in run.stdout, run.stdout + run.stderr
    assert run.returncode == 0, f"exit {run.returncode}\n{run.stdout}\n{run.stderr[-3000:]}"
    assert "Destroyed while thread" not in run.stderr

    library = Library(data_home, embedder=HashingEmbedder(), generator=ScriptedGenerator())
    assert library.store.integrity_problems() == []
    docs_after = library.documents()
    # Every file's text is stored before any embedding (the batch's first phase), so mid-import means some
    # documents are stored but not yet (all) in the meaning index.
    assert 3 <= len(docs_after) <= 12 and any(d.status == "embedding" for d in docs_after), "the quit did not land mid-import"
    assert {d.status for d in docs_after} <= {"ready", "embedding"}  # 'embedding' ones resume at the next start
    assert not any("rebuilt" in n for n in library.notices), library.notices  # the index file was whole
    assert_index_matches_sqlite(library)
    list(library.import_paths(files))  # the rest imports, the interrupted ones resume
    assert len(library.documents()) == 12 and all(d.status == "ready" for d in library.documents())
    assert_index_matches_sqlite(library)
    library.close()
