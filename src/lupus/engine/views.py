"""The one place where what a player may know is computed.

A view is a pure function of the public setup (rulebook, names, options), the events
whose audience includes the player, and the player's own prompts. Every front end (web,
terminal, bots, replay) reads views; none reads the game state. The leader's view holds
every event.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar, Final, final

from lupus.engine.model import LEADER, Event, Prompt, Value
from lupus.rulebooks.schema import OptionValue

if TYPE_CHECKING:
    from lupus.engine.game import Game


@final
class PublicSetup(Value):
    """What every player knows from the start: the rulebook, the names, the options.

    A game makes it once; every view shares it. ``options`` is a read-only copy taken
    when the game was set up (a view hands out a fresh dict of it).
    """

    __slots__ = ("names", "options", "rulebook")
    FIELDS: ClassVar[tuple[str, ...]] = ("rulebook", "names", "options")

    def __init__(
        self, rulebook: str, names: tuple[str, ...], options: Mapping[str, OptionValue]
    ) -> None:
        self.rulebook: Final = rulebook
        self.names: Final = names
        self.options: Final = options


@final
class View(Value):
    """What one seat may know now (the leader's view: everything).

    A small immutable object, so that a simulation can afford one at every decision:
    the public setup is one shared, read-only object, ``options`` is copied only when
    read, and ``events`` is a snapshot tuple of the seat's share of the ledger, taken
    when first read. Until then (``View.of_ledger``) the view holds the ledger and how
    many events it held when the view was made: a random bot, which reads only the
    prompts, never pays for the routing or the copy.
    """

    __slots__ = (
        "_events",
        "_ledger",
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
        self._ledger: Ledger | None = None
        self._upto = 0

    @staticmethod
    def of_ledger(
        seat: int,
        setup: PublicSetup,
        phase: str,
        number: int,
        ledger: Ledger,
        prompts: tuple[Prompt, ...],
        finished: bool,
        state_id: int,
    ) -> View:
        """A view whose events are those of the ledger as it stands now that ``seat``
        may see, routed (and copied) only if asked for."""
        view = View(seat, setup, phase, number, (), prompts, finished, state_id)
        view._events = None
        view._ledger = ledger
        view._upto = len(ledger.all)
        return view

    @property
    def events(self) -> tuple[Event, ...]:
        """Every event this seat may see, in order, as they stood when the view was made."""
        events = self._events
        if events is None:
            ledger = self._ledger
            assert ledger is not None
            events = ledger.visible(self.seat, self._upto)
            self._events = events
            self._ledger = None  # the copy is taken: let go of the game's ledger
        return events

    def __repr__(self) -> str:
        return f"View(seat={self.seat!r}, phase={self.phase!r}, number={self.number!r}, " + (
            f"events={len(self.events)}, prompts={self.prompts!r}, finished={self.finished!r})"
        )

    @property
    def rulebook(self) -> str:
        return self.setup.rulebook

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
            if ev.kind in ("role_dealt", "role_taken") and ev.data.get("player") == self.seat:
                role = str(ev.data["role"])
        return role

    def dead(self) -> set[int]:
        """Players the view knows to be out of the game (deaths are public); in
        Lupusburg a player is out once both of his characters are."""
        dead: set[int] = set()
        characters_lost: dict[int, int] = {}
        for ev in self.events:
            if ev.kind == "death":
                dead.add(int(str(ev.data["player"])))
            elif ev.kind == "character_dies":
                seat = int(str(ev.data["player"]))
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
    """The (seat, role) facts an event discloses; the secrecy tests audit exactly these."""
    data = event.data
    facts: list[tuple[int, str]] = []
    if "role" in data and "player" in data:
        facts.append((int(str(data["player"])), str(data["role"])))
    roles = data.get("roles")
    if isinstance(roles, dict):
        facts.extend((int(s), str(r)) for s, r in roles.items())
    return facts


class Ledger:
    """Every event in order, and each seat's share of them, routed by audience.

    A seat's share is routed when it is first read, not when an event is recorded: a
    simulation records some seventy events a game, most of them public, and its random
    bots never read one, while a front end or a heuristic bot reads its seat's share
    again and again and only pays for the events recorded since.
    """

    def __init__(self) -> None:
        self.all: list[Event] = []
        self.shares: dict[int, Share] = {}  # made for a seat when first read

    def record(self, event: Event) -> None:
        self.all.append(event)

    def visible(self, seat: int, upto: int) -> tuple[Event, ...]:
        """The events among the first ``upto`` that ``seat`` may see (LEADER: all)."""
        if seat == LEADER:
            return tuple(self.all[:upto])
        share = self.shares.get(seat)
        if share is None:
            share = self.shares[seat] = Share()
        events = share.events
        if share.routed < upto:
            everything = self.all
            for index in range(share.routed, upto):
                audience = everything[index].audience
                if audience is None or seat in audience:
                    events.append(everything[index])
                    share.positions.append(index)
            share.routed = upto
            return tuple(events)
        return tuple(events[: bisect_left(share.positions, upto)])


@final
class Share:
    """One seat's events routed so far: where each stands in the ledger, and how far
    into the ledger the routing went."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.positions: list[int] = []
        self.routed = 0


def view_of(game: Game, seat: int) -> View:
    if seat != LEADER and not 0 <= seat < game.n:
        raise ValueError(f"there is no seat {seat} (seats 0 to {game.n - 1}, or LEADER)")
    return View.of_ledger(
        seat,
        game.public,
        game.phase,
        game.number,
        game.ledger,
        game.open_prompts(seat),
        game.outcome is not None,
        game.state_id,
    )
