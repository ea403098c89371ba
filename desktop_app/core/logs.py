"""Logs a user can send: a rotating file in the data folder (and stderr for the CLI with -v).

At the default level (INFO) the log holds what happened and how long it took: stage timings, fallbacks,
every error shown to the user; never the documents' text, the questions or the answers. Those are logged
at DEBUG only, which the user turns on with the environment variable DESKTOP_APP_DEBUG_LOG=1.
"""

from __future__ import annotations

import logging
import logging.handlers
import os
import sys
from pathlib import Path

LOGGER = "desktop_app"
DEBUG_ENV = "DESKTOP_APP_DEBUG_LOG"
LOG_FILE = "desktop-app.log"
MAX_BYTES = 1_000_000  # a log small enough to attach to an e-mail; three old ones are kept
BACKUPS = 3
_FORMAT = "%(asctime)s %(levelname)s %(name)s [%(threadName)s] %(message)s"


def log_folder(home: Path) -> Path:
    return Path(home) / "logs"


def debug_enabled() -> bool:
    return os.environ.get(DEBUG_ENV, "").strip().lower() in ("1", "true", "yes", "on")


def setup_logging(home: Path, stderr: bool = False) -> Path:
    """Log to `home`/logs/desktop-app.log (rotating); with `stderr`, to the terminal too. Returns the file's path.

    Calling it again (another library, a test) replaces the handlers it installed before.
    """
    folder = log_folder(home)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / LOG_FILE
    logger = logging.getLogger(LOGGER)
    for handler in [h for h in logger.handlers if getattr(h, "_desktop_app", False)]:
        logger.removeHandler(handler)
        handler.close()
    level = logging.DEBUG if debug_enabled() else logging.INFO
    handlers: list[logging.Handler] = [logging.handlers.RotatingFileHandler(path, maxBytes=MAX_BYTES, backupCount=BACKUPS, encoding="utf-8")]
    if stderr:
        handlers.append(logging.StreamHandler(sys.stderr))
    for handler in handlers:
        handler.setFormatter(logging.Formatter(_FORMAT))
        handler._desktop_app = True  # type: ignore[attr-defined]
        logger.addHandler(handler)
    logger.setLevel(level)
    logger.propagate = False
    logger.info("logging to %s at level %s", path, logging.getLevelName(level))
    return path
