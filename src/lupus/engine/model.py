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
from lupus.engine.untrusted import bounded, parts_problem, safe_repr

LEADER: Final = -1
"""The game leader's actor id: he closes open-ended steps (a timer is a leader's close)."""

RECORDED: Final = -3  # (an event as recorded, not a twin made for a reader)
PUBLIC: Final = -2
"""The public's seat: a spectator's view (``Game.public_view``), and the key of a public
event's one read-only twin (see ``Event.seen_by``)."""

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

    def __init__(self, actor: int, verb: str, args: Args = ()) -> None:
        self.actor: Final = actor
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
    """

    __slots__ = ("_key", "_twins", "audience", "data", "kind", "number", "phase", "seq")
    UNCOMPARED: ClassVar[tuple[str, ...]] = ("seq",)  # its place in a game's ledger
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
    ) -> None:
        self.kind: Final = kind
        self.audience: Final = audience
        self.data: Final = data
        self.phase: Final = phase
        self.number: Final = number
        self._twins: dict[int, Event] | None = None
        self._key = RECORDED  # a twin's: the reader it was made for (see seen_by)
        self.seq = -1  # its place in the game's ledger, set when recorded

    def seen_by(self, seat: int) -> Event:
        """This event as ``seat``'s view hands it out (LEADER: the leader's).

        Read-only: its data cannot be changed (mappings are read-only proxies, lists
        become tuples), so no consumer of a view can alter another's log. Its audience
        tells the seat no more than that the event is public (None) or told to him
        (his seat alone): who else was told is not his to know (the leader sees the
        whole audience). Made once per event and seat, so that every view of a game
        hands out the same object for the same event (bots compare them by identity).
        """
        audience = self.audience
        key = PUBLIC if audience is None else seat  # a public event: one twin for all
        if self._key == key:
            return self  # a twin, asked again by its own reader
        twins = self._twins
        if twins is None:
            twins = self._twins = {}
        twin = twins.get(key)
        if twin is not None:
            return twin
        told = audience
        if audience is not None and seat != LEADER:
            told = frozenset((seat,))
        twin = Event(self.kind, told, frozen_data(self.data), self.phase, self.number)
        # (Not a mapping to itself: a cycle would leave every finished game's twins to
        # the garbage collector, which a server holding many games pays for in pauses.)
        twin._key = key
        twin.seq = self.seq
        # An anonymous copy, filed for several seats (``Ledger.record``), does not keep
        # its twins, where another seat's view could reach them: the seat's own list
        # keeps its twin instead.
        if audience is None or audience or seat == LEADER:
            twins[key] = twin
        return twin

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
    """A read-only deep copy of an event's data (see ``Event.seen_by``)."""
    return MappingProxyType({key: frozen(value) for key, value in data.items()})


def frozen(value: object) -> object:
    """``value`` made read-only: mappings as read-only proxies, lists and sets as tuples
    and frozensets (their items too); numbers, strings and None as they are."""
    if isinstance(value, Mapping):
        return MappingProxyType({key: frozen(item) for key, item in value.items()})
    if isinstance(value, list | tuple):
        return tuple([frozen(item) for item in value])
    if isinstance(value, set | frozenset):
        return frozenset(value)
    return value


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
        # A copy: the game-over event's data must not be changed through the outcome.
        self.scores: Final[Mapping[int, int]] = {} if scores is None else dict(scores)


def well_formed(action: Action, seats: int) -> bool:
    """Whether an action's parts have exactly the types a prompt lists (the fast check
    ``apply`` runs on every action; ``malformed_action`` says why not)."""
    actor = action.actor
    if type(actor) is not int or not (actor == LEADER or 0 <= actor < seats):
        return False
    if type(action.verb) is not str:
        return False
    # Its arguments' types are checked against the prompt's choices (``listed``).
    return type(action.args) is tuple


def malformed_action(action: object, seats: int) -> str | None:
    """Why ``action`` is not even an action of this game, in words a player understands
    (None: well formed). Types are exact: a prompt lists ints and strings, and
    ``2.0 == 2`` or ``True == 1`` must not let a float or a bool through to a step."""
    if type(action) is not Action:
        return "that is not an action"
    assert isinstance(action, Action)
    actor = action.actor
    args: object = action.args  # (compiled, an ``Args`` item is type-checked when read)
    problem = parts_problem(actor, action.verb, args)
    if problem is None and not (actor == LEADER or 0 <= actor < seats):
        problem = f"there is no player number {bounded(actor)}"
    return problem
