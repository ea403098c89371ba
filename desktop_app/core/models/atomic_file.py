"""Writing a file so that readers in any process see the old file or the new one, never half of one."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

TEMP_SUFFIX = ".partial"


def write_atomically(path: Path, data: bytes) -> None:
    """Temp file in the same folder, fsync, then os.replace: the rename is the commit point.

    Each writer has its own temp file, so two processes saving the same file at once both succeed and
    the last rename wins. Raises OSError (full disk, read-only folder) and leaves the old file in place.
    """
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=TEMP_SUFFIX)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    _fsync_folder(path.parent)


def _fsync_folder(folder: Path) -> None:
    # Makes the rename itself durable; not possible on every platform, and the rename is atomic anyway.
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
