"""Counting cards and votes, the way a replay can trust: plain dicts (a tie's draw is
the game's own, ``Game.one_of``)."""

from __future__ import annotations

from collections.abc import Sequence


def count_cards(*cards: Sequence[str]) -> dict[str, int]:
    """How many of each card (a plain dict: ``Counter`` is interpreted code)."""
    counts: dict[str, int] = {}
    for group in cards:
        for card in group:
            counts[card] = counts.get(card, 0) + 1
    return counts


def plurality(tally: dict[int, int]) -> list[int]:
    """The seats with the most votes (several on a tie; none when nobody got a vote)."""
    top = 0
    tied: list[int] = []
    for seat, votes in tally.items():
        if votes > top:
            top = votes
            tied = [seat]
        elif votes == top and top > 0:
            tied.append(seat)
    if len(tied) > 1:
        tied.sort()
    return tied
