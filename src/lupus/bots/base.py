"""The bot interface (the kinds of bots are made by ``lupus.bots.kinds``)."""

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
