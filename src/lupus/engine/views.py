"""The one place where what a player may know is computed.

A view is a pure function of the public setup (rulebook, names, options), the events
whose audience includes the player, and the player's own prompts. Every front end (web,
terminal, bots, replay) reads views; none reads the game state. The leader's view holds
every event.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Final, final

from lupus.engine.model import LEADER, Event, Prompt, Value
from lupus.rulebooks.schema import OptionValue

if TYPE_CHECKING:
    from lupus.engine.game import Game


@dataclass(frozen=True, slots=True)
class PublicSetup:
    """What every player knows from the start: the rulebook, the names, the options.

    A game makes it once; every view shares it. ``options`` is a read-only copy taken
    when the game was set up (a view hands out a fresh dict of it).
    """

    rulebook: str
    names: tuple[str, ...]
    options: Mapping[str, OptionValue]


@final
class View(Value):
    """What one seat may know now (the leader's view: everything).

    A small immutable object, so that a simulation can afford one at every decision:
    the public setup is one shared, read-only object, ``options`` is copied only when
    read, and ``events`` is a snapshot tuple of the seat's own share of the ledger, taken
    when first read. Until then (``View.of_share``) the view holds the seat's share, a
    list in which the ledger only ever puts events that seat may see, and how many of
    them were there when the view was made: a random bot, which reads only the prompts,
    never pays for the copy.
    """

    __slots__ = (
        "_events",
        "_seen",
        "_share",
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
        self._share: list[Event] = []
        self._seen = 0

    @staticmethod
    def of_share(
        seat: int,
        setup: PublicSetup,
        phase: str,
        number: int,
        share: list[Event],
        prompts: tuple[Prompt, ...],
        finished: bool,
        state_id: int,
    ) -> View:
        """A view whose events are the first ``len(share)`` of the seat's share, read
        (and copied) only if asked for."""
        view = View(seat, setup, phase, number, (), prompts, finished, state_id)
        view._events = None
        view._share = share
        view._seen = len(share)
        return view

    @property
    def events(self) -> tuple[Event, ...]:
        """Every event this seat may see, in order, as they stood when the view was made."""
        events = self._events
        if events is None:
            events = tuple(self._share[: self._seen])
            self._events = events
            self._share = []  # the copy is taken: let go of the live share
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
    """Every event, and each seat's own share of them, routed once by audience.

    Routing when an event is recorded keeps a view as cheap as copying one list, which
    matters when bots ask for a view at every decision of a million simulated games.
    """

    def __init__(self, seats: int) -> None:
        self.all: list[Event] = []
        self.seen: list[list[Event]] = [[] for _ in range(seats)]

    def record(self, event: Event) -> None:
        self.all.append(event)
        audience = event.audience
        seen = self.seen
        if audience is None:
            for log in seen:
                log.append(event)
        else:
            for seat in audience:
                seen[seat].append(event)

    def share(self, seat: int) -> list[Event]:
        """The seat's own share, live: only ``View.of_share`` may hold on to it."""
        return self.all if seat == LEADER else self.seen[seat]


def view_of(game: Game, seat: int) -> View:
    if seat != LEADER and not 0 <= seat < game.n:
        raise ValueError(f"there is no seat {seat} (seats 0 to {game.n - 1}, or LEADER)")
    return View.of_share(
        seat,
        game.public,
        game.phase,
        game.number,
        game.ledger.share(seat),
        tuple(game.open_prompts(seat)),
        game.outcome is not None,
        game.state_id,
    )
