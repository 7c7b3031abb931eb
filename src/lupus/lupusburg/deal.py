"""Random Lupusburg deals: two characters each, a chest under one house."""

from __future__ import annotations

import random
from collections.abc import Mapping

from lupus.engine.deal import Deal, deal_request
from lupus.engine.draw import below, choice, shuffle
from lupus.engine.errors import SetupError
from lupus.rulebooks.schema import Rulebook


def fixed_deck(players: int) -> dict[str, int]:
    """The one deck a table of ``players`` is dealt from."""
    return {"werewolf": 1, "thief": 1, "townsfolk": 2 * players - 2}


def deal(book: Rulebook, players: int, counts: Mapping[str, int], rng: random.Random) -> Deal:
    """Deal two characters each (redeal if one player gets both Werewolf and Thief) and
    place them: the Werewolf and the Thief never under the chest house.

    The table and the composition are checked first (``deal_request``): the deck is
    the fixed one (``counts`` empty, or naming exactly it), and at least two players hold it
    (one player would hold both the Werewolf and the Thief at every redeal)."""
    players, counts = deal_request(book, players, counts)
    deck_of = fixed_deck(players)
    asked = {card: n for card, n in counts.items() if n}
    if players < 2:
        raise SetupError(f"{book.id} needs two players at least, not {players}")
    if counts and asked != deck_of:
        cards = ", ".join(f"{n} {card}" for card, n in deck_of.items())
        raise SetupError(f"{book.id} deals one deck only, for {players} players: {cards}")
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
