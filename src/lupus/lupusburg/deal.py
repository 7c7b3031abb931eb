"""Random Lupusburg deals: two characters each, a chest under one house."""

from __future__ import annotations

import random

from lupus.engine.deal import Deal
from lupus.engine.draw import below, choice, shuffle


def deal(players: int, rng: random.Random) -> Deal:
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
