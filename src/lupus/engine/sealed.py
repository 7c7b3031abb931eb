"""Value classes made read-only from outside, the same in both builds (see ``seal``).

A value handed out by the engine (an action kept in a game's history, a prompt, an
event, a view) must not be changed behind the game's back by whoever holds it.
"""

from __future__ import annotations


def _write_once(value: object, name: str, item: object) -> None:
    """Pure Python's stand-in for compiled ``Final`` fields: a slot is set once, by the
    constructor (or, for a view's memo, when first read), and never again."""
    if hasattr(value, name):
        raise AttributeError(f"{type(value).__name__}.{name} is read-only")
    object.__setattr__(value, name, item)


def _no_delete(value: object, name: str) -> None:
    raise AttributeError(f"{type(value).__name__}.{name} is read-only")


def _refuse(*given: object) -> None:
    """A compiled class's ``__setattr__`` and ``__delattr__`` (called unbound: a compiled
    function is no method): from outside, nothing is set."""
    raise AttributeError("a value handed out by lupus is read-only")


def seal(cls: type) -> None:
    """Make a value class's instances read-only, as seen from outside, in both builds.

    Compiled, a class's own code sets its slots directly, never through
    ``__setattr__``, and its ``Final`` fields refuse assignment already; refusing every
    assignment from outside also covers the one slot a class sets late (a view's memo of
    its events). As pure Python, every slot is write-once instead: set by the
    constructor (or once, late), never again, so that an action kept in a game's history
    or a prompt it handed out cannot be changed behind its back.
    """
    native = hasattr(cls, "__mypyc_attrs__")
    setattr(cls, "__setattr__", _refuse if native else _write_once)  # noqa: B010
    setattr(cls, "__delattr__", _refuse if native else _no_delete)  # noqa: B010
