"""What the `lupus` command reads from its flags, checked before any work starts.

Every value a user types is bounded and exact (docs/architecture.md, "Limits"): a
refusal is one line naming the flag, and nothing has run yet.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from lupus.engine.errors import SetupError
from lupus.engine.limits import (
    MAX_ARGUMENT_TEXT,
    MAX_OPTIONS,
    MAX_PLAYERS,
    MAX_SEED,
    MAX_WORKERS,
)
from lupus.engine.untrusted import cut, exact_int, quoted
from lupus.files import path_problem, printable, shown_path

if TYPE_CHECKING:
    from lupus.server.limits import ServerLimits


def refuse(message: str) -> typer.Exit:
    """Say why on one line of stderr (anything that would not print as one plain line
    escaped, and cut at ``MAX_MESSAGE``), and give the exit status 1."""
    typer.echo(f"lupus: {printable(cut(message), None)}", err=True)
    return typer.Exit(1)


def fail(exc: Exception) -> typer.Exit:
    """``refuse`` with an error's message."""
    return refuse(str(exc) or type(exc).__name__)


def worker_count(workers: int | None) -> int:
    """The worker processes asked for, or all cores (at most ``MAX_WORKERS``)."""
    import os

    if workers is None:
        return max(1, min(os.cpu_count() or 1, MAX_WORKERS))
    return exact_int(workers, "--workers", 1, MAX_WORKERS)


def writable(path: Path, what: str) -> None:
    """SetupError unless a file could be written at ``path`` (its folder exists, its
    name is not too long for the system), asked before the work whose result it keeps."""
    import os

    problem = path_problem(path)
    if problem is None:
        try:
            if not path.parent.is_dir():
                problem = f"no folder {shown_path(path.parent)}"
            elif len(os.fsencode(path.name)) > os.pathconf(path.parent, "PC_NAME_MAX"):
                problem = f"{shown_path(path)}: the name is too long for the system"
        except (OSError, ValueError) as exc:
            problem = f"{shown_path(path)}: {getattr(exc, 'strerror', None) or exc}"
    if problem:
        raise SetupError(f"{what}: {problem}")


def checked_seed(seed: int) -> int:
    return exact_int(seed, "--seed", 0, MAX_SEED)


def flag_text(value: str, what: str) -> str:
    """A command-line value of at most ``MAX_ARGUMENT_TEXT`` characters."""
    if len(value) > MAX_ARGUMENT_TEXT:
        raise SetupError(f"{what}: at most {MAX_ARGUMENT_TEXT} characters, not {len(value)}")
    return value


def parse_options(pairs: list[str]) -> dict[str, object]:
    """``--option key=value`` (repeated) -> options; a value is read as JSON when it is
    (``true``, ``2``, ``0.5``), else as text. At most ``MAX_OPTIONS``, each at most
    ``MAX_ARGUMENT_TEXT`` characters; the rulebook checks the rest."""
    if len(pairs) > MAX_OPTIONS:
        raise SetupError(f"--option: at most {MAX_OPTIONS} options, not {len(pairs)}")
    options: dict[str, object] = {}
    for pair in pairs:
        key, sep, raw = flag_text(pair, "--option").partition("=")
        if not sep:
            raise SetupError(f"--option: {quoted(pair)} is not key=value")
        try:
            options[key] = json.loads(raw)
        except (ValueError, RecursionError):  # (not JSON: the text itself)
            options[key] = raw
    return options


def parse_bots(text: str) -> dict[str, str]:
    """``random``, or ``werewolves=heuristic,villagers=random``: the rulebook's
    factions and the known kinds are checked by ``SimConfig.check``."""
    flag_text(text, "--bots")
    if "=" not in text:
        return {"*": text.strip()}
    bots: dict[str, str] = {}
    for part in text.split(","):
        faction, _, kind = part.partition("=")
        bots[faction.strip()] = kind.strip()
    return bots


def count_flag(text: str, what: str, example: str) -> int:
    """A whole number written in digits, from 1 to ``MAX_PLAYERS`` (a table's size, a
    pack's), read without ``int``'s leniency (no sign, no underscore, no other script)."""
    text = text.strip()
    if not (text.isascii() and text.isdigit()):
        raise SetupError(f"{what}: {quoted(text)} is not like {example}")
    if len(text) > 4 or not 1 <= int(text) <= MAX_PLAYERS:
        raise SetupError(f"{what}: a table has 1 to {MAX_PLAYERS} players, not {quoted(text)}")
    return int(text)


def parse_players(text: str) -> list[int]:
    """``8-12`` or ``8,10,12`` or ``8`` -> player counts (``lupus balance --players``),
    each from 1 to ``MAX_PLAYERS``, read before any is played (the rulebook's bounds are
    checked for all of them by the search, before it starts)."""
    example = "8-12 or 8,10,12"
    found: set[int] = set()
    for part in flag_text(text, "--players").split(","):
        lo, sep, hi = part.strip().partition("-")
        if sep:
            low, high = count_flag(lo, "--players", example), count_flag(hi, "--players", example)
            if low > high:
                raise SetupError(f"--players: {quoted(part.strip())} goes down, not up")
            found.update(range(low, high + 1))
        elif lo:
            found.add(count_flag(lo, "--players", example))
    if not found:
        raise SetupError("--players: no player count")
    return sorted(found)


def parse_range(text: str) -> tuple[int | None, int | None]:
    """``2-4``, ``2-`` (2 to the default), ``-4`` or ``3`` -> (low, high); None: default
    (``lupus balance --pack``), each size from 1 to ``MAX_PLAYERS``."""
    example = "1-3, 2- or 3"
    lo, sep, hi = flag_text(text, "--pack").strip().partition("-")
    low = count_flag(lo, "--pack", example) if lo.strip() else None
    high = (count_flag(hi, "--pack", example) if hi.strip() else None) if sep else low
    if low is None and high is None:
        raise SetupError("--pack: give at least one pack size")
    if low is not None and high is not None and low > high:
        raise SetupError(f"--pack: {quoted(text.strip())} goes down, not up")
    return low, high


def server_limits(given: list[str]) -> ServerLimits:
    """``--limit NAME=VALUE``s as the server's limits (the defaults for the others)."""
    from pydantic import ValidationError

    from lupus.server.limits import ServerLimits
    from lupus.server.protocol import explain

    names = sorted(ServerLimits.model_fields)
    if len(given) > len(names):
        raise SetupError(f"--limit: at most {len(names)}")
    values: dict[str, object] = {}
    for text in given:
        name, equals, value = flag_text(text, "--limit").partition("=")
        if not equals or name not in names:
            raise SetupError(
                f"--limit: {quoted(text)} is not NAME=VALUE with a NAME of {', '.join(names)}"
            )
        values[name] = value
        with contextlib.suppress(ValueError):
            values[name] = int(value) if value.strip().lstrip("-").isdigit() else float(value)
    try:
        return ServerLimits.model_validate(values)
    except ValidationError as exc:
        raise SetupError(f"--limit {explain(exc)}") from exc
