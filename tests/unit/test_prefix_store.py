"""The prompt-prefix disk cache: a state comes back only for the same model file, settings and tokens, intact."""

from __future__ import annotations

import errno
import hashlib
import json
import os
import time

import pytest

from desktop_app.core.models import model_checksum as checksum_module
from desktop_app.core.models import prefix_store
from desktop_app.core.models.prefix_store import CacheLimits, PrefixStore

CONTEXT = {"n_ctx": 4096, "type_k": 1, "type_v": 1, "llama_cpp_python": "0.3.36"}
TOKENS = list(range(100, 300))
STATE = os.urandom(50_000)


@pytest.fixture
def model_file(tmp_path):
    path = tmp_path / "models" / "mine.gguf"
    path.parent.mkdir()
    path.write_bytes(b"GGUF" + os.urandom(10_000))
    return path


@pytest.fixture
def store(model_file, tmp_path):
    return PrefixStore(model_file, tmp_path / "prefix-cache")


def cache_files(store):
    return sorted(store.folder.glob("*.kv"))


def test_a_saved_state_loads_back_for_the_same_model_settings_and_tokens(store):
    assert store.load(CONTEXT, TOKENS).status == "missing"
    store.save(CONTEXT, TOKENS, STATE)

    found = store.load(CONTEXT, TOKENS)

    assert (found.status, found.state) == ("loaded", STATE)
    [file] = cache_files(store)
    assert file.name.startswith(hashlib.sha256(store.model_path.read_bytes()).hexdigest()[:16])
    assert not list(store.folder.glob("*.partial"))  # the temp file was renamed into place
    assert file.stat().st_mode & 0o077 == 0  # private, like the rest of the data folder


@pytest.mark.parametrize(
    "context, tokens",
    [
        ({**CONTEXT, "n_ctx": 2048}, TOKENS),
        ({**CONTEXT, "type_k": 8}, TOKENS),
        ({**CONTEXT, "llama_cpp_python": "0.3.37"}, TOKENS),
        (CONTEXT, TOKENS[:-1]),
        (CONTEXT, [*TOKENS[:-1], 7]),
    ],
    ids=["context size", "KV cache type", "llama-cpp-python version", "fewer tokens", "another last token"],
)
def test_any_other_setting_or_prefix_is_a_miss(store, context, tokens):
    store.save(CONTEXT, TOKENS, STATE)
    assert store.load(context, tokens).state is None


def test_another_model_file_with_the_same_name_and_size_is_a_miss(store, model_file, tmp_path):
    store.save(CONTEXT, TOKENS, STATE)
    twin = tmp_path / "elsewhere" / model_file.name
    twin.parent.mkdir()
    data = bytearray(model_file.read_bytes())
    data[-1] ^= 0xFF
    twin.write_bytes(bytes(data))

    other = PrefixStore(twin, store.folder)

    assert other.load(CONTEXT, TOKENS).status == "missing"
    assert store.load(CONTEXT, TOKENS).status == "loaded"


@pytest.mark.parametrize("damage", ["truncated", "payload byte flipped", "garbage", "empty", "header says other tokens"])
def test_a_damaged_file_is_a_miss_and_saving_replaces_it(store, damage):
    store.save(CONTEXT, TOKENS, STATE)
    [file] = cache_files(store)
    data = bytearray(file.read_bytes())
    if damage == "truncated":
        data = data[: len(data) // 2]
    elif damage == "payload byte flipped":
        data[-100] ^= 0x01
    elif damage == "garbage":
        data = bytearray(os.urandom(len(data)))
    elif damage == "empty":
        data = bytearray()
    else:  # a file that is whole but describes another prefix (renamed by hand, or a hash collision)
        store.save(CONTEXT, TOKENS[:-1], STATE)
        data = bytearray(store.path_for(store.key(CONTEXT, TOKENS[:-1])).read_bytes())
    file.write_bytes(bytes(data))

    assert store.load(CONTEXT, TOKENS).state is None
    store.save(CONTEXT, TOKENS, STATE)
    assert store.load(CONTEXT, TOKENS).state == STATE


def test_a_full_disk_keeps_the_old_file_and_raises_nothing(store, monkeypatch):
    store.save(CONTEXT, TOKENS, STATE)
    written = []

    def disk_full(path, data):
        written.append(path)
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(prefix_store, "write_atomically", disk_full)
    assert store.save(CONTEXT, TOKENS, b"new") is None
    assert written and store.load(CONTEXT, TOKENS).state == STATE


def test_pruning_keeps_the_most_recently_used_files_per_model_and_drops_old_ones(model_file, tmp_path):
    store = PrefixStore(model_file, tmp_path / "cache", CacheLimits(files_per_model=3, max_age_days=10))
    now = time.time()
    for n in range(5):
        store.save(CONTEXT, TOKENS[n:], STATE)
        path = store.path_for(store.key(CONTEXT, TOKENS[n:]))
        os.utime(path, (now - 100 + n, now - 100 + n))  # later n: used more recently
    assert store.load(CONTEXT, TOKENS[0:]).status == "missing"
    assert store.load(CONTEXT, TOKENS[1:]).status == "missing"
    assert store.load(CONTEXT, TOKENS[2:]).status == "loaded"  # loading marks it used ...
    store.save(CONTEXT, TOKENS[5:], STATE)  # ... so it survives the next save's pruning
    assert [store.load(CONTEXT, TOKENS[n:]).status for n in (2, 3, 4, 5)] == ["loaded", "missing", "loaded", "loaded"]

    stale = store.path_for(store.key(CONTEXT, TOKENS[4:]))
    os.utime(stale, (now - 11 * 86400, now - 11 * 86400))
    leftover = store.folder / "crashed.kv.123.partial"
    leftover.write_bytes(b"half")
    os.utime(leftover, (now - 7200, now - 7200))
    store.prune()
    assert not stale.exists() and not leftover.exists()


def test_pruning_holds_the_folder_under_its_size_limit(model_file, tmp_path):
    store = PrefixStore(model_file, tmp_path / "cache", CacheLimits(max_total_bytes=3 * len(STATE)))
    for n in range(6):
        store.save(CONTEXT, TOKENS[n:], STATE)
    assert sum(p.stat().st_size for p in cache_files(store)) <= 3 * len(STATE)
    assert store.load(CONTEXT, TOKENS[5:]).status == "loaded"  # the newest stays


def test_a_models_checksum_is_computed_once_and_again_when_the_file_changes(model_file, tmp_path, monkeypatch):
    hashed = []
    real_digest = checksum_module.hashlib.file_digest
    monkeypatch.setattr(checksum_module.hashlib, "file_digest", lambda f, name: hashed.append(f.name) or real_digest(f, name))
    memo = tmp_path / "checksums.json"

    first = checksum_module.model_checksum(model_file, memo)
    again = checksum_module.model_checksum(model_file, memo)  # a new process: the memo file, not the bytes
    assert first == again == hashlib.sha256(model_file.read_bytes()).hexdigest()
    assert len(hashed) == 1

    data = bytearray(model_file.read_bytes())
    data[5] ^= 0xFF
    stat = model_file.stat()
    time.sleep(0.05)  # file times tick with the kernel's clock (a few ms): let the edit get a later ctime
    model_file.write_bytes(bytes(data))
    os.utime(model_file, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # same size and mtime: an edit in place hidden
    assert checksum_module.model_checksum(model_file, memo) == hashlib.sha256(bytes(data)).hexdigest()
    assert len(hashed) == 2


def test_a_bundled_models_checksum_comes_from_its_assembly_check(model_file, tmp_path, monkeypatch):
    stat = model_file.stat()
    marker = model_file.with_name(model_file.name + ".verified")
    marker.write_text(json.dumps({"sha256": "ab" * 32, "size": stat.st_size, "mtime_ns": stat.st_mtime_ns}))
    monkeypatch.setattr(checksum_module.hashlib, "file_digest", lambda f, name: pytest.fail("a verified model is not hashed again"))

    assert checksum_module.model_checksum(model_file, tmp_path / "checksums.json") == "ab" * 32
