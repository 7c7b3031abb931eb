"""The random dealer deals every game the rules accept as often as chance does.

README: a deal whose only werewolf cards are the Thief's two extra cards is a normal
game, "and the random dealer deals such decks as often as chance does". For tiny decks
the exact chance of every deal is computable: each ordering of the cards is equally
likely, the first cards go to the seats and the last two lie aside (the Thief's extra
cards when a player holds him, out of play otherwise, but still the deal's extra cards:
docs/decisions.md, "Thief's card aside"), and an ordering set-up
refuses is shuffled again, so each deal set-up accepts has the chance of its orderings
among all accepted ones. Set-up (``new_game``) is the judge of what is accepted; the
dealer's frequencies over many seeded deals are compared with these exact chances
(Pearson's chi-square, at a level a correct dealer fails once in a million runs).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction
from itertools import permutations

import pytest

from lupus import SetupError, deal, new_game
from lupus.rulebooks.schema import OptionValue

Deal = tuple[tuple[str, ...], tuple[str, ...]]

# (rulebook, players, composition, options)
DECKS: list[tuple[str, int, dict[str, int], dict[str, OptionValue]]] = [
    # Every ordering is a game; the Thief holds both werewolves' cards aside 1 in 10.
    ("tit-albert", 3, {"thief": 1, "werewolf": 2, "villager": 2}, {}),
    # The one werewolf aside with the Thief's card is no game (dealt again); aside beside
    # a villager, with the Thief dealt, it is one.
    ("werewolf", 3, {"thief": 1, "werewolf": 1, "villager": 3}, {"lift_minimum": True}),
    ("tit-albert", 4, {"thief": 1, "werewolf": 1, "seer": 1, "villager": 3}, {}),
]
DEALS = 20_000


def exact_chances(
    rules: str, players: int, counts: dict[str, int], options: dict[str, OptionValue]
) -> dict[Deal, Fraction]:
    """Each deal set-up accepts -> its chance, from every ordering of the cards."""
    cards = [card for card, k in sorted(counts.items()) for _ in range(k)]
    names = [f"P{i}" for i in range(players)]
    orderings: Counter[Deal] = Counter()
    total = math.factorial(len(cards))  # (equal cards: each ordering counted once each)
    for order in permutations(cards):
        roles, aside = order[:players], order[players:]
        orderings[(roles, aside)] += 1
    accepted: dict[Deal, int] = {}
    for (roles, extra), ways in orderings.items():
        try:
            new_game(rules, names, roles, extra, options=dict(options))
        except SetupError:
            continue
        accepted[(roles, extra)] = ways
    kept = sum(accepted.values())
    assert 0 < kept <= total
    return {d: Fraction(ways, kept) for d, ways in accepted.items()}


def dealt(
    rules: str, players: int, counts: dict[str, int], options: dict[str, OptionValue]
) -> Counter[Deal]:
    rng = random.Random(2024)
    found: Counter[Deal] = Counter()
    for _ in range(DEALS):
        d = deal(rules, players, counts, rng, options)
        found[(d.roles, d.extra_cards)] += 1
    return found


def chi_square_limit(dof: int, z: float = 4.75) -> float:
    """The chi-square value exceeded with chance about 1e-6 (z = 4.75), after Wilson
    and Hilferty."""
    a = 2 / (9 * dof)
    return float(dof * (1 - a + z * math.sqrt(a)) ** 3)


def only_werewolves_aside(d: Deal) -> bool:
    roles, extra = d
    return "thief" in roles and "werewolf" not in roles and "werewolf" in extra


@pytest.mark.parametrize(("rules", "players", "counts", "options"), DECKS)
def test_the_dealer_deals_each_accepted_deal_as_often_as_chance(
    rules: str, players: int, counts: dict[str, int], options: dict[str, OptionValue]
) -> None:
    chances = exact_chances(rules, players, counts, options)
    found = dealt(rules, players, counts, options)
    refused = set(found) - set(chances)
    assert not refused, f"dealt what set-up refuses: {sorted(refused)[:3]}"
    chi2 = sum((found[d] - DEALS * float(p)) ** 2 / (DEALS * float(p)) for d, p in chances.items())
    assert chi2 < chi_square_limit(len(chances) - 1), (chi2, len(chances))
    # The README's case, on its own: the only werewolf cards lie aside with the Thief
    # dealt. Its exact chance is positive, and the dealer's frequency is within five
    # standard deviations of it.
    p = float(sum(q for d, q in chances.items() if only_werewolves_aside(d)))
    seen = sum(k for d, k in found.items() if only_werewolves_aside(d))
    assert p > 0
    assert abs(seen - DEALS * p) < 5 * math.sqrt(DEALS * p * (1 - p)), (seen, DEALS * p)


def test_the_exact_chances_of_the_smallest_deck() -> None:
    """Hand-counted: of the 5!/(2!2!) = 30 orderings of Thief, 2 Tit Albert and 2
    Vilazwas at three seats, 3 leave both Tit Albert aside with the Thief dealt (all 30
    are games); of the 20 orderings of the werewolf deck with one werewolf, 2 leave it
    aside with the Thief (three villagers: no game), 6 beside a villager with the Thief
    dealt (a game in which he chooses): 6 of the 18 that are games."""
    first = exact_chances(*DECKS[0])
    assert sum(p for d, p in first.items() if only_werewolves_aside(d)) == Fraction(3, 30)
    second = exact_chances(*DECKS[1])
    assert sum(p for d, p in second.items() if only_werewolves_aside(d)) == Fraction(6, 18)
    assert (("villager",) * 3, ()) not in second


@pytest.mark.parametrize(
    ("rules", "players", "counts", "options", "message"),
    [
        # tit-albert's 1 to 4 Tit Albert count the Voler's extra cards: five may all
        # come into play, so the composition is refused before any shuffle.
        ("tit-albert", 10, {"werewolf": 5, "thief": 1, "villager": 6}, {}, "at most 4"),
        ("tit-albert", 7, {"werewolf": 2, "thief": 1, "villager": 6}, {"quick": True}, "quick"),
        ("werewolf", 8, {"seer": 1, "villager": 7}, {}, "no werewolf"),
        # No shuffle meets the minimum (one werewolf card): refused after the tries.
        ("werewolf", 8, {"werewolf": 1, "thief": 1, "seer": 1, "villager": 7}, {}, "minimum"),
    ],
)
def test_a_composition_no_shuffle_makes_a_game_of_is_refused(
    rules: str,
    players: int,
    counts: dict[str, int],
    options: dict[str, OptionValue],
    message: str,
) -> None:
    with pytest.raises(SetupError, match=message):
        deal(rules, players, counts, random.Random(0), options)
