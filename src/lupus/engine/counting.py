"""Counting cards and votes, the way a replay can trust: plain dicts, and the game's
own generator drawn only on a real tie."""

from __future__ import annotations

import random
from collections.abc import Sequence

from lupus.engine import draw


def count_cards(*cards: Sequence[str]) -> dict[str, int]:
    """How many of each card (a plain dict: ``Counter`` is interpreted code)."""
    counts: dict[str, int] = {}
    for group in cards:
        for card in group:
            counts[card] = counts.get(card, 0) + 1
    return counts


def pick_one(rng: random.Random, tied: list[int]) -> int:
    """The only one, or one drawn by the game's generator: it draws only on a real tie,
    so a replay consumes the generator exactly as the original game did."""
    return tied[0] if len(tied) == 1 else draw.choice(rng, tied)


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
