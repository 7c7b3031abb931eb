"""The small value types every front end shares: actions in, events and prompts out.

Seats are plain ints (0 = first player clockwise) so the hot loop of a simulation never
hashes strings; names only appear at the edges (scenario files, narration, web).

The three types a game builds at every decision (``Action``, ``Prompt``, ``Event``) are
named tuples: immutable like a frozen dataclass, with the same fields, keyword
construction and ``repr``, and about three times cheaper to build (a frozen dataclass
sets each field through ``object.__setattr__``), which a simulation does a hundred
times a game. The rare ones (``Death``, ``Outcome``) stay frozen dataclasses.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final, NamedTuple

LEADER: Final = -1
"""The game leader's actor id: he closes open-ended steps (a timer is a leader's close)."""

Arg = int | str
Args = tuple[Arg, ...]


class Action(NamedTuple):
    """One decision: who (a seat or LEADER), which verb, with which arguments.

    Arguments are seats for targets, or ids such as a card's role id; the prompt that
    allowed the verb lists every legal argument tuple.
    """

    actor: int
    verb: str
    args: Args = ()


class Prompt(NamedTuple):
    """A decision someone owes the game now, with every legal argument tuple.

    ``choices`` holds complete argument tuples (``()`` for a verb without arguments), so
    validating an action, listing a menu and drawing a random legal move are the same
    lookup. ``unordered`` marks verbs whose targets form a set (Cupid's pair).
    """

    actor: int
    verb: str
    choices: tuple[Args, ...]
    unordered: bool = False

    def normalize(self, args: Args) -> Args:
        """The canonical order of a set of targets: seats in seat order."""
        if self.unordered:
            return tuple(sorted(args, key=_arg_order))
        return args

    def allows(self, args: Args) -> bool:
        return self.normalize(args) in self.choices


def _arg_order(arg: Arg) -> tuple[int, str]:
    return (arg, "") if isinstance(arg, int) else (-1, arg)


class Event(NamedTuple):
    """Something that happened, with its audience.

    ``audience`` is None for everyone, otherwise the seats that may see it; the game
    leader sees every event. An event that tells a player someone's role carries it as
    ``data["player"]`` + ``data["role"]`` or as ``data["roles"]`` (seat -> role id), so
    the secrecy property tests can find every such fact.
    """

    kind: str
    audience: frozenset[int] | None
    data: Mapping[str, object]
    phase: str
    number: int


@dataclass(frozen=True, slots=True)
class Death:
    """A player (or, in Lupusburg, a character) leaving the game, and why and when."""

    player: int
    cause: str
    phase: str
    number: int
    house: int | None = None


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: the winning faction (or None) and every seat that won."""

    winner: str | None
    winners: tuple[int, ...]
    reason: str
    scores: Mapping[int, int] = field(default_factory=dict)
