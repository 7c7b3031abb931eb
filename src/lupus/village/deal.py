"""Random village deals: one card per seat, and a Thief's two extra cards."""

from __future__ import annotations

import random
from collections.abc import Mapping

from lupus.engine.counting import count_cards
from lupus.engine.deal import Deal
from lupus.engine.draw import shuffle
from lupus.engine.errors import SetupError
from lupus.rulebooks.schema import OptionValue, Rulebook
from lupus.village.checks import below_minimum


def deal(
    book: Rulebook,
    players: int,
    counts: Mapping[str, int],
    rng: random.Random,
    options: Mapping[str, OptionValue],
) -> Deal:
    """Shuffle the cards of ``counts`` and deal them to ``players`` seats.

    A deal must leave a game the rules accept: a pack and someone to play against, and
    the rulebook's minimum configuration under ``options``. When the Thief's card is
    among the two left aside, those two are out of play with it, which may take a card
    the minimum needs (the Seer): the cards are dealt again. Otherwise the two stay the
    deal's extra cards: they are still cards of the game, so the Thief's step (and
    that of the other card aside) is announced and runs, with nobody to wake, as a dead
    role's does; leaving it out would tell the table that the Thief is not among them.
    """
    deck = [role for role, count in sorted(counts.items()) for _ in range(count)]
    thief = "thief" in deck
    wanted = players + (2 if thief else 0)
    if len(deck) != wanted:
        extra = " (a thief needs two extra cards)" if thief else ""
        raise SetupError(f"{len(deck)} cards for {players} players{extra}")
    pack = book.facts.pack
    checked = thief and book.minimum is not None  # (only then can a deal fall short)
    for _ in range(1000):
        shuffle(rng, deck)
        roles, extra_cards = tuple(deck[:players]), tuple(deck[players:])
        aside = "thief" not in roles  # (then the two aside are out of play)
        if aside and checked and below_minimum(book, players, count_cards(roles), options):
            continue
        if any(r in pack for r in roles) and not all(r in pack for r in roles):
            return Deal(roles=roles, extra_cards=extra_cards)
    raise SetupError("this composition cannot be dealt with a werewolf and a villager in play")
