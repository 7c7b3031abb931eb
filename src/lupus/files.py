"""Reading a user's file as text: one way, with errors a user reads in one line."""

from __future__ import annotations

from pathlib import Path

from lupus.engine.errors import LupusError


def read_text(path: Path, error: type[LupusError]) -> str:
    """The file's UTF-8 text, or ``error`` saying in one line why it cannot be read
    (rulebooks and scenario files come from users: never a traceback)."""
    try:
        return path.read_text("utf-8")
    except OSError as exc:
        raise error(f"{path}: cannot read: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise error(f"{path}: not UTF-8 text (byte {exc.start} cannot be read)") from exc
