"""A model file's identity for what is derived from it (the prompt-prefix cache): its sha256, computed once.

A bundled model was hashed when it was assembled (model_files keeps that sha256 beside it). Any other GGUF
(the user's own, or a bundled one with no published checksum) is hashed in full the first time, about
1.7 s per GB here, and remembered in a small JSON file keyed by its path and `os.stat` facts. We hash it all
rather than sample it: a fine-tune merged from a LoRA changes only some tensors, and a sampled hash could
miss them and hand one model another's cache. Size, mtime, ctime, inode and device must all still match for
the remembered sum to be trusted; a copied, replaced or touched file is hashed again (ctime cannot be set
back by a user, so an edit in place that restores the mtime is caught too).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from .atomic_file import write_atomically
from .model_files import verified_sha256


def _stat_facts(path: Path) -> dict[str, int]:
    stat = path.stat()
    return {"size": stat.st_size, "mtime_ns": stat.st_mtime_ns, "ctime_ns": stat.st_ctime_ns, "inode": stat.st_ino, "device": stat.st_dev}


def _read_memo(memo: Path) -> dict[str, dict]:
    try:
        data = json.loads(memo.read_text())
    except (OSError, ValueError):
        return {}  # missing or damaged: sums are hashed again, nothing is lost
    return data if isinstance(data, dict) else {}


def model_checksum(path: Path, memo: Path) -> str:
    """The sha256 of the model file at `path`; `memo` remembers the sums of files hashed here before."""
    path = Path(path).resolve()
    known = verified_sha256(path)
    if known:
        return known
    facts = _stat_facts(path)
    seen = _read_memo(memo).get(str(path))
    if isinstance(seen, dict) and seen.get("sha256") and {k: seen.get(k) for k in facts} == facts:
        return seen["sha256"]
    with open(path, "rb") as f:
        digest = hashlib.file_digest(f, "sha256").hexdigest()
    if _stat_facts(path) != facts:
        return digest  # the file changed while we read it: use the sum, but do not vouch for it later
    memos = _read_memo(memo)  # read again: another process may have added its own since
    memos[str(path)] = {**facts, "sha256": digest}
    try:
        memo.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(memo, json.dumps(memos, indent=1).encode())
    except OSError:
        pass  # a read-only data folder: hash again next time
    return digest


def forget_missing(memo: Path) -> None:
    """Drops remembered sums of files that no longer exist (called when the cache is pruned)."""
    memos = _read_memo(memo)
    kept = {name: facts for name, facts in memos.items() if os.path.exists(name)}
    if kept != memos:
        try:
            write_atomically(memo, json.dumps(kept, indent=1).encode())
        except OSError:
            pass
