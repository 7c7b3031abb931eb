"""Values built once and shared, so that a game's hot path allocates nothing new.

A simulation builds the same tiny values hundreds of times a game: one-seat audiences
(a player told his own news), one-number argument tuples (the choices of a verb that
names one seat or house) and argument-less prompts (pass, abstain, heal). They are
immutable, so they are built once here, for seats up to ``MAX_SEATS``, and handed out;
beyond it they are built on demand (no rulebook seats that many, but nothing breaks).
A role author only needs the three functions: ``alone``, ``one_each`` and ``bare``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from lupus.engine.model import Args, Prompt

MAX_SEATS: Final = 256
"""Seats (and Lupusburg houses) for which the shared values are built in advance."""

_ALONE: Final[tuple[frozenset[int], ...]] = tuple([frozenset((seat,)) for seat in range(MAX_SEATS)])


def alone(seat: int) -> frozenset[int]:
    """The audience of one seat (a game tells each player his own news)."""
    return _ALONE[seat] if 0 <= seat < MAX_SEATS else frozenset((seat,))


SOLO: Final[dict[frozenset[int], int]] = {audience: seat for seat, audience in enumerate(_ALONE)}
"""The seat of a one-seat audience (the ledger files these without iterating a set)."""

_ONE_INT: Final[tuple[Args, ...]] = tuple([(value,) for value in range(MAX_SEATS)])


def one_each(values: Sequence[int]) -> tuple[Args, ...]:
    """The choices of a verb that names one of ``values`` (a seat, a house): ``(v,)``
    for each, shared (prompts list them by the dozen)."""
    # (Compiled, a loop over an exact list or tuple is about three times as fast as a
    # loop over any sequence: each gets its own.)
    if isinstance(values, tuple):
        return _from_tuple(values)
    if isinstance(values, list):
        return _from_list(values)
    return _from_list(list(values))


def _from_list(values: list[int]) -> tuple[Args, ...]:
    return tuple([_ONE_INT[v] if 0 <= v < MAX_SEATS else (v,) for v in values])


def _from_tuple(values: tuple[int, ...]) -> tuple[Args, ...]:
    return tuple([_ONE_INT[v] if 0 <= v < MAX_SEATS else (v,) for v in values])


_BARE: Final[dict[str, tuple[Prompt, ...]]] = {}


def bare(actor: int, verb: str) -> Prompt:
    """The prompt of a verb without arguments (pass, abstain, heal...), built once per
    verb and seat: a game hands out dozens, one to each player at each vote."""
    made = _BARE.get(verb)
    if made is None:
        made = _BARE[verb] = tuple([Prompt(seat, verb, ((),)) for seat in range(MAX_SEATS)])
    return made[actor] if 0 <= actor < MAX_SEATS else Prompt(actor, verb, ((),))
