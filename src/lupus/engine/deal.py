"""Random deals from a composition, for games nobody scripted (simulations, the web).

Pure: the caller hands in the random generator, so a seed gives the same deal.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import ClassVar, Final, final

from lupus.engine.draw import below, choice, shuffle
from lupus.engine.errors import SetupError
from lupus.engine.game import count_cards
from lupus.engine.model import Value
from lupus.engine.village import below_minimum, rule_facts
from lupus.rulebooks.schema import OptionValue, Rulebook


@final
class Deal(Value):
    """What the dealer hands out: village cards, or Lupusburg characters and chests."""

    __slots__ = ("burgomaster", "characters", "chests", "extra_cards", "roles")
    FIELDS: ClassVar[tuple[str, ...]] = (
        "roles",
        "extra_cards",
        "characters",
        "chests",
        "burgomaster",
    )

    def __init__(
        self,
        roles: tuple[str, ...] = (),
        extra_cards: tuple[str, ...] = (),
        characters: tuple[tuple[str, str], ...] = (),
        chests: tuple[int, ...] = (),
        burgomaster: int = 0,
    ) -> None:
        self.roles: Final = roles
        self.extra_cards: Final = extra_cards
        self.characters: Final = characters
        self.chests: Final = chests
        self.burgomaster: Final = burgomaster


def composition(book: Rulebook, players: int) -> dict[str, int]:
    """The rulebook's recommended composition for that many players."""
    deck = book.compositions.get(str(players))
    if deck is None:
        sizes = ", ".join(sorted(book.compositions, key=int))
        raise SetupError(f"{book.id} recommends no composition for {players} players ({sizes})")
    return dict(deck)


def deal(
    book: Rulebook,
    players: int,
    counts: Mapping[str, int],
    rng: random.Random,
    options: Mapping[str, OptionValue] | None = None,
) -> Deal:
    """Shuffle the cards of ``counts`` and deal them to ``players`` seats.

    A deal must leave a game the rules accept: a pack and someone to play against, and
    the rulebook's minimum configuration under ``options``. When the Thief's card is
    among the two left aside, those two are out of the game with it, which may take a
    card the minimum needs (the Seer): the cards are dealt again.
    """
    if book.family == "lupusburg":
        return deal_lupusburg(players, rng)
    deck = [role for role, count in sorted(counts.items()) for _ in range(count)]
    thief = "thief" in deck
    wanted = players + (2 if thief else 0)
    if len(deck) != wanted:
        extra = " (a thief needs two extra cards)" if thief else ""
        raise SetupError(f"{len(deck)} cards for {players} players{extra}")
    pack = rule_facts(book).pack
    checked = thief and book.minimum is not None  # (only then can a deal fall short)
    for _ in range(1000):
        shuffle(rng, deck)
        roles, extra_cards = tuple(deck[:players]), tuple(deck[players:])
        if "thief" not in roles:
            extra_cards = ()
            if checked and below_minimum(book, players, count_cards(roles), options or {}):
                continue
        if any(r in pack for r in roles) and not all(r in pack for r in roles):
            return Deal(roles=roles, extra_cards=extra_cards)
    raise SetupError("this composition cannot be dealt with a werewolf and a villager in play")


def deal_lupusburg(players: int, rng: random.Random) -> Deal:
    """Deal two characters each (redeal if one player gets both Werewolf and Thief) and
    place them: the Werewolf and the Thief never under the chest house."""
    deck = ["werewolf", "thief"] + ["townsfolk"] * (2 * players - 2)
    while True:
        shuffle(rng, deck)
        pairs = [deck[2 * i : 2 * i + 2] for i in range(players)]
        if not any("werewolf" in p and "thief" in p for p in pairs):
            break
    characters: list[tuple[str, str]] = []
    chests: list[int] = []
    for pair in pairs:
        special = [c for c in pair if c != "townsfolk"]
        if special:
            chest = choice(rng, (1, 2))
            placed = ("townsfolk", special[0]) if chest == 1 else (special[0], "townsfolk")
        else:
            chest = choice(rng, (1, 2))
            placed = ("townsfolk", "townsfolk")
        characters.append(placed)
        chests.append(chest)
    # "The owner of the game takes the Burgomaster, or gives it to a player at random."
    return Deal(characters=tuple(characters), chests=tuple(chests), burgomaster=below(rng, players))


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
