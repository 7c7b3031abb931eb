"""Random mafia-classic games match the exact theory of random play.

The recursion (lupus.sim.theory) is checked against hand-derived values, then the
simulator's mafia win rate with random bots is compared to it at several sizes, for both
first phases: within four standard errors (a false alarm about once in 16,000 runs, and
the seeds are fixed, so a run either always passes or always fails).
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from lupus.sim import SimConfig, simulate
from lupus.sim.theory import mafia_win_probability


def test_hand_derived_values() -> None:
    # 3 players, 1 mafioso, day first: the lynch hits him with chance 1/3, otherwise the
    # mafioso is half of the two left and wins.
    assert mafia_win_probability(3, 1, "day") == Fraction(2, 3)
    # Night first: the mafia kill a villager and are half of the two left.
    assert mafia_win_probability(3, 1, "night") == 1
    # 4 players, day first: 1/4 town wins at once; else night (3 left, 1 mafioso) kills
    # a villager and the mafia are half.
    assert mafia_win_probability(4, 1, "day") == Fraction(3, 4)
    # 5 players, night first: night -> day(4, 1) = 3/4.
    assert mafia_win_probability(5, 1, "night") == Fraction(3, 4)
    # day(5, 1) = 4/5 * night(4, 1) = 4/5 * day(3, 1) = 4/5 * 2/3.
    assert mafia_win_probability(5, 1, "day") == Fraction(8, 15)


def test_the_theory_refuses_nonsense() -> None:
    with pytest.raises(ValueError):
        mafia_win_probability(5, 0)
    with pytest.raises(ValueError):
        mafia_win_probability(5, 1, "dusk")


@pytest.mark.parametrize("first_phase", ["day", "night"])
@pytest.mark.parametrize(("players", "mafia"), [(5, 1), (8, 2), (11, 3)])
def test_random_play_matches_the_exact_probability(
    players: int, mafia: int, first_phase: str
) -> None:
    games = 3000
    config = SimConfig(
        "mafia-classic",
        players,
        {"mafia": mafia, "villager": players - mafia},
        {"first_phase": first_phase},
        seed=players * 10 + (first_phase == "day"),
    )
    result = simulate(config, games)
    p = float(mafia_win_probability(players, mafia, first_phase))
    observed = result.tally.wins["mafia"] / games
    se = math.sqrt(p * (1 - p) / games)
    assert abs(observed - p) < 4 * se, (observed, p, se)
