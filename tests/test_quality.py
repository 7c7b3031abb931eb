"""ruff and mypy (strict on the engine) stay clean: part of the test suite, not a chore.

Both run from the interpreter that runs the tests (``python -m``), so the check holds
in any environment the test extra was installed into, with or without its scripts on
``PATH``; neither is skipped when missing (the test extra installs both)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(*cmd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)


def test_ruff_check() -> None:
    result = run(sys.executable, "-m", "ruff", "check", "src", "tests", "benchmarks")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format() -> None:
    result = run(sys.executable, "-m", "ruff", "format", "--check", "src", "tests", "benchmarks")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy() -> None:
    result = run(sys.executable, "-m", "mypy")
    assert result.returncode == 0, result.stdout + result.stderr
