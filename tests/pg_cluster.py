"""A real PostgreSQL server for the tests, started from the system's binaries.

``Cluster`` makes a throwaway cluster (``initdb``) in a temporary folder and runs it on
a free loopback port, tuned for tests (no fsync: a test never survives a power cut),
with one superuser, ``lupus``, trusted on loopback. Debian's ``postgresql`` package
(which ``.ci/run`` installs) keeps its binaries in ``/usr/lib/postgresql/<version>/bin``,
off ``PATH``; ``binaries()`` finds them there or on ``PATH``. PostgreSQL refuses to run
as root: as root, the cluster is made and run as the ``postgres`` user the package
creates (``runuser``). pytest-postgresql and testing.postgresql do neither, hence this
module.
"""

from __future__ import annotations

import glob
import hashlib
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import psycopg
from tests.server_harness import free_port


def binaries() -> Path | None:
    """The folder of ``pg_ctl`` and ``initdb`` (the newest installed version), or None."""
    found = shutil.which("pg_ctl")
    if found and shutil.which("initdb"):
        return Path(os.path.realpath(found)).parent
    versions = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
        key=lambda path: int(Path(path).parent.parent.name.split(".")[0]),
    )
    return Path(versions[-1]).parent if versions else None


SKIP_REASON = (
    "no PostgreSQL binaries (pg_ctl, initdb): install Debian's postgresql package "
    "(.ci/run does) to run the PostgreSQL store's tests"
)


class Cluster:
    """One PostgreSQL server of the tests' own (see the module docstring)."""

    def __init__(self, bin_dir: Path, durable: bool = False) -> None:
        self.bin = bin_dir
        self.durable = durable  # (PostgreSQL's defaults: every commit waits for its fsync)
        self.root = Path(tempfile.mkdtemp(prefix="lupus-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self.user = "postgres" if os.geteuid() == 0 else None
        self.made: set[str] = set()

    def run(self, *command: str) -> None:
        prefix = ["runuser", "-u", self.user, "--"] if self.user else []
        subprocess.run(
            [*prefix, *command], check=True, capture_output=True, timeout=120, cwd=self.root
        )

    def start(self) -> Cluster:
        if self.user:
            shutil.chown(self.root, self.user)
        self.run(
            str(self.bin / "initdb"), "-D", str(self.data), "-U", "lupus", "--auth=trust",
            "--encoding=UTF8", "--locale=C", "--no-sync",
        )  # fmt: skip
        settings = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 "
        settings += "-c max_connections=300 "
        if not self.durable:
            settings += "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
            settings += "-c shared_buffers=32MB"
        log = str(self.root / "server.log")
        self.run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", log, "-o", settings, "-w",
                 "start")  # fmt: skip
        return self

    def url(self, name: str = "postgres") -> str:
        return f"postgresql://lupus@127.0.0.1:{self.port}/{name}"

    def database(self, key: str) -> str:
        """The address of a database of its own for ``key`` (a test's file path, say):
        made the first time, the same one after (a server restarted on it finds its
        rooms again)."""
        name = "t" + hashlib.sha1(key.encode()).hexdigest()[:20]
        if name not in self.made:
            with psycopg.connect(self.url(), autocommit=True) as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
                admin.execute(f'CREATE DATABASE "{name}"')
            self.made.add(name)
        return self.url(name)

    def stop(self) -> None:
        try:
            self.run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")
        finally:
            time.sleep(0.1)
            shutil.rmtree(self.root, ignore_errors=True)
