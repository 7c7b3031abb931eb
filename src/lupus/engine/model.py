"""The small value types every front end shares: actions in, events and prompts out.

Seats are plain ints (0 = first player clockwise) so the hot loop of a simulation never
hashes strings; names only appear at the edges (scenario files, narration, web).

The three types a game builds at every decision (``Action``, ``Prompt``, ``Event``) are
small final classes with ``Final`` fields: immutable (assigning a field raises), equal
and hashed by value, keyword construction and a dataclass-like ``repr``. Compiled by
mypyc (see ``setup.py``) they build in about 30 ns, seven times faster than a named
tuple and thirteen times faster than a frozen dataclass, which a simulation does a
hundred times a game. ``Death`` and ``Outcome`` are value types too.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import ClassVar, Final, final

from lupus.engine.errors import IllegalAction
from lupus.engine.sealed import seal
from lupus.engine.untrusted import bounded, parts_problem, safe_repr

READ_ONLY: Final = MappingProxyType
"""The read-only mapping of an event's data (compiled, a ``Final`` name is read from a
C static, where an imported name is looked up in the module's dict at every use)."""

LEADER: Final = -1
"""The game leader's actor id: he closes open-ended steps (a timer is a leader's close)."""

PUBLIC: Final = -2
"""The public's seat: a spectator's view (``Game.public_view``)."""

Arg = int | str
Args = tuple[Arg, ...]


class Value:
    """Equal, hashed and shown by the fields its class lists in ``FIELDS``.

    The engine's value types are small final classes rather than named tuples or frozen
    dataclasses: compiled, they build several times faster (see the module docstring).
    A value holding a dict (an event's data) is equal by value but not hashable.
    """

    __slots__ = ()
    FIELDS: ClassVar[tuple[str, ...]] = ()  # in the constructor's order
    # Slots kept beside the value but not part of it (bookkeeping): not compared, not
    # shown. ``tests/test_values.py`` checks that FIELDS, slots and constructor agree.
    UNCOMPARED: ClassVar[tuple[str, ...]] = ()

    def values(self) -> tuple[object, ...]:
        return tuple([getattr(self, name) for name in self.FIELDS])

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self) or not isinstance(other, Value):
            return NotImplemented
        return self.values() == other.values()

    def __hash__(self) -> int:
        return hash(self.values())

    def __repr__(self) -> str:
        shown = ", ".join([f"{name}={safe_repr(getattr(self, name))}" for name in self.FIELDS])
        return f"{type(self).__name__}({shown})"


@final
class Action(Value):
    """One decision: who (a seat or LEADER), which verb, with which arguments.

    Arguments are seats for targets, or ids such as a card's role id; the prompt that
    allowed the verb lists every legal argument tuple.
    """

    __slots__ = ("actor", "args", "verb")
    FIELDS: ClassVar[tuple[str, ...]] = ("actor", "verb", "args")  # in the constructor's order

    def __init__(self, actor: object, verb: str, args: Args = ()) -> None:
        # ``actor`` as an object: compiled, an ``int`` parameter would take True as 1
        # before this could tell (a bool is no seat).
        if type(actor) is not int:
            raise TypeError(f"an action's actor is a seat number, not {bounded(actor)}")
        assert isinstance(actor, int)
        self.actor: Final[int] = actor
        self.verb: Final = verb
        self.args: Final = args

    @staticmethod
    def of(actor: object, verb: object, args: object = ()) -> Action:
        """An action from parts a client sent (decoded JSON, a form), or IllegalAction
        saying what is wrong: the one way to build an action from untrusted input.

        The constructor trusts its caller (compiled, it refuses a part of the wrong
        type with a TypeError, and does not look inside ``args``); ``Game.apply`` checks
        every action again, exactly, whoever built it. A list of arguments is taken as
        a tuple (JSON has no tuples).
        """
        if type(args) is list:
            assert isinstance(args, list)
            args = tuple(args)
        problem = parts_problem(actor, verb, args)
        if problem is not None:
            raise IllegalAction(problem)
        assert isinstance(actor, int) and isinstance(verb, str) and isinstance(args, tuple)
        return Action(actor, verb, args)


@final
class Prompt(Value):
    """A decision someone owes the game now, with every legal argument tuple.

    ``choices`` holds complete argument tuples (``()`` for a verb without arguments), so
    validating an action, listing a menu and drawing a random legal move are the same
    lookup. ``unordered`` marks verbs whose targets form a set (Cupid's pair).
    """

    __slots__ = ("actor", "choices", "unordered", "verb")
    FIELDS: ClassVar[tuple[str, ...]] = (
        "actor",
        "verb",
        "choices",
        "unordered",
    )  # in the constructor's order

    def __init__(
        self, actor: int, verb: str, choices: tuple[Args, ...], unordered: bool = False
    ) -> None:
        self.actor: Final = actor
        self.verb: Final = verb
        self.choices: Final = choices
        self.unordered: Final = unordered

    def normalize(self, args: Args) -> Args:
        """The canonical order of a set of targets: seats in seat order."""
        if self.unordered:
            return tuple(sorted(args, key=_arg_order))
        return args

    def allows(self, args: Args) -> bool:
        return self.normalize(args) in self.choices


def _arg_order(arg: Arg) -> tuple[int, str]:
    return (arg, "") if isinstance(arg, int) else (-1, arg)


@final
class Event(Value):
    """Something that happened, with its audience.

    ``audience`` is None for everyone, otherwise the seats that may see it; the game
    leader sees every event. An event that tells a player someone's role carries it as
    ``data["player"]`` + ``data["role"]`` or as ``data["roles"]`` (seat -> role id), so
    the secrecy property tests can find every such fact.

    Immutable, all of it: views hand out the very events the game recorded (a public
    one is the same object for every reader), so nothing reachable from one may change.
    Its data are a read-only copy made here (mappings as read-only proxies, lists as
    tuples), unless they are a read-only proxy already, which is taken as it is (the
    copies the ledger makes for each member of an audience share their data).

    ``seq`` numbers the event among what its holder may see, never among what he may
    not (a gap would tell him a hidden event happened): a public event's place among the
    public events, the same for everyone; an event told to a seat, its place among
    everything that seat may see; the leader's record of an event told to several
    seats, its place in the game's ledger (he sees everything). -1: not recorded.

    ``before`` is the event filed before it in the same list of the ledger (the public
    events, or those told to its seat; None: the first, or not filed), so that the
    ledger's lists are chains of immutable events: a view keeps its seat's chains as
    they stood, at no cost, and reaches nothing its seat may not see.
    """

    __slots__ = ("audience", "before", "data", "kind", "number", "phase", "seq")
    # its place, and the event before it, in its holder's list
    UNCOMPARED: ClassVar[tuple[str, ...]] = ("seq", "before")
    FIELDS: ClassVar[tuple[str, ...]] = (
        "kind",
        "audience",
        "data",
        "phase",
        "number",
    )  # in the constructor's order

    def __init__(
        self,
        kind: str,
        audience: frozenset[int] | None,
        data: Mapping[str, object],
        phase: str,
        number: int,
        seq: int = -1,
        before: Event | None = None,
    ) -> None:
        self.kind: Final = kind
        self.audience: Final = audience
        self.data: Final[Mapping[str, object]] = (
            data if type(data) is READ_ONLY else frozen_data(data)
        )
        self.phase: Final = phase
        self.number: Final = number
        self.seq: Final = seq
        self.before: Final = before

    # Typed reads of the data (each kind's fields: ``lupus.village.events``,
    # ``lupus.lupusburg.events``). A value of the wrong type raises TypeError, nothing
    # is coerced (a bool is no seat); a field the event lacks raises KeyError, but for
    # the ``maybe_`` reads, which give None. Lists may be tuples and mappings read-only
    # proxies (a view's copies); what a read returns is a fresh list or dict.
    def seat(self, name: str) -> int:
        """A seat (a Lupusburg house reads the same way)."""
        value = self.data[name]
        if type(value) is not int:
            raise self.mistyped(name, value, "a seat")
        assert isinstance(value, int)
        return value

    def maybe_seat(self, name: str) -> int | None:
        """A seat, or None (the field is None or absent: nobody)."""
        return None if self.data.get(name) is None else self.seat(name)

    def count(self, name: str) -> int:
        """An int that is no seat (a round, a number of votes, a coin)."""
        value = self.data[name]
        if type(value) is not int:
            raise self.mistyped(name, value, "an int")
        assert isinstance(value, int)
        return value

    def text(self, name: str) -> str:
        """A str (a role id, a cause, a step id)."""
        value = self.data[name]
        if type(value) is not str:
            raise self.mistyped(name, value, "a text")
        assert isinstance(value, str)
        return value

    def maybe_text(self, name: str) -> str | None:
        """A str, or None (the field is None or absent)."""
        return None if self.data.get(name) is None else self.text(name)

    def seats(self, name: str) -> list[int]:
        """A list of seats (or of houses, or of ints)."""
        value = self.data[name]
        found: list[int] = []
        if type(value) is list or type(value) is tuple:
            assert isinstance(value, list | tuple)
            for item in value:
                if type(item) is not int:
                    raise self.mistyped(name, value, "a list of seats")
                assert isinstance(item, int)
                found.append(item)
            return found
        raise self.mistyped(name, value, "a list of seats")

    def texts(self, name: str) -> list[str]:
        """A list of strs (names, cards)."""
        value = self.data[name]
        found: list[str] = []
        if type(value) is list or type(value) is tuple:
            assert isinstance(value, list | tuple)
            for item in value:
                if type(item) is not str:
                    raise self.mistyped(name, value, "a list of texts")
                assert isinstance(item, str)
                found.append(item)
            return found
        raise self.mistyped(name, value, "a list of texts")

    def seat_texts(self, name: str) -> dict[int, str]:
        """A mapping of seat (or house) to str (``roles``, ``characters``)."""
        value = self.data[name]
        found: dict[int, str] = {}
        if isinstance(value, Mapping):
            for key, item in value.items():
                if type(key) is not int or type(item) is not str:
                    raise self.mistyped(name, value, "a mapping of seat to text")
                assert isinstance(key, int) and isinstance(item, str)
                found[key] = item
            return found
        raise self.mistyped(name, value, "a mapping of seat to text")

    def seat_ints(self, name: str) -> dict[int, int]:
        """A mapping of seat (or house) to int (a tally's ``votes``, ``scores``)."""
        value = self.data[name]
        found: dict[int, int] = {}
        if isinstance(value, Mapping):
            for key, item in value.items():
                if type(key) is not int or type(item) is not int:
                    raise self.mistyped(name, value, "a mapping of seat to int")
                assert isinstance(key, int) and isinstance(item, int)
                found[key] = item
            return found
        raise self.mistyped(name, value, "a mapping of seat to int")

    def mistyped(self, name: str, value: object, what: str) -> TypeError:
        return TypeError(f"{self.kind}.{name}: {bounded(value)} is not {what}")


def frozen_data(data: Mapping[str, object]) -> Mapping[str, object]:
    """A read-only deep copy of an event's data (see ``Event``)."""
    copy = dict(data)
    freeze_values(copy)
    return READ_ONLY(copy)


def freeze_values(data: dict[str, object]) -> None:
    """Make every value of ``data`` read-only, in place (``frozen``): the ledger's way
    with the data an event is recorded with, which it owns. One pass: a scalar value
    (most of them) is read and left as it is; only a container is replaced (a value
    replaced under its own key leaves the dict's size, and so the iteration, as it was).
    """
    for key, value in data.items():
        kind = type(value)
        if kind is int or kind is str or value is None or kind is bool or kind is float:
            continue
        data[key] = frozen(value)


def frozen(value: object) -> object:
    """``value`` made read-only: mappings as read-only proxies, lists and sets as tuples
    and frozensets (their items too); numbers, strings and None as they are."""
    if scalar(value):
        return value
    if isinstance(value, list):
        for item in value:
            kind = type(item)
            if not (kind is int or kind is str or item is None or kind is bool or kind is float):
                return tuple([frozen(item) for item in value])
        return tuple(value)  # (seats, names: one copy)
    if isinstance(value, dict):
        for item in value.values():
            kind = type(item)
            if not (kind is int or kind is str or item is None or kind is bool or kind is float):
                return READ_ONLY({key: frozen(item) for key, item in value.items()})
        return READ_ONLY(dict(value))  # (counts, roles by seat: one copy)
    if isinstance(value, tuple):
        for item in value:
            kind = type(item)
            if not (kind is int or kind is str or item is None or kind is bool or kind is float):
                return tuple([frozen(item) for item in value])
        if type(value) is tuple:
            return value  # (immutable already, items and all)
        return tuple(value)  # (a subclass of tuple may hold more than its items)
    if isinstance(value, frozenset):
        return value
    if isinstance(value, set):
        return frozenset(value)
    if isinstance(value, Mapping):  # a read-only proxy, or another mapping
        return READ_ONLY({key: frozen(item) for key, item in value.items()})
    return value


def scalar(value: object) -> bool:
    """Whether ``value`` is a number, a string or None, immutable as it is."""
    kind = type(value)
    return kind is int or kind is str or value is None or kind is bool or kind is float


@final
class Death(Value):
    """A player (or, in Lupusburg, a character) leaving the game, and why and when."""

    __slots__ = ("cause", "house", "number", "phase", "player")
    FIELDS: ClassVar[tuple[str, ...]] = ("player", "cause", "phase", "number", "house")

    def __init__(
        self, player: int, cause: str, phase: str, number: int, house: int | None = None
    ) -> None:
        self.player: Final = player
        self.cause: Final = cause
        self.phase: Final = phase
        self.number: Final = number
        self.house: Final = house


@final
class Outcome(Value):
    """How a game ended: the winning faction (or None) and every seat that won."""

    __slots__ = ("reason", "scores", "winner", "winners")
    FIELDS: ClassVar[tuple[str, ...]] = ("winner", "winners", "reason", "scores")

    def __init__(
        self,
        winner: str | None,
        winners: tuple[int, ...],
        reason: str,
        scores: Mapping[int, int] | None = None,
    ) -> None:
        self.winner: Final = winner
        self.winners: Final = winners
        self.reason: Final = reason
        # A read-only copy: neither the game-over event's data nor the game's outcome
        # may be changed through what a reader was handed.
        self.scores: Final[Mapping[int, int]] = READ_ONLY({} if scores is None else dict(scores))


for _cls in (Action, Prompt, Event, Death, Outcome):
    seal(_cls)
