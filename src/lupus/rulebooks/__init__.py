"""Rulebook files: one TOML file per game, looked up by id or by path.

Data only: a rulebook is validated against its schema here; whether its family's
mechanics can play it is checked by ``lupus.families.load``, which is what front ends
call (this package imports no mechanics).

A rulebook is known by its content, not by its id or its path: ``Rulebook.digest``.
A file is read again at every ``load`` and kept by its text, so that an edited file,
another file under the same name (after a ``chdir``) or a moved one loads as what it
holds now; a house rulebook that keeps a shipped id is not the shipped one
(``is_shipped``), and is written into a scenario whole (``reference``).
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Final

from pydantic import ValidationError

from lupus.engine.errors import RulebookError
from lupus.engine.untrusted import quoted
from lupus.files import path_problem, printable, read_text, shown_path, validation_problems
from lupus.rulebooks.schema import MechanicsSpec, OptionSpec, RoleSpec, Rulebook, WinSpec

__all__ = [
    "MechanicsSpec",
    "OptionSpec",
    "RoleSpec",
    "Rulebook",
    "WinSpec",
    "available",
    "from_data",
    "is_shipped",
    "load",
    "load_file",
    "reference",
    "shipped",
]

FILES_KEPT: Final = 64
"""Rulebook files kept parsed, by their text (a server or a script reloading the same
few files parses each once; another text is parsed again)."""

_parsed: dict[str, Rulebook] = {}


def available() -> list[str]:
    """Ids of the rulebooks shipped with lupus."""
    folder = resources.files(__package__)
    return sorted(p.name[: -len(".toml")] for p in folder.iterdir() if p.name.endswith(".toml"))


@cache
def shipped(rulebook_id: str) -> Rulebook:
    """A rulebook shipped with lupus, by id (read once: the package does not change)."""
    if rulebook_id not in available():
        raise RulebookError(f"unknown rulebook {printable(rulebook_id)!r}")
    text = resources.files(__package__).joinpath(f"{rulebook_id}.toml").read_text("utf-8")
    return parse(text, f"{rulebook_id}.toml")


def load(rulebook_id: str) -> Rulebook:
    """A shipped rulebook by id, or a rulebook file by path (read now: see the module)."""
    if rulebook_id in available():
        return shipped(rulebook_id)
    problem = path_problem(rulebook_id)  # (measured before the system is asked)
    if problem:
        raise RulebookError(f"{shown_path(rulebook_id)}: {problem}")
    path = Path(rulebook_id)
    try:
        found = path.suffix == ".toml" and path.is_file()
    except OSError as exc:  # (a name too long for the system, a loop of links)
        reason = exc.strerror or type(exc).__name__
        raise RulebookError(f"{shown_path(rulebook_id)}: cannot read: {reason}") from exc
    if found:
        return load_file(path)
    known = ", ".join(available())
    raise RulebookError(f"unknown rulebook {quoted(rulebook_id)} (known: {known}, or a .toml path)")


def load_file(path: Path) -> Rulebook:
    """A rulebook file as it is now, or RulebookError in one line saying why it cannot
    be. Kept by its text (``FILES_KEPT``): the same text gives the same object."""
    text = read_text(path, RulebookError)
    book = _parsed.get(text)
    if book is None:
        book = parse(text, shown_path(path))
        if len(_parsed) >= FILES_KEPT:
            _parsed.pop(next(iter(_parsed)))  # the oldest
        _parsed[text] = book
    return book


def from_data(data: object, source: str = "rulebook") -> Rulebook:
    """A rulebook given as data (the tables of its TOML file: what ``reference`` writes
    into a scenario), or RulebookError in one line saying why it cannot be."""
    return validated(data, source)


def is_shipped(book: Rulebook) -> bool:
    """Whether ``book`` is the shipped rulebook of its id, content and all (a house
    rulebook that keeps a shipped id is not)."""
    return book.id in available() and shipped(book.id).digest == book.digest


def reference(book: Rulebook) -> str | dict[str, Any]:
    """What a scenario's ``rules`` holds for ``book``: a shipped rulebook's id, or any
    other rulebook whole, as data (``from_data`` reads it back to the same digest), so
    that the scenario replays the rules it was played by wherever it is read."""
    return book.id if is_shipped(book) else book.model_dump(mode="json")


def parse(text: str, source: str) -> Rulebook:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulebookError(f"{source}: not valid TOML: {exc}") from exc
    except ValueError as exc:  # an integer longer than Python reads (4300 digits)
        raise RulebookError(f"{source}: not valid TOML: a number has too many digits") from exc
    except RecursionError as exc:
        raise RulebookError(f"{source}: not valid TOML: nested too deeply") from exc
    return validated(data, source)


def validated(data: object, source: str) -> Rulebook:
    try:
        book = Rulebook.model_validate(data)
    except ValidationError as exc:
        problems = validation_problems(exc)
        raise RulebookError(f"{source}: {problems}") from exc
    except RecursionError as exc:
        raise RulebookError(f"{source}: nested too deeply") from exc
    return book
