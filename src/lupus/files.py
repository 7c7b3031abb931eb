"""Users' files (rulebooks, scenarios): reading them, and quoting what they hold in
errors of one line (a user reads why, never a traceback or a forged line)."""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from lupus.engine.errors import LupusError


def read_text(path: Path, error: type[LupusError]) -> str:
    """The file's UTF-8 text, or ``error`` saying in one line why it cannot be read."""
    try:
        return path.read_text("utf-8")
    except OSError as exc:
        raise error(f"{path}: cannot read: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise error(f"{path}: not UTF-8 text (byte {exc.start} cannot be read)") from exc


def printable(text: str, most: int | None = 40) -> str:
    """Text quoted in a message on one line: characters that do not print (line breaks,
    controls, invisible ones) escaped, and cut after ``most`` (None: not cut)."""
    if not text.isprintable():
        text = "".join([c if c.isprintable() else ascii(c)[1:-1] for c in text])
    return text if most is None or len(text) <= most else text[:most] + "..."


def validation_problems(exc: ValidationError) -> str:
    """A schema's refusal of a file, as ``key.path: problem; ...`` on one line."""
    return "; ".join(
        f"{'.'.join(printable(str(p)) for p in err['loc']) or '(top)'}: "
        f"{printable(err['msg'], 300)}"
        for err in exc.errors()
    )
