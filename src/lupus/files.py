"""Users' files (rulebooks, scenarios): reading them, and quoting what they hold in
errors of one line (a user reads why, never a traceback or a forged line).

A path is measured before the system is asked about it (``MAX_PATH_LENGTH``), and a
file before it is read (``MAX_FILE_BYTES``): a path too long for the system or a file
of gigabytes is refused with the project's own error, never a traceback.
"""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import ValidationError

from lupus.engine.errors import LupusError
from lupus.engine.limits import MAX_FILE_BYTES, MAX_PATH_LENGTH, MAX_SHOWN

SHOWN_PATH = 80
"""The most characters of a path an error message quotes (its end: the file's name)."""


def shown_path(path: object) -> str:
    """A path quoted in a message on one line: escaped, and only its end when long."""
    text = str(path)
    if len(text) > SHOWN_PATH:
        text = "..." + text[-(SHOWN_PATH - 3) :]
    return printable(text, None)


def path_problem(path: object) -> str | None:
    """Why ``path`` cannot name a file on any system (too long, a NUL character), or
    None: checked before the system is asked."""
    text = str(path)
    if len(text) > MAX_PATH_LENGTH:
        return f"a path has at most {MAX_PATH_LENGTH} characters, not {len(text)}"
    if "\0" in text:
        return "a path may not hold a NUL character"
    return None


def read_text(path: Path, error: type[LupusError]) -> str:
    """The file's UTF-8 text, or ``error`` saying in one line why it cannot be read
    (its path too long, unreadable, larger than ``MAX_FILE_BYTES``, not UTF-8)."""
    problem = path_problem(path)
    if problem:
        raise error(f"{shown_path(path)}: {problem}")
    try:
        with path.open("rb") as file:
            size = os.fstat(file.fileno()).st_size
            if size > MAX_FILE_BYTES:
                raise error(f"{shown_path(path)}: {too_large()}")
            data = file.read(MAX_FILE_BYTES + 1)  # (a device or a pipe has no size)
    except OSError as exc:
        raise error(
            f"{shown_path(path)}: cannot read: {exc.strerror or type(exc).__name__}"
        ) from exc
    if len(data) > MAX_FILE_BYTES:
        raise error(f"{shown_path(path)}: {too_large()}")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(
            f"{shown_path(path)}: not UTF-8 text (byte {exc.start} cannot be read)"
        ) from exc


def too_large() -> str:
    return f"larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB, the most lupus reads"


def printable(text: str, most: int | None = 40) -> str:
    """Text quoted in a message on one line: characters that do not print (line breaks,
    controls, invisible ones) escaped, and cut after ``most`` (None: not cut)."""
    if most is not None and len(text) > most:
        return printable(text[:most], None) + "..."
    if not text.isprintable():
        text = "".join([c if c.isprintable() else ascii(c)[1:-1] for c in text])
    return text


def validation_problems(exc: ValidationError) -> str:
    """A schema's refusal of a file, as ``key.path: problem; ...`` on one line: the
    first ``MAX_SHOWN`` problems, and how many more there are."""
    errors = exc.errors()
    shown = [
        f"{'.'.join(printable(str(p)) for p in err['loc'][:8]) or '(top)'}: "
        f"{printable(err['msg'], 300)}"
        for err in errors[:MAX_SHOWN]
    ]
    more = len(errors) - len(shown)
    return "; ".join(shown) + (f"; and {more} more problem(s)" if more > 0 else "")
