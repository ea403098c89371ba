"""A throwaway PostgreSQL cluster with pgvector: initdb and pg_ctl in a temporary folder, on a Unix socket only.

Used by the PostgreSQL library tests (tests/integration/test_postgres_library.py) and bench/vector_scale.py.
Debian's `postgresql` and `postgresql-NN-pgvector` provide the programs and the extension (`make test` installs
them when it can). PostgreSQL refuses to run as root: as root the cluster runs as the `postgres` system user.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from pathlib import Path


def find_bin_dir() -> Path | None:
    """The newest PostgreSQL server programs that have pgvector beside them."""
    candidates = []
    pg_config = shutil.which("pg_config")
    if pg_config:
        out = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True)
        if out.returncode == 0:
            candidates.append(Path(out.stdout.strip()))
    candidates += [Path(p) for p in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(Path(p).parent.name) if Path(p).parent.name.isdigit() else 0, reverse=True)]
    for bin_dir in candidates:
        version = bin_dir.parent.name
        has_vector = any(Path(p).is_file() for p in (f"/usr/share/postgresql/{version}/extension/vector.control",))
        if (bin_dir / "initdb").is_file() and (bin_dir / "pg_ctl").is_file() and has_vector:
            return bin_dir
    return None


def missing_reason() -> str | None:
    """Why a cluster cannot start here (a sentence for pytest.skip), or None."""
    try:
        import pgvector.psycopg  # noqa: F401
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg and pgvector's Python package are not installed (pip install -e '.[dev]')"
    if find_bin_dir() is None:
        return "PostgreSQL with pgvector is not installed (Debian: apt install postgresql postgresql-15-pgvector; `make test` tries)"
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        return "running as root without runuser, and PostgreSQL refuses to run as root"
    return None


class ThrowawayCluster:
    """`with ThrowawayCluster() as cluster: cluster.create_database("x")` gives a postgresql:// address per database."""

    user = "app"

    def __init__(self, settings: dict[str, str] | None = None):
        self.bin_dir = find_bin_dir()
        self.folder = Path(tempfile.mkdtemp(prefix="pg-throwaway-"))
        self.data = self.folder / "data"
        self.settings = {"listen_addresses": "''", "unix_socket_directories": f"'{self.folder}'", "fsync": "off", **(settings or {})}

    def _run(self, *command: str) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        result = subprocess.run([*prefix, *command], capture_output=True, text=True)
        if result.returncode != 0:
            raise RuntimeError(f"{command[0]} failed: {result.stdout[-2000:]}{result.stderr[-2000:]}")

    def start(self) -> ThrowawayCluster:
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres")
        self._run(str(self.bin_dir / "initdb"), "-D", str(self.data), "-A", "trust", "-U", self.user, "-E", "UTF8", "--no-sync")
        with open(self.data / "postgresql.conf", "a") as conf:
            conf.writelines(f"{k} = {v}\n" for k, v in self.settings.items())
        self._run(str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "-l", str(self.folder / "server.log"), "-w", "start")
        return self

    def stop(self) -> None:
        try:
            self._run(str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql:///{database}?host={self.folder}&user={self.user}"

    def create_database(self, name: str) -> str:
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def __enter__(self) -> ThrowawayCluster:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
