"""What a report reads of each seat of a finished game: its card, its side, whether it
won and whether it lived to the end, and which cards are the village's key roles.

Every figure of the report is computed from these facts, so that win rates, survival,
ratings and the Game Arena metrics count the same seats the same way in every family:
a village rulebook's seat holds the card it was dealt (``role_dealt``), a Lupusburg
seat the first of its two characters in the rulebook's order of roles (the Werewolf's
player is the Werewolf, the Thief's the Thief, anyone else Townsfolk).
"""

from __future__ import annotations

from dataclasses import dataclass

from lupus.ai.played import Played
from lupus.engine.game import Game
from lupus.rulebooks.schema import Rulebook


@dataclass(frozen=True)
class Seat:
    """One seat of one game, as every figure counts it."""

    seat: int
    kind: str
    role: str
    side: str
    won: bool
    alive: bool
    points: int | None  # Lupusburg's score; None where the rules keep none


def seat_roles(book: Rulebook, game: Game) -> list[str]:
    """Each seat's card as dealt (see the module's docstring)."""
    order = {role: i for i, role in enumerate(book.roles)}
    held: dict[int, list[str]] = {}
    for ev in game.events:
        if ev.kind == "role_dealt":
            held.setdefault(ev.seat("player"), []).append(ev.text("role"))
        elif ev.kind == "characters_dealt":
            chars = ev.seat_texts("characters").values()
            held.setdefault(ev.seat("player"), []).extend(chars)
    return [min(held.get(s, ["?"]), key=lambda r: order.get(r, len(order))) for s in range(game.n)]


def seats_of(book: Rulebook, played: Played) -> list[Seat]:
    game = played.game
    outcome = game.outcome
    winners = set(outcome.winners) if outcome is not None else set()
    scores = dict(outcome.scores) if outcome is not None else {}
    roles = seat_roles(book, game)
    sides = game.sides_dealt()
    return [
        Seat(s, played.kinds[s], roles[s], sides[s], s in winners, game.alive[s], scores.get(s))
        for s in range(game.n)
    ]


def village(book: Rulebook) -> tuple[str, frozenset[str]]:
    """The village's side and its key roles, from the rulebook's data: the plain
    villager is the card of unlimited count that carries no tag (villager, townsfolk);
    its side is the village, and the village's other cards are its key roles (the
    seer, the witch, the doctor...: those that see, protect or act)."""
    plain = [r for r, spec in book.roles.items() if spec.max is None and not spec.tags]
    side = book.roles[plain[0]].faction if plain else book.factions[0]
    keys = frozenset(r for r, spec in book.roles.items() if spec.faction == side and r not in plain)
    return side, keys
