"""The one place where what a player may know is computed.

A view is a pure function of the public setup (rulebook, names, options), the events
whose audience includes the player, and the player's own prompts. Every front end (web,
terminal, bots, replay) reads views; none reads the game state. The leader's view holds
every event.
"""

from __future__ import annotations

from typing import ClassVar, Final, Protocol, final

from lupus.engine.event_json import plain as plain
from lupus.engine.event_json import to_json
from lupus.engine.ledger import Chain, Ledger, links, merged
from lupus.engine.model import (
    LEADER,
    PUBLIC,
    Event,
    Prompt,
    Value,
)
from lupus.engine.public_setup import PublicSetup
from lupus.engine.sealed import seal
from lupus.rulebooks.schema import OptionValue, Rulebook


@final
class View(Value):
    """What one seat may know now (the leader's view: everything).

    A small immutable object, so that a simulation can afford one at every decision:
    the public setup is one shared, read-only object, ``options`` is copied only when
    read, and ``events`` is built when first read, from the seat's two chains of the
    ledger as they stood when the view was made (their newest events): the public
    events and the events told to this seat (the leader's view holds its events). A
    view refers to nothing else of the game, and nothing it refers to can change:
    serialised by reflection it shows only what its seat may know
    (``to_json`` is the documented way to turn it into JSON).

    ``state_id`` counts what the seat has seen and done: the events it may see and its
    own accepted actions. It moves only when this seat's view changes, so a front end
    can refuse an action answering a stale view without learning anything from it.
    """

    __slots__ = (
        "_events",
        "_nprivate",
        "_npublic",
        "_private",
        "_public",
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
        events: tuple[Event, ...] | None,
        prompts: tuple[Prompt, ...],
        finished: bool,
        state_id: int,
        _public: Chain = None,
        _npublic: int = 0,
        _private: Chain = None,
        _nprivate: int = 0,
    ) -> None:
        """``events`` None: the events of the chains given after ``state_id`` (the
        first ``_npublic`` public and ``_nprivate`` private ones, merged when read);
        else the view holds its events (``_npublic`` of them: the leader's)."""
        self.seat: Final = seat
        self.setup: Final = setup
        self.phase: Final = phase
        self.number: Final = number
        self.prompts: Final = prompts
        self.finished: Final = finished
        self.state_id: Final = state_id
        self._public: Final = _public
        self._npublic: Final = _npublic
        self._private: Final = _private
        self._nprivate: Final = _nprivate
        if events is not None:
            self._events = events
        # else ``_events`` stays unset until read: the one slot a view sets after it is
        # made, once, with what its own immutable chains hold.

    @property
    def events(self) -> tuple[Event, ...]:
        """Every event this seat may see, in order, as they stood when the view was made
        (the game's own immutable events: see ``Event``)."""
        found: tuple[Event, ...] | None = getattr(self, "_events", None)
        if found is not None:
            return found
        events = merged(self._public, self._npublic, self._private, self._nprivate)
        self._events = events
        return events

    def counts(self) -> tuple[int, int]:
        """How many public and private events of its seat this view holds (its reader's
        place in them)."""
        return self._npublic, self._nprivate

    def public_chain(self) -> tuple[Chain, int]:
        """The public events this view holds, as their chain (its newest event) and
        their number: what a spectator of the same moment holds, whatever the seat
        (``lupus.engine.table`` reads the public table from them alone)."""
        if self.seat != LEADER:
            return self._public, self._npublic
        # The leader holds his events (the ledger's own: a public one is the very link
        # of the public chain), the newest last.
        events = self.events
        for place in range(len(events) - 1, -1, -1):
            event = events[place]
            if event.audience is None:
                return event, event.seq + 1
        return None, 0

    def news(self, public_from: int, private_from: int) -> tuple[Event, ...]:
        """The events after the first ``public_from`` public and ``private_from`` private
        ones (what its reader was shown already, ``counts`` of an earlier view of the
        same seat): a server sends each change's news without merging the whole log
        again. The ledger only grows, so these are ``events[public_from + private_from:]``.
        """
        if self._public is None and self._private is None:  # (the events are held)
            return self.events[public_from + private_from :]
        return merged(
            self._public,
            self._npublic,
            self._private,
            self._nprivate,
            public_from,
            private_from,
        )

    def newest_private(self) -> Event | None:
        """The newest event told to this seat (not to everyone), if any: one look, to
        tell whether a step that keeps its news among a few (the pack's) is on."""
        chain = self._private
        if chain is not None:
            return chain
        found = self.latest_private(1) if self._public is None else []
        return found[0] if found else None

    def latest_private(self, most: int) -> list[Event]:
        """The newest ``most`` events told to this seat (not to everyone), newest first:
        what a few players share in a step (the pack's choices) is read from here,
        without merging the whole view."""
        found: list[Event] = []
        chain = self._private
        if chain is not None:
            left = min(most, self._nprivate)
            while left > 0 and chain is not None:
                found.append(chain)
                chain = chain.before
                left -= 1
            return found
        held: tuple[Event, ...] | None = getattr(self, "_events", None)
        if self._public is not None or held is None:
            return found  # (its chains hold no private event)
        at = len(held)
        while at > 0 and len(found) < most:  # a view that holds its events
            at -= 1
            if held[at].audience is not None:
                found.append(held[at])
        return found

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
        return self.setup.rulebook

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


NO_PROMPTS: Final[tuple[Prompt, ...]] = ()


def seat_view(
    ledger: Ledger,
    seat: int,
    setup: PublicSetup,
    phase: str,
    number: int,
    prompts: tuple[Prompt, ...],
    over: bool,
    state_id: int,
    acted: int,
) -> View:
    """What a checked ``seat`` (a seat, LEADER or PUBLIC) may know now, from the game's
    ledger and its state: ``Game.view``'s work, given the parts it reads so that this
    module never needs the game itself. ``state_id`` is the game's (the leader's);
    ``acted`` is how many decisions the seat has made."""
    if seat == LEADER:  # (rare: a copy of the whole ledger)
        shown = tuple(ledger.all)
        return View(seat, setup, phase, number, shown, prompts, over, state_id, None, len(shown))
    private: Chain = None
    nprivate = 0
    public, npublic = ledger.public, ledger.npublic
    if seat == PUBLIC:  # a spectator's: the public events, nothing to decide
        state_id = npublic
    else:
        private, nprivate = ledger.private[seat], ledger.nprivate[seat]
        state_id = npublic + nprivate + acted
    return View(
        seat,
        setup,
        phase,
        number,
        None,
        prompts,
        over,
        state_id,
        public,
        npublic,
        private,
        nprivate,
    )


class Recorded(Protocol):
    """What a past view reads of its game (``lupus.engine.game.Game`` is one): named
    here so that this module does not import the game, which imports it."""

    @property
    def ledger(self) -> Ledger: ...
    @property
    def public(self) -> PublicSetup: ...
    @property
    def acted(self) -> list[int]: ...


def view_before(game: Recorded, seat: int, cut: int) -> View:
    """What ``seat`` (a seat, LEADER or PUBLIC) could know just before the event at
    place ``cut`` of the ledger: its events before it, nothing to decide.

    A server holds a night's next step back this way until the step before it has
    lasted its full time, so that nobody learns from the clock that a role is gone.
    """
    ledger = game.ledger
    cut = max(0, min(cut, len(ledger.all)))
    last = ledger.all[cut - 1] if cut else None
    phase, number = ("setup", 0) if last is None else (last.phase, last.number)
    private: Chain = None
    nprivate = 0
    if seat == LEADER:
        shown = tuple(ledger.all[:cut])
        return View(seat, game.public, phase, number, shown, NO_PROMPTS, False, cut, None, cut)
    else:
        npublic, nprivate = ledger.counts_before(seat, cut)
        public = links(ledger.public, ledger.npublic, npublic)
        state_id = npublic
        if seat != PUBLIC:
            private = links(ledger.private[seat], ledger.nprivate[seat], nprivate)
            state_id += nprivate + game.acted[seat]
    return View(
        seat,
        game.public,
        phase,
        number,
        None,
        NO_PROMPTS,
        False,
        state_id,
        public,
        npublic,
        private,
        nprivate,
    )


seal(View)
