"""Random village deals: one card per seat, and a Thief's two extra cards."""

from __future__ import annotations

import random
from collections.abc import Mapping

from lupus.engine.counting import count_cards
from lupus.engine.deal import Deal, deal_request
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

    The table and the composition are checked first (``deal_request``), and the cards
    counted against the seats, before a single card is laid out.

    A deal must leave a game the rules accept: a pack and someone to play against, and
    the rulebook's minimum configuration under ``options``. When the Thief's card is
    among the two left aside, those two are out of the game with it, which may take a
    card the minimum needs (the Seer): the cards are dealt again.
    """
    # Counted before anything is built: a composition of 10**10 cards costs nothing.
    players, counts = deal_request(book, players, counts)
    thief = counts.get("thief", 0) > 0
    wanted = players + (2 if thief else 0)
    total = sum(counts.values())
    if total != wanted:
        extra = " (a thief needs two extra cards)" if thief else ""
        raise SetupError(f"{total} cards for {players} players{extra}")
    deck = [role for role, count in sorted(counts.items()) for _ in range(count)]
    pack = book.facts.pack
    checked = thief and book.minimum is not None  # (only then can a deal fall short)
    for _ in range(1000):
        shuffle(rng, deck)
        roles, extra_cards = tuple(deck[:players]), tuple(deck[players:])
        if "thief" not in roles:
            extra_cards = ()
            if checked and below_minimum(book, players, count_cards(roles), options):
                continue
        if any(r in pack for r in roles) and not all(r in pack for r in roles):
            return Deal(roles=roles, extra_cards=extra_cards)
    raise SetupError("this composition cannot be dealt with a werewolf and a villager in play")
