"""Checks and renderings of what a client sent, before it is known to be an action.

Kept apart from the value types: nothing here trusts its argument's type, and every
message is in words a player understands, short and safe to log (a client may send a
number too long to print or an object whose ``repr`` fails).
"""

from __future__ import annotations


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
    verb and a tuple of ints and strs)."""
    if type(actor) is not int:
        return f"there is no player number {bounded(actor)}"
    if type(verb) is not str:
        return f"{bounded(verb)} is not something a player can do"
    if type(args) is not tuple:
        return "an action's choices must be listed as a tuple"
    assert isinstance(args, tuple)
    for arg in args:
        kind = type(arg)
        if kind is not int and kind is not str:
            return f"{bounded(arg)} is not a player, a card or a number this game knows"
    return None


def bounded(value: object) -> str:
    """A short, safe rendering of something a client sent (for error messages): huge
    numbers and long texts are cut, and a value whose ``repr`` fails is named by type."""
    if type(value) is int:
        assert isinstance(value, int)
        if -(10**9) < value < 10**9:
            return str(value)
        return "a number out of range"
    if type(value) is str and value.isprintable():
        text = str(value)
    else:
        try:
            text = repr(value)  # (a string with line breaks or controls: escaped)
        except Exception:  # (a malicious __repr__, a number too long to print)
            return f"a {type(value).__name__}"
    return text if len(text) <= 40 else text[:37] + "..."
