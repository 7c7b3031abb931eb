"""Fixtures shared by test modules."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from server_harness import Server


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """A real ``lupus serve`` of the test's own, on a fresh database (a module that
    shares one server between its tests defines its own ``server``)."""
    running = Server(tmp_path / "lupus.db").start()
    try:
        yield running
    finally:
        running.stop()
