"""The one place where what a player may know is computed.

A view is a pure function of the public setup (rulebook, names, options), the events
whose audience includes the player, and the player's own prompts. Every front end (web,
terminal, bots, replay) reads views; none reads the game state. The leader's view holds
every event.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar, Final, final

from lupus.engine.event_json import plain as plain
from lupus.engine.event_json import to_json
from lupus.engine.interned import SOLO
from lupus.engine.model import LEADER, PUBLIC, Event, Prompt, Value
from lupus.rulebooks.schema import OptionValue, Rulebook

if TYPE_CHECKING:
    from lupus.engine.game import Game


@final
class PublicSetup(Value):
    """What every player knows from the start: the rulebook, the names, the options.

    A game makes it once; every view shares it. ``book`` is the game's rulebook itself
    (a house rulebook is not looked up again by its id, which a shipped one may share);
    ``options`` is a read-only copy taken when the game was set up (a view hands out a
    fresh dict of it).
    """

    __slots__ = ("book", "names", "options")
    FIELDS: ClassVar[tuple[str, ...]] = ("book", "names", "options")

    def __init__(
        self, book: Rulebook, names: tuple[str, ...], options: Mapping[str, OptionValue]
    ) -> None:
        self.book: Final = book
        self.names: Final = names
        self.options: Final = options

    @property
    def rulebook(self) -> str:
        """The rulebook's id."""
        return self.book.id


@final
class View(Value):
    """What one seat may know now (the leader's view: everything).

    A small immutable object, so that a simulation can afford one at every decision:
    the public setup is one shared, read-only object, ``options`` is copied only when
    read, and ``events`` is built when first read, from the seat's own lists of the
    ledger: the public events and the events told to this seat, of
    which the view reads the first ones, as many as there were when it was made. A view
    refers to nothing else of the game: serialised by reflection it shows only what its
    seat may know (``to_json`` is the documented way to turn it into JSON).

    ``state_id`` counts what the seat has seen and done: the events it may see and its
    own accepted actions. It moves only when this seat's view changes, so a front end
    can refuse an action answering a stale view without learning anything from it.
    """

    __slots__ = (
        "_events",
        "_npublic",
        "_private",
        "_public",
        "_upto",
        "finished",
        "number",
        "phase",
        "prompts",
        "seat",
        "setup",
        "state_id",
    )
    FIELDS: ClassVar[tuple[str, ...]] = (  # in the constructor's order
        "seat",
        "setup",
        "phase",
        "number",
        "events",
        "prompts",
        "finished",
        "state_id",
    )

    def __init__(
        self,
        seat: int,
        setup: PublicSetup,
        phase: str,
        number: int,
        events: tuple[Event, ...],
        prompts: tuple[Prompt, ...],
        finished: bool,
        state_id: int,
    ) -> None:
        self.seat: Final = seat
        self.setup: Final = setup
        self.phase: Final = phase
        self.number: Final = number
        self.prompts: Final = prompts
        self.finished: Final = finished
        self.state_id: Final = state_id
        self._events: tuple[Event, ...] | None = events
        self._public: list[Event] = NO_EVENTS
        self._private: list[Event] = NO_EVENTS
        self._npublic = 0
        self._upto = 0

    @staticmethod
    def of_lists(
        seat: int,
        setup: PublicSetup,
        phase: str,
        number: int,
        public: list[Event],
        private: list[Event],
        prompts: tuple[Prompt, ...],
        finished: bool,
        state_id: int,
    ) -> View:
        """A view of the events these lists hold now (see ``Ledger``), read (and
        copied) only if asked for."""
        view = View(seat, setup, phase, number, (), prompts, finished, state_id)
        view._events = None
        view._public = public
        view._private = private
        view._npublic = len(public)
        view._upto = len(private)
        return view

    @property
    def events(self) -> tuple[Event, ...]:
        """Every event this seat may see, in order, as they stood when the view was made
        (read-only copies: see ``Event.seen_by``)."""
        events = self._events
        if events is None:
            events = merged(self.seat, self._npublic, self._upto, self._public, self._private)
            self._events = events
            self._public = self._private = NO_EVENTS
        return events

    def counts(self) -> tuple[int, int]:
        """How many events of its seat's public and private lists this view holds (its
        reader's place in them)."""
        return self._npublic, self._upto

    def news(self, public_from: int, private_from: int) -> tuple[Event, ...]:
        """The events after the first ``public_from`` public and ``private_from`` private
        ones (what its reader was shown already, ``counts`` of an earlier view of the
        same seat): a server sends each change's news without merging the whole log
        again. The ledger only grows, so these are ``events[public_from + private_from:]``.
        """
        if self._events is not None:
            return self._events[public_from + private_from :]
        return merged(
            self.seat,
            self._npublic,
            self._upto,
            self._public,
            self._private,
            public_from,
            private_from,
        )

    def __repr__(self) -> str:
        return f"View(seat={self.seat!r}, phase={self.phase!r}, number={self.number!r}, " + (
            f"events={len(self.events)}, prompts={self.prompts!r}, finished={self.finished!r})"
        )

    def to_json(self) -> dict[str, object]:
        """The view as plain JSON data (dicts, lists, strings, numbers, booleans, None):
        the one documented way to send a view over the wire. Seats stay numbers (0 is
        the first player), names are under ``names``; an event's ``audience`` is null
        (public) or this seat alone; mapping keys become strings, as JSON has it."""
        return {
            "rulebook": self.rulebook,
            "names": list(self.names),
            "options": dict(self.setup.options),
            "seat": self.seat,
            "phase": self.phase,
            "number": self.number,
            "finished": self.finished,
            "state_id": self.state_id,
            "events": [event_json(ev) for ev in self.events],
            "prompts": [
                {
                    "actor": p.actor,
                    "verb": p.verb,
                    "choices": [list(args) for args in p.choices],
                    "unordered": p.unordered,
                }
                for p in self.prompts
            ],
        }

    @property
    def rulebook(self) -> str:
        return self.setup.book.id

    @property
    def book(self) -> Rulebook:
        """The game's rulebook (public: every player knows the rules)."""
        return self.setup.book

    @property
    def names(self) -> tuple[str, ...]:
        return self.setup.names

    @property
    def options(self) -> dict[str, OptionValue]:
        return dict(self.setup.options)

    @property
    def is_leader(self) -> bool:
        return self.seat == LEADER

    def role(self) -> str | None:
        """The seat's own current role, as its events told it (None for the leader)."""
        role = None
        for ev in self.events:
            if ev.kind in ("role_dealt", "role_taken") and ev.seat("player") == self.seat:
                role = ev.text("role")
        return role

    def dead(self) -> set[int]:
        """Players the view knows to be out of the game (deaths are public); in
        Lupusburg a player is out once both of his characters are."""
        dead: set[int] = set()
        characters_lost: dict[int, int] = {}
        for ev in self.events:
            if ev.kind == "death":
                dead.add(ev.seat("player"))
            elif ev.kind == "character_dies":
                seat = ev.seat("player")
                characters_lost[seat] = characters_lost.get(seat, 0) + 1
                if characters_lost[seat] == 2:
                    dead.add(seat)
        return dead

    def alive(self) -> list[int]:
        dead = self.dead()
        return [s for s in range(len(self.names)) if s not in dead]

    def known_roles(self) -> dict[int, str]:
        """Every role this view has been shown, latest first wins (seat -> role id)."""
        known: dict[int, str] = {}
        for ev in self.events:
            for seat, role in role_facts(ev):
                known[seat] = role
        return known


def role_facts(event: Event) -> list[tuple[int, str]]:
    """The (seat, role) facts an event discloses; the secrecy tests audit exactly these
    (the fields each kind declares in ``discloses``: ``lupus.village.events``)."""
    data = event.data
    facts: list[tuple[int, str]] = []
    if "role" in data and "player" in data:
        facts.append((event.seat("player"), event.text("role")))
    if "roles" in data:
        facts.extend(event.seat_texts("roles").items())
    return facts


def event_json(event: Event) -> dict[str, object]:
    """One event as plain JSON data (see ``View.to_json``; ``events.from_json`` reads
    it back)."""
    return to_json(event)


class Ledger:
    """Every event in order, and what each seat may see of them.

    Events are filed by audience as they are recorded, each with its place in the
    ledger (``Event.seq``): a public event once, in the public list, a private one in
    the list of each seat of its audience. An event told to several seats is filed for
    each as one anonymous copy (its audience empty): nothing reachable from a seat's
    list names who else was told. A view then refers to its seat's two lists only,
    never to the ledger, and merges them by place when read; a seat's count of visible
    events is the lengths of its lists.
    """

    def __init__(self, seats: int) -> None:
        self.all: list[Event] = []
        self.public: list[Event] = []
        self.private: list[list[Event]] = [[] for _ in range(seats)]

    def record(self, event: Event) -> None:
        everything = self.all
        event.seq = len(everything)
        everything.append(event)
        audience = event.audience
        if audience is None:
            self.public.append(event)
            return
        private = self.private
        seat = SOLO.get(audience, -1)
        if seat >= 0:
            if seat < len(private):
                private[seat].append(event)
            return
        if not audience:
            return  # the leader's alone
        told = Event(event.kind, ANONYMOUS, event.data, event.phase, event.number)
        told.seq = event.seq
        for member in audience:
            if 0 <= member < len(private):
                private[member].append(told)


ANONYMOUS: Final[frozenset[int]] = frozenset()
NO_PROMPTS: Final[tuple[Prompt, ...]] = ()
NO_EVENTS: Final[list[Event]] = []  # (never appended to: a read view's lists)


def merged(
    seat: int,
    npublic: int,
    nprivate: int,
    public: list[Event],
    private: list[Event],
    public_from: int = 0,
    private_from: int = 0,
) -> tuple[Event, ...]:
    """The first ``npublic`` and ``nprivate`` events of a seat's lists (from the
    ``public_from``-th and ``private_from``-th on), merged in the ledger's order, as
    ``seat`` sees them."""
    out: list[Event] = []
    taken = public_from  # public events taken so far
    for i in range(private_from, nprivate):
        event = private[i]
        place = event.seq
        while taken < npublic and public[taken].seq < place:
            out.append(public[taken].seen_by(seat))
            taken += 1
        twin = event.seen_by(seat)
        if twin is not event and not event.audience:
            private[i] = twin  # (an anonymous copy's twin is kept in the seat's list)
        out.append(twin)
    while taken < npublic:
        out.append(public[taken].seen_by(seat))
        taken += 1
    return tuple(out)


def view_of(game: Game, seat: int) -> View:
    """``game.view`` of a seat already checked (the simulator's path)."""
    ledger = game.ledger
    if seat == LEADER:
        public, private, state_id = ledger.all, NO_EVENTS, game.state_id
        prompts = game.prompts_of(seat)
    elif seat == PUBLIC:  # a spectator's: the public events, nothing to decide
        public, private, prompts = ledger.public, NO_EVENTS, NO_PROMPTS
        state_id = len(public)
    else:
        public, private = ledger.public, ledger.private[seat]
        state_id = len(public) + len(private) + game.acted[seat]
        prompts = game.prompts_of(seat)
    return View.of_lists(
        seat,
        game.public,
        game.phase,
        game.number,
        public,
        private,
        prompts,
        game.outcome is not None,
        state_id,
    )


def view_before(game: Game, seat: int, cut: int) -> View:
    """What ``seat`` (a seat, LEADER or PUBLIC) could know just before the event at
    place ``cut`` of the ledger: its events before it, nothing to decide.

    A server holds a night's next step back this way until the step before it has
    lasted its full time, so that nobody learns from the clock that a role is gone.
    """
    ledger = game.ledger
    private: list[Event] = NO_EVENTS
    if seat == LEADER:
        public = ledger.all
    else:
        public = ledger.public
        if seat != PUBLIC:
            private = ledger.private[seat]
    shown_public = public[: before(public, cut)]
    shown_private = private[: before(private, cut)]
    last = max(shown_public[-1:] + shown_private[-1:], key=seq_of, default=None)
    phase, number = ("setup", 0) if last is None else (last.phase, last.number)
    state_id = len(shown_public) + len(shown_private)
    if seat >= 0:
        state_id += game.acted[seat]
    return View.of_lists(
        seat, game.public, phase, number, shown_public, shown_private, NO_PROMPTS, False, state_id
    )


def before(events: list[Event], cut: int) -> int:
    """How many of ``events`` (in ledger order) come before place ``cut``."""
    low, high = 0, len(events)
    while low < high:
        middle = (low + high) // 2
        if events[middle].seq < cut:
            low = middle + 1
        else:
            high = middle
    return low


def seq_of(event: Event) -> int:
    return event.seq
