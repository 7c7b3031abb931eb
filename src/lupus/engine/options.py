"""A rulebook's options as given for one game: checked against the rulebook's specs,
completed with the defaults, and kept per set of given options (a simulation sets up
thousands of games with the same ones)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final, cast, final

from lupus.engine.errors import SetupError
from lupus.engine.limits import MAX_OPTIONS, MAX_TEXT
from lupus.engine.untrusted import kind_of, quoted
from lupus.rulebooks.facts import memos, remember
from lupus.rulebooks.schema import OptionValue, Rulebook


@final
class Resolved:
    """A rulebook's options as given for a game: every value, and a read-only view of
    them that the games set up with them share (their public setup shows it)."""

    def __init__(self, values: dict[str, OptionValue]) -> None:
        self.values: Final = values  # never changed: games take a copy
        self.shared: Final[Mapping[str, OptionValue]] = MappingProxyType(values)
        # ``options_key`` of the values, worked out once: a family that keeps what it
        # derives from a game's options (the village's cards) keys it with this.
        self.key: Final = options_key(values)


def resolve_options(rulebook: Rulebook, given: Mapping[str, object]) -> dict[str, OptionValue]:
    """Every option of the rulebook, with the given values checked against its spec
    (at most ``MAX_OPTIONS``, each named by text: ``measured``)."""
    return dict(resolved(rulebook, given).values)


def resolved(rulebook: Rulebook, given: Mapping[str, object]) -> Resolved:
    """``resolve_options``, kept in the rulebook's facts per set of given options."""
    measured(given)
    key = options_key(given)
    if key is None:  # a value of another type: it is checked every time, uncached
        return Resolved(_resolve_options(rulebook, given))
    seen = memos(rulebook.facts.digest).options_seen
    known = seen.get(key)
    if isinstance(known, Resolved):
        return known
    made = Resolved(_resolve_options(rulebook, given))
    remember(seen, key, made)
    return made


def measured(given: object) -> None:
    """SetupError unless ``given`` is a mapping of at most ``MAX_OPTIONS`` option names
    (text) to values an option may have (a bool, an int, a float, a text of at most
    ``MAX_TEXT`` characters): checked before a key is hashed, sorted or looked up, or a
    value quoted."""
    # (A plain dict first: ``isinstance`` of an ABC is a slow check, and a simulation
    # sets up every game with one.)
    if type(given) is not dict and not isinstance(given, Mapping):
        raise SetupError(f"options map option names to values, not {kind_of(given)}")
    if len(given) > MAX_OPTIONS:
        raise SetupError(f"at most {MAX_OPTIONS} options, not {len(given)}")
    for key, value in given.items():
        if type(key) is not str:
            raise SetupError(f"an option's name is text, not {kind_of(key)}")
        kind = type(value)
        if kind is str:
            assert isinstance(value, str)
            if len(value) > MAX_TEXT:
                raise SetupError(f"option {quoted(key)}: at most {MAX_TEXT} characters")
        elif kind is not bool and kind is not int and kind is not float:
            raise SetupError(
                f"option {quoted(key)} must be true or false, a number or a text, "
                f"not {kind_of(value)}"
            )


def options_key(given: Mapping[str, object]) -> tuple[object, ...] | None:
    """What the checked options depend on, exactly, as a key: each name and value with
    the value's type (``True == 1 == 1.0`` and they hash alike, but an option accepts
    one of them) and a float's sign (``-0.0 == 0.0``, but one is not the other); None
    when a name is not exactly a ``str`` or a value not exactly a bool, int, float or
    str (a subclass may compare equal to anything: such options are not kept)."""
    items: list[tuple[str, type, object, bool]] = []
    for k, v in given.items():
        kind = type(v)
        if type(k) is not str or kind not in _PLAIN:
            return None
        negative = kind is float and math.copysign(1.0, cast(float, v)) < 0
        items.append((k, kind, v, negative))
    items.sort(key=_name)
    return tuple(items)


def _name(item: tuple[str, type, object, bool]) -> str:
    return item[0]


_PLAIN: Final = (bool, int, float, str)


def _resolve_options(rulebook: Rulebook, given: Mapping[str, object]) -> dict[str, OptionValue]:
    unknown = sorted(set(given) - set(rulebook.options))
    if unknown:
        known = ", ".join(sorted(rulebook.options)) or "none"
        raise SetupError(
            f"unknown option {quoted(unknown[0])} for {rulebook.id} (options: {known})"
        )
    values: dict[str, OptionValue] = {}
    for key, spec in rulebook.options.items():
        try:
            values[key] = spec.check(given[key], key) if key in given else spec.default
        except ValueError as exc:
            raise SetupError(f"option {exc}") from exc
    return values
