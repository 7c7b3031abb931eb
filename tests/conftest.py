"""Fixtures shared by test modules, and the server suite's two stores.

Every ``tests/test_server_*.py`` module runs twice: once on SQLite, once on PostgreSQL
(``store_kind``), on a real PostgreSQL server the tests start from the system's binaries
(``pg_cluster``); where there are none, the PostgreSQL half is skipped and the header of
the run says why.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.pg_cluster import SKIP_REASON, Cluster, binaries
from tests.server_harness import Server

STORES = ("sqlite", "postgresql")
SERVER_SUITE = "test_server_"


WORKERS_PER_CORE = 2
MAX_WORKERS = 8


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (the suite's default): two workers a core, at most eight. Most of the
    slow tests wait (on Chromium drawing, a night's pacing, a server's timers) rather
    than compute: with a worker a core, two cores stayed idle for a third of the run;
    with two, the whole suite takes about 12 minutes instead of 17 here."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, min(MAX_WORKERS, WORKERS_PER_CORE * (cores or 1)))


def pytest_report_header(config: pytest.Config) -> str:
    found = binaries()
    if found is None:
        return f"PostgreSQL: skipped, {SKIP_REASON}"
    return f"PostgreSQL: the server suite runs on SQLite and on PostgreSQL ({found})"


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if metafunc.module.__name__.startswith(SERVER_SUITE):
        metafunc.parametrize("store_kind", STORES, indirect=True, scope="module")


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """The tests' PostgreSQL server (one per test worker), started when first needed."""
    found = binaries()
    if found is None:
        pytest.skip(SKIP_REASON)
    cluster = Cluster(found).start()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(scope="module", autouse=True)
def store_kind(request: Any) -> Iterator[str]:
    """Which store the servers of this module keep their games in (``sqlite`` outside
    the server suite)."""
    kind = getattr(request, "param", "sqlite")
    if kind == "postgresql":
        Server.database_of = request.getfixturevalue("pg_cluster").database
    try:
        yield kind
    finally:
        Server.database_of = str


@pytest.fixture
def server(store_kind: str, tmp_path: Path) -> Iterator[Server]:
    """A real ``lupus serve`` of the test's own, on a fresh database (a module that
    shares one server between its tests defines its own ``server``)."""
    running = Server(tmp_path / "lupus.db").start()
    try:
        yield running
    finally:
        running.stop()
