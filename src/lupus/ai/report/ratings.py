"""OpenSkill ratings of the player kinds, net of seat order.

Each game with a winner is one match of two teams ranked winners first: a team holds
each distinct player of its seats once (a kind overall, or ``kind@role`` for the
ratings by role), so a side's head count does not weigh as strength; a player on both
sides of a game (a kind playing itself) is rated on each and its two updates added.

Seat order is controlled by an offset: a first pass rates, together with the players,
one pseudo-member per seat position on the team that held it (``seat:3``), starting at
0; the second pass rates the players afresh with those seat members frozen at the
first pass's means and no uncertainty of their own. A win the seat positions already
explain then moves the players' ratings little, so a kind that sat in a lucky seat
more often is not credited for the seat. Games are taken in index order: the same
games give the same ratings.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

Member = tuple[int, str]  # (seat position, player)


@dataclass(frozen=True)
class Match:
    """One game: the winners' and the losers' (seat, player) pairs."""

    winners: tuple[Member, ...]
    losers: tuple[Member, ...]


def seat_member(seat: int) -> str:
    return f"seat:{seat}"


def _model() -> Any:
    from openskill.models import PlackettLuce  # (lazily: the report needs it, lupus not)

    return PlackettLuce()


def _rate(
    model: Any,
    matches: Sequence[Match],
    ratings: dict[str, Any],
    seats: bool,
    frozen: frozenset[str] = frozenset(),
) -> None:
    """One pass over ``matches``, updating ``ratings`` in place (``frozen`` kept)."""
    for match in matches:
        teams: list[list[str]] = []
        for side in (match.winners, match.losers):
            names = sorted({player for _, player in side})
            if seats:
                names += [seat_member(s) for s, _ in sorted(side)]
            teams.append(names)
        for name in teams[0] + teams[1]:
            if name not in ratings:
                start = 0.0 if name.startswith("seat:") else model.mu
                ratings[name] = model.rating(mu=start)
        new = model.rate([[ratings[n] for n in team] for team in teams], ranks=[1, 2])
        moved: dict[str, tuple[float, float]] = {}
        for team, rated in zip(teams, new, strict=True):
            for name, r in zip(team, rated, strict=True):
                old = ratings[name]
                dmu, sigma = moved.get(name, (0.0, r.sigma))
                moved[name] = (dmu + r.mu - old.mu, min(sigma, r.sigma))
        for name, (dmu, sigma) in moved.items():
            if name in frozen:
                continue
            ratings[name] = model.rating(mu=ratings[name].mu + dmu, sigma=sigma)


def rate(matches: Sequence[Match], control: bool = True) -> dict[str, dict[str, float | int]]:
    """Each player's ``mu``, ``sigma``, ``ordinal`` (mu - 3 sigma, the conservative
    rating) and ``games``; ``control=False`` skips the seat offset (for comparison)."""
    model = _model()
    ratings: dict[str, Any] = {}
    if control:
        _rate(model, matches, ratings, seats=True)
        offsets = {n: r for n, r in ratings.items() if n.startswith("seat:")}
        ratings = {n: model.rating(mu=r.mu, sigma=0.0) for n, r in offsets.items()}
        _rate(model, matches, ratings, seats=True, frozen=frozenset(offsets))
    else:
        _rate(model, matches, ratings, seats=False)
    games: Counter[str] = Counter()
    for match in matches:
        games.update({p for _, p in match.winners} | {p for _, p in match.losers})
    return {
        name: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal(), "games": games[name]}
        for name, r in sorted(ratings.items())
        if not name.startswith("seat:")
    }


def seat_offsets(matches: Sequence[Match]) -> dict[str, float]:
    """The first pass's seat members' means: how much each position is worth."""
    model = _model()
    ratings: dict[str, Any] = {}
    _rate(model, matches, ratings, seats=True)
    return {n: r.mu for n, r in sorted(ratings.items()) if n.startswith("seat:")}
