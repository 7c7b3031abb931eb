"""Rulebook files: one TOML file per game, looked up by id or by path.

Data only: a rulebook is validated against its schema here; whether its family's
mechanics know every step it names is checked by ``lupus.families.load``, which is
what front ends call (this package imports no mechanics).
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from pathlib import Path

from pydantic import ValidationError

from lupus.engine.errors import RulebookError
from lupus.engine.untrusted import quoted
from lupus.files import path_problem, read_text, shown_path, validation_problems
from lupus.rulebooks.schema import MechanicsSpec, OptionSpec, RoleSpec, Rulebook, WinSpec

__all__ = [
    "MechanicsSpec",
    "OptionSpec",
    "RoleSpec",
    "Rulebook",
    "WinSpec",
    "available",
    "load",
    "load_file",
]


def available() -> list[str]:
    """Ids of the rulebooks shipped with lupus."""
    folder = resources.files(__package__)
    return sorted(p.name[: -len(".toml")] for p in folder.iterdir() if p.name.endswith(".toml"))


@cache
def load(rulebook_id: str) -> Rulebook:
    """A shipped rulebook by id, or a rulebook file by path."""
    if rulebook_id in available():
        text = resources.files(__package__).joinpath(f"{rulebook_id}.toml").read_text("utf-8")
        return parse(text, f"{rulebook_id}.toml")
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
    """A rulebook file, or RulebookError in one line saying why it cannot be."""
    return parse(read_text(path, RulebookError), shown_path(path))


def parse(text: str, source: str) -> Rulebook:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulebookError(f"{source}: not valid TOML: {exc}") from exc
    except ValueError as exc:  # an integer longer than Python reads (4300 digits)
        raise RulebookError(f"{source}: not valid TOML: a number has too many digits") from exc
    except RecursionError as exc:
        raise RulebookError(f"{source}: not valid TOML: nested too deeply") from exc
    try:
        book = Rulebook.model_validate(data)
    except ValidationError as exc:
        problems = validation_problems(exc)
        raise RulebookError(f"{source}: {problems}") from exc
    except RecursionError as exc:
        raise RulebookError(f"{source}: nested too deeply") from exc
    return book
