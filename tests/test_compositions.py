"""Every size a rulebook allows has a recommended deck (issue 25): a table of any
size opens with a ready deck, werewolf's 3 to 7 under the house rule that lifts its
minimum, which the family's check plays them under (and no other size needs)."""

from __future__ import annotations

import random

import pytest

import lupus
from lupus.engine.deal import seat_names
from lupus.families import deal, family_of, load
from lupus.rulebooks import available
from lupus.village.family import house_rules


@pytest.mark.parametrize("rules", available())
def test_every_size_the_rulebook_allows_has_a_deck(rules: str) -> None:
    book = load(rules)
    sizes = range(book.min_players, book.max_players + 1)
    missing = [n for n in sizes if str(n) not in book.compositions]
    assert missing == [], f"{rules} recommends no deck for {missing} players"


@pytest.mark.parametrize("rules", available())
def test_only_a_table_below_the_minimum_needs_the_house_rule(rules: str) -> None:
    """The house rule is needed exactly below the rulebook's minimum (werewolf under 8
    players), and a deck of every size deals and sets up with it (or none)."""
    book = load(rules)
    least = book.minimum.players if book.minimum is not None else 0
    for size, counts in book.compositions.items():
        n = int(size)
        options = house_rules(book, n, counts)
        assert bool(options) == (n < least), size
        dealt = deal(book, n, counts, random.Random(n), options)
        game = family_of(book).new_game(book, seat_names(n), dealt, options, n)
        assert game.n == n


def test_werewolf_below_eight_is_refused_without_the_house_rule() -> None:
    book = load("werewolf")
    counts = book.compositions["6"]
    with pytest.raises(lupus.SetupError, match="minimum configuration"):
        deal(book, 6, counts, random.Random(0), {})
    assert house_rules(book, 6, counts) == {"lift_minimum": True}
