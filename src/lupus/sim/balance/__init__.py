"""Searching compositions for even odds: the engine behind ``lupus balance``.

For each player count the search lists every composition the rulebook accepts (the pack
size in a range, every special role from 0 to its ``max`` in sets of ``comes_in``, the
filler role making up the rest, two extra cards with a thief), then spends its games by
successive halving: every candidate plays a few games, the third closest to the target
plays three times as many, and so on until the ``top`` finalists have played ``games``
games each. The rulebook's recommended composition is played to ``games`` too, and is
ranked with the finalists. Each round but the last judges a composition on its own games
shrunk towards an additive logistic model fitted on every composition's games (see
`pooled_model`), so that a handful of games each is enough to drop the hopeless ones.

Fair means (each family says it: ``Family.main_faction``, ``Family.fair_share``):

* village rulebooks (werewolf, tit-albert, maffia, mafia-classic): the village side (the
  first faction: villagers or town) wins half of the games;
* Lupusburg, where one player wins alone: the Werewolf card is worth as much as any other
  deal. A townsfolk player wins with chance (1 - p)/(n - 1) on average when the Werewolf
  wins with chance p, and these are equal when p = 1/n: the target is 1/n.

Game ``i`` of a composition is seeded by (seed, i) only, and every composition of a run
shares the seed, so the same seed gives the same table whatever ``workers`` (and a
composition's figure is the one ``lupus simulate --roles ... --seed`` prints), and
compositions are compared on common random numbers.

The modules: ``candidates`` (the compositions a rulebook accepts for a table),
``halving`` (the schedule of rounds, the pooled model, the cuts), ``searching`` (the
games played on a process pool, and `search`), ``report`` (the results, their JSON and
the plot). The names below are the way in.
"""

from lupus.sim.balance.candidates import (
    Counts,
    PackRange,
    acceptable,
    candidates,
    cards_needed,
    closest_by_points,
    default_pack_range,
    key,
    ordered,
    pack_size,
    points,
)
from lupus.sim.balance.halving import (
    ETA,
    MIN_FIRST_GAMES,
    PRIOR_GAMES,
    pooled_model,
    prune,
    schedule,
)
from lupus.sim.balance.report import BalanceResult, CountResult, Scored, plot
from lupus.sim.balance.searching import _Player as _Player  # the tests play through it
from lupus.sim.balance.searching import main_faction, search, target

__all__ = [
    "ETA",
    "MIN_FIRST_GAMES",
    "PRIOR_GAMES",
    "BalanceResult",
    "CountResult",
    "Counts",
    "PackRange",
    "Scored",
    "acceptable",
    "candidates",
    "cards_needed",
    "closest_by_points",
    "default_pack_range",
    "key",
    "main_faction",
    "ordered",
    "pack_size",
    "plot",
    "points",
    "pooled_model",
    "prune",
    "schedule",
    "search",
    "target",
]
