"""Building a game from a rulebook and a deal; the one entry point for every front end."""

from __future__ import annotations

from collections.abc import Sequence

from lupus.engine.errors import SetupError
from lupus.engine.game import Game
from lupus.rulebooks import load
from lupus.rulebooks.schema import OptionValue, Rulebook


def new_game(
    rules: str | Rulebook,
    players: Sequence[str],
    roles: Sequence[str],
    extra_cards: Sequence[str] = (),
    options: dict[str, OptionValue] | None = None,
    seed: int = 0,
) -> Game:
    """A started game with a fixed deal (nothing shuffled), ready for its first prompts."""
    book = load(rules) if isinstance(rules, str) else rules
    if book.family == "roles":
        from lupus.engine.village import VillageGame

        return VillageGame(book, players, roles, extra_cards, options, seed)
    raise SetupError(f"the {book.family} family is not playable yet")
