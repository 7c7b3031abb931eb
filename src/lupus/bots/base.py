"""The bot interface and the registry of bot kinds."""

from __future__ import annotations

import random
from typing import Final, Protocol

from lupus.engine.model import Action
from lupus.engine.views import View

PASSIVE: Final = frozenset({"pass", "abstain", "sleep", "keep", "withdraw"})
"""Verbs that decline to act; a random bot takes them only when nothing else is open."""


class Bot(Protocol):
    name: str

    def act(self, view: View, rng: random.Random) -> Action:
        """One decision for ``view.seat``, from ``view.prompts``."""
        ...


def make_bot(kind: str, rulebook: str) -> Bot:
    from lupus.bots.random_bot import RandomBot

    if kind == "random":
        return RandomBot()
    if kind == "heuristic":
        from lupus.bots.heuristic import heuristic_bot

        return heuristic_bot(rulebook)
    raise ValueError(f"unknown bot kind {kind!r} (random, heuristic)")
