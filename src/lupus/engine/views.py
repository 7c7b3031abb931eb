"""The one place where what a player may know is computed.

A view is a pure function of the public setup (rulebook, names, options), the events
whose audience includes the player, and the player's own prompts. Every front end (web,
terminal, bots, replay) reads views; none reads the game state. The leader's view holds
every event.
"""

from __future__ import annotations

from dataclasses import dataclass

from lupus.engine.model import LEADER, Event, Prompt
from lupus.rulebooks.schema import OptionValue


@dataclass(frozen=True, slots=True)
class View:
    seat: int
    rulebook: str
    names: tuple[str, ...]
    options: dict[str, OptionValue]
    phase: str
    number: int
    events: tuple[Event, ...]
    prompts: tuple[Prompt, ...]
    finished: bool
    state_id: int

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
        """Players the view knows to be out of the game (deaths are public)."""
        return {int(str(ev.data["player"])) for ev in self.events if ev.kind == "death"}

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
        if event.audience is None:
            for log in self.seen:
                log.append(event)
        else:
            for seat in event.audience:
                self.seen[seat].append(event)

    def visible(self, seat: int) -> tuple[Event, ...]:
        return tuple(self.all) if seat == LEADER else tuple(self.seen[seat])


def view_of(game: object, seat: int) -> View:
    from lupus.engine.game import Game

    assert isinstance(game, Game)
    events = game.ledger.visible(seat)
    prompts = tuple(game.prompts(seat))
    return View(
        seat=seat,
        rulebook=game.rulebook.id,
        names=game.names,
        options=dict(game.options),
        phase=game.phase,
        number=game.number,
        events=events,
        prompts=prompts,
        finished=game.finished,
        state_id=game.state_id,
    )
