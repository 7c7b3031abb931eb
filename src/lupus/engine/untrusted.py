"""Checks and renderings of what a client sent, before it is known to be an action.

Kept apart from the value types: nothing here trusts its argument's type, and every
message is in words a player understands, short and safe to log (a client may send a
number too long to print or an object whose ``repr`` fails).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from lupus.engine.errors import SetupError
from lupus.engine.limits import MAX_ARGS, MAX_MESSAGE, MAX_SHOWN


def safe_repr(value: object) -> str:
    """``repr``, or the type's name where ``repr`` fails (an action a client built may
    hold a number too long to print, and logging it must not crash a server)."""
    try:
        return repr(value)
    except Exception:
        return f"<{type(value).__name__}>"


def exact_args(args: tuple[object, ...]) -> bool:
    """Whether every argument is exactly an int or a str."""
    for arg in args:
        kind = type(arg)
        if kind is not int and kind is not str:
            return False
    return True


def parts_problem(actor: object, verb: object, args: object) -> str | None:
    """Why these parts make no action, whatever the game (None: an int actor, a str
    verb and a tuple of at most ``MAX_ARGS`` ints and strs)."""
    if type(actor) is not int:
        return f"there is no player number {bounded(actor)}"
    if type(verb) is not str:
        return f"{bounded(verb)} is not something a player can do"
    if type(args) is not tuple:
        return "an action's choices must be listed as a tuple"
    assert isinstance(args, tuple)
    if len(args) > MAX_ARGS:
        return f"an action names at most {MAX_ARGS} choices, not {len(args)}"
    for arg in args:
        kind = type(arg)
        if kind is not int and kind is not str:
            return f"{bounded(arg)} is not a player, a card or a number this game knows"
    return None


def bounded(value: object, depth: int = 0) -> str:
    """A short, safe rendering of something a client sent (for error messages): huge
    numbers and long texts are cut, a list, tuple or mapping of a few items is shown
    item by item (``[True]``) and a larger or deeper one named by its size (never
    rendered whole), and a value whose ``repr`` fails is named by type."""
    kind = type(value)
    if kind is int:
        assert isinstance(value, int)
        if -(10**9) < value < 10**9:
            return str(value)
        return "a number out of range"
    if kind is str:
        assert isinstance(value, str)
        head = value[:SHORT]  # (cut before escaping: a long text costs nothing)
        text = head if head.isprintable() else repr(head)
        return text if len(text) <= SHORT and len(value) <= SHORT else text[: SHORT - 3] + "..."
    if kind is list or kind is tuple or kind is dict:
        assert isinstance(value, (list, tuple, dict))
        if len(value) > MAX_SHOWN or depth >= 2:
            return f"a {kind.__name__} of {len(value)} items"
        if isinstance(value, dict):
            inner = ", ".join([f"{item(k, depth)}: {item(v, depth)}" for k, v in value.items()])
            text = "{" + inner + "}"
        else:
            inner = ", ".join([item(each, depth) for each in value])
            if isinstance(value, tuple):
                text = "(" + inner + ("," if len(value) == 1 else "") + ")"
            else:
                text = "[" + inner + "]"
        return text if len(text) <= SHORT else f"a {kind.__name__} of {len(value)} items"
    if isinstance(value, (set, frozenset, bytes, bytearray)):
        return f"a {kind.__name__} of {len(value)} items"
    try:
        text = repr(value)  # (a float, a bool, None, an object of the caller's)
    except Exception:  # (a malicious __repr__)
        return f"a {kind.__name__}"
    return text if len(text) <= SHORT else text[: SHORT - 3] + "..."


SHORT: Final = 40
"""The most characters ``bounded`` renders one value in."""


def item(value: object, depth: int) -> str:
    """An item of a list or mapping ``bounded`` shows: a string in quotes."""
    return quoted(value) if type(value) is str else bounded(value, depth + 1)


def quoted(value: object) -> str:
    """``repr`` for a message, bounded: a string in quotes and escaped, cut after
    ``SHORT`` characters (``'Zed'``, ``'xxx...'...``); anything else as ``bounded``."""
    if type(value) is str:
        assert isinstance(value, str)
        text = repr(value[:SHORT])
        return text if len(value) <= SHORT else text + "..."
    return bounded(value)


def kind_of(value: object) -> str:
    """What a value is, for a message refusing its type: ``True (a bool)``, ``a list of
    3 items``."""
    shown = bounded(value)
    if type(value) is not str and shown.startswith("a "):  # (a container, a failed repr)
        return shown
    name = type(value).__name__
    article = "an" if name[:1] in ("a", "e", "i", "o", "u") else "a"
    return f"{shown} ({article} {name})"


def few(shown: Sequence[str], total: int) -> str:
    """At most ``MAX_SHOWN`` items of a list a client sent, joined, and how many more
    there are: a refusal never quotes a list back whole."""
    head = ", ".join(shown[:MAX_SHOWN])
    rest = total - min(len(shown), MAX_SHOWN)
    return f"{head} and {rest} more" if rest > 0 else head


def cut(message: str, most: int = MAX_MESSAGE) -> str:
    """A message cut to ``most`` characters (the last safety net before printing)."""
    return message if len(message) <= most else message[: most - 3] + "..."


def exact_int(value: object, what: str, low: int, high: int) -> int:
    """``value`` if it is exactly an int from ``low`` to ``high`` (a bool, a float or a
    numeric string is not), else SetupError saying so: the check every count runs
    before anything is done with it."""
    if type(value) is not int:
        raise SetupError(f"{what} must be a whole number, not {kind_of(value)}")
    assert isinstance(value, int)
    if not low <= value <= high:
        raise SetupError(f"{what} must be from {low} to {high}, not {bounded(value)}")
    return value


def items_of(value: object, what: str, most: int) -> list[object]:
    """The items of a sequence (a list, a tuple...; not a string) of at most ``most``,
    counted before any is read; SetupError for anything else."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise SetupError(f"{what} must be a list, not {kind_of(value)}")
    size = len(value)
    if size > most:
        raise SetupError(f"{what}: at most {most}, not {size}")
    return list(value)


def texts(value: object, what: str, most: int, longest: int) -> tuple[str, ...]:
    """A sequence of at most ``most`` strings of at most ``longest`` characters each
    (exactly ``str``), or SetupError naming the first one that is not."""
    items = items_of(value, what, most)
    for i, item in enumerate(items):
        if type(item) is not str:
            raise SetupError(f"{what}: item {i + 1} must be text, not {kind_of(item)}")
        assert isinstance(item, str)
        if len(item) > longest:
            raise SetupError(f"{what}: item {i + 1} has more than {longest} characters")
    return tuple([str(item) for item in items])


def whole_numbers(value: object, what: str, most: int, low: int, high: int) -> tuple[int, ...]:
    """A sequence of at most ``most`` ints from ``low`` to ``high`` (exactly ``int``),
    or SetupError naming the first one that is not."""
    items = items_of(value, what, most)
    return tuple(
        [exact_int(item, f"{what}: item {i + 1}", low, high) for i, item in enumerate(items)]
    )
