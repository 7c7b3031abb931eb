"""The exact winning chance of the mafia in the classic mafia game under random play.

Braverman, Etesami and Mossel ("Mafia: a theoretical study of players and coalitions
in a partial information environment", Annals of Applied Probability, 2008) and Migdał
("A mathematical model of the Mafia game", arXiv:1009.1031) study the game in which
every day the living lynch one of them and every night the mafia kill one villager.
When everybody plays at random, everything is symmetric between players:

* by day, every living player votes for a uniformly random living player and the
  plurality (ties drawn at random) is lynched; the votes are exchangeable, so each of
  the n living players is lynched with probability 1/n: a mafioso with probability m/n;
* by night, the mafia kill a uniformly random villager.

With n living players of whom m are mafia, and the mafia winning as soon as 2m >= n,
the town as soon as m = 0 (checked after every death), the mafia's chance is

    day(n, m)   = m/n * after(n-1, m-1, night) + (n-m)/n * after(n-1, m, night)
    night(n, m) = after(n-1, m, day)
    after(n, m, phase) = 0 if m == 0, 1 if 2m >= n, else phase(n, m)

which `mafia_win_probability` computes exactly, with fractions.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache


@cache
def _after(n: int, m: int, phase: str) -> Fraction:
    if m == 0:
        return Fraction(0)
    if 2 * m >= n:
        return Fraction(1)
    return _day(n, m) if phase == "day" else _night(n, m)


@cache
def _day(n: int, m: int) -> Fraction:
    return Fraction(m, n) * _after(n - 1, m - 1, "night") + Fraction(n - m, n) * _after(
        n - 1, m, "night"
    )


@cache
def _night(n: int, m: int) -> Fraction:
    return _after(n - 1, m, "day")


def mafia_win_probability(players: int, mafia: int, first_phase: str = "day") -> Fraction:
    """The exact probability that the mafia win a random game (``first_phase``: day|night)."""
    if first_phase not in ("day", "night"):
        raise ValueError("first_phase is 'day' or 'night'")
    if not 0 < mafia < players:
        raise ValueError("there must be mafia and villagers")
    return _after(players, mafia, first_phase)
