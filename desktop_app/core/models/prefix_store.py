"""Prompt-prefix KV states on disk, so a new process (a CLI call, the window after a restart) does not re-read them.

One file per prompt prefix, named by a hash of everything that makes the state valid (`key`): the model
file's sha256, the exact prefix token ids, and the context facts the caller passes (context size, KV cache
types, batch sizes, llama-cpp-python version, ...). A file is used only when its recorded key and tokens
equal the ones asked for and its payload matches the sha256 in its header; anything else (another model,
other settings, a truncated or overwritten file) is a miss, the caller reads the prompt afresh and saves
again, which replaces the file atomically. Files are pruned by count per model, age since last use and
total size, so the folder stays a few tens of MB.

File layout: MAGIC, a 4-byte little-endian header length, the header (JSON: key, tokens, payload size and
sha256), then the payload (llama.cpp's sequence state).
"""

from __future__ import annotations

import hashlib
import json
import logging
import struct
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..storage import paths
from .atomic_file import TEMP_SUFFIX, write_atomically
from .model_checksum import forget_missing, model_checksum

log = logging.getLogger(__name__)

MAGIC = b"desktop-app prompt prefix\n"
FORMAT = 1  # bump when the layout or the meaning of a key field changes
SUFFIX = ".kv"
MAX_HEADER = 4 * 2**20  # a prefix of 100k tokens still fits; anything larger is not our file


@dataclass(frozen=True)
class CacheLimits:
    # A model uses about 8 prompt families (query styles, answer, SQL, follow-up rewrite, HyDE, judge, ...);
    # 12 leaves room for a settings change without evicting what is in use.
    files_per_model: int = 12
    max_age_days: float = 30.0  # since the file was last loaded or written
    max_total_bytes: int = 512 * 2**20  # the 1.5B model's query prefix is ~6 MB; a 7B model's ~25 MB


@dataclass(frozen=True)
class Lookup:
    state: bytes | None
    status: str  # "loaded", or why not: "missing", "stale" (another key), "damaged"


def tokens_digest(tokens: Sequence[int]) -> str:
    return hashlib.sha256(struct.pack(f"<{len(tokens)}i", *tokens)).hexdigest()


class PrefixStore:
    def __init__(self, model_path: Path, folder: Path | None = None, limits: CacheLimits = CacheLimits()):
        self.model_path = Path(model_path)
        self._folder = folder
        self.limits = limits
        self._model_sha256: str | None = None

    @property
    def folder(self) -> Path:
        # Resolved at each use, not at construction: the data folder may change under a long-lived model (tests).
        return self._folder or paths.data_home() / "prefix-cache"

    def model_sha256(self) -> str:
        if self._model_sha256 is None:
            self._model_sha256 = model_checksum(self.model_path, self.folder / "checksums.json")
        return self._model_sha256

    def key(self, context: dict, tokens: Sequence[int]) -> dict:
        return {"format": FORMAT, "model_sha256": self.model_sha256(), "prefix_tokens": len(tokens), "tokens_sha256": tokens_digest(tokens), **context}

    def path_for(self, key: dict) -> Path:
        digest = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()
        return self.folder / f"{key['model_sha256'][:16]}-{digest[:32]}{SUFFIX}"

    def load(self, context: dict, tokens: Sequence[int]) -> Lookup:
        try:
            key = self.key(context, tokens)  # may hash the model file, and create the data folder
            path = self.path_for(key)
            data = path.read_bytes()
        except FileNotFoundError:
            return Lookup(None, "missing")
        except OSError as exc:
            log.warning("prompt prefix cache unreadable: %s", exc)
            return Lookup(None, "damaged")
        header, payload = _parse(data)
        if header is None:
            log.warning("prompt prefix cache %s is damaged; reading the prompt afresh", path.name)
            return Lookup(None, "damaged")
        if header.get("key") != key or header.get("tokens") != list(tokens):
            return Lookup(None, "stale")
        try:
            path.touch()  # last use, for pruning
        except OSError:
            pass
        return Lookup(payload, "loaded")

    def save(self, context: dict, tokens: Sequence[int], state: bytes) -> Path | None:
        try:
            key = self.key(context, tokens)
            path = self.path_for(key)
            header = json.dumps({"key": key, "tokens": list(tokens), "state_bytes": len(state), "state_sha256": hashlib.sha256(state).hexdigest()}).encode()
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            write_atomically(path, MAGIC + struct.pack("<I", len(header)) + header + state)
        except OSError as exc:
            # Only a speed-up: a full disk or read-only folder means the next process reads the prompt again.
            log.warning("could not save the prompt prefix cache: %s", exc)
            return None
        self.prune()
        return path

    def prune(self) -> None:
        folder = self.folder
        now = time.time()
        files = []
        for path in folder.glob("*"):
            try:
                stat = path.stat()
            except OSError:
                continue
            if path.name.endswith(TEMP_SUFFIX) and now - stat.st_mtime > 3600:
                _remove(path)  # left by a writer that crashed
            elif path.suffix == SUFFIX:
                files.append((stat.st_mtime, stat.st_size, path))
        files.sort(reverse=True)  # most recently used first
        kept_per_model: dict[str, int] = {}
        total = 0
        for n, (mtime, size, path) in enumerate(files):
            model = path.name.split("-", 1)[0]
            kept_per_model[model] = kept_per_model.get(model, 0) + 1
            total += size
            too_old = now - mtime > self.limits.max_age_days * 86400
            too_many = kept_per_model[model] > self.limits.files_per_model
            too_big = n > 0 and total > self.limits.max_total_bytes  # the newest file always stays
            if too_old or too_many or too_big:
                _remove(path)
                total -= size
        forget_missing(folder / "checksums.json")


def _parse(data: bytes) -> tuple[dict | None, bytes]:
    """The header and payload of a cache file, or (None, b"") when it is not a whole, intact one."""
    start = len(MAGIC) + 4
    if len(data) < start or not data.startswith(MAGIC):
        return None, b""
    (header_size,) = struct.unpack("<I", data[len(MAGIC) : start])
    if header_size > MAX_HEADER or len(data) < start + header_size:
        return None, b""
    try:
        header = json.loads(data[start : start + header_size])
    except ValueError:
        return None, b""
    payload = data[start + header_size :]
    if not isinstance(header, dict) or header.get("state_bytes") != len(payload):
        return None, b""
    if header.get("state_sha256") != hashlib.sha256(payload).hexdigest():
        return None, b""
    return header, payload


def _remove(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass  # another process pruned it first, or the folder is read-only
