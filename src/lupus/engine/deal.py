"""What a dealer hands out, whatever the family, and the compositions it deals from.

The random deals themselves are the families' (``Family.deal``): pure, the caller
hands in the random generator, so a seed gives the same deal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar, Final, final

from lupus.engine.errors import SetupError
from lupus.engine.model import Value, seal
from lupus.files import printable
from lupus.rulebooks.schema import Rulebook


@final
class Deal(Value):
    """What the dealer hands out: village cards (``roles``, and a Thief's two
    ``extra_cards``), or Lupusburg characters, chests, the first burgomaster and
    optionally the bag's order (None: the game shuffles it)."""

    __slots__ = ("bag", "burgomaster", "characters", "chests", "extra_cards", "roles")
    FIELDS: ClassVar[tuple[str, ...]] = (
        "roles",
        "extra_cards",
        "characters",
        "chests",
        "burgomaster",
        "bag",
    )

    def __init__(
        self,
        roles: tuple[str, ...] = (),
        extra_cards: tuple[str, ...] = (),
        characters: tuple[tuple[str, ...], ...] = (),
        chests: tuple[int, ...] = (),
        burgomaster: int = 0,
        bag: tuple[int, ...] | None = None,
    ) -> None:
        self.roles: Final = roles
        self.extra_cards: Final = extra_cards
        self.characters: Final = characters
        self.chests: Final = chests
        self.burgomaster: Final = burgomaster
        self.bag: Final = bag


seal(Deal)


def composition(book: Rulebook, players: int) -> dict[str, int]:
    """The rulebook's recommended composition for that many players."""
    deck = book.compositions.get(str(players))
    if deck is None:
        sizes = ", ".join(sorted(book.compositions, key=int))
        raise SetupError(f"{book.id} recommends no composition for {players} players ({sizes})")
    return dict(deck)


def seat_names(players: int) -> list[str]:
    return [f"P{i + 1}" for i in range(players)]


def parse_counts(text: str) -> dict[str, int]:
    """``werewolf=2,seer=1,villager=5`` -> counts (the CLI's --roles)."""
    counts: dict[str, int] = {}
    for part in text.split(","):
        if not part.strip():
            continue
        role, _, number = part.partition("=")
        try:
            counts[role.strip()] = int(number) if number else 1
        except ValueError as exc:
            raise SetupError(f"--roles: {part!r} is not role=count") from exc
    return counts


def every_player(what: str, table: Mapping[str, object], players: Sequence[str], gap: str) -> None:
    """A per-player table of a recorded deal (a scenario file's ``roles``) must name
    every player and nobody else, or ValueError saying who is missing or extra."""
    playing = set(players)
    missing = [printable(p) for p in players if p not in table]
    extra = [printable(name) for name in table if name not in playing]
    if missing:
        raise ValueError(f"{what}: {gap} {', '.join(missing)}")
    if extra:
        raise ValueError(f"{what}: {', '.join(extra)} is not among the players")
