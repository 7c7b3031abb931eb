"""Building a game from a rulebook and a deal; the one entry point for every front end."""

from __future__ import annotations

from collections.abc import Sequence

from lupus.engine.errors import SetupError
from lupus.engine.game import Game
from lupus.engine.village import VillageGame
from lupus.rulebooks import load
from lupus.rulebooks.schema import OptionValue, Rulebook


def new_game(
    rules: str | Rulebook,
    players: Sequence[str],
    roles: Sequence[str] = (),
    extra_cards: Sequence[str] = (),
    options: dict[str, OptionValue] | None = None,
    seed: int = 0,
    *,
    characters: Sequence[Sequence[str]] = (),
    chests: Sequence[int] = (),
    burgomaster: int = 0,
    bag: Sequence[int] | None = None,
) -> Game:
    """A started game with a fixed deal (nothing shuffled), ready for its first prompts.

    Village rulebooks take ``roles`` (one card per player, in seat order) and, with a
    Thief, ``extra_cards``; Lupusburg takes ``characters`` (two per player, under house
    1 and house 2), ``chests`` (1 or 2 per player), the first ``burgomaster`` and
    optionally the ``bag``'s order.
    """
    book = load(rules) if isinstance(rules, str) else rules
    if book.family == "lupusburg":
        from lupus.lupusburg.game import LupusburgGame

        if roles:
            raise SetupError("Lupusburg deals two characters per player, not role cards")
        return LupusburgGame(book, players, characters, chests, burgomaster, bag, options, seed)
    return VillageGame(book, players, roles, extra_cards, options, seed)
