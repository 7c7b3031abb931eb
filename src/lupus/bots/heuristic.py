"""The heuristic bot: plays as a sensible person would, from its own view only.

It is handed a :class:`~lupus.engine.views.View` and a random generator, like every
bot, and keeps per-seat memory derived from nothing but the views it is handed (see
``lupus.bots.memory``). The rules of play live in one module per family:
``heuristic_village`` (werewolf, tit-albert, maffia, mafia-classic) and
``heuristic_lupusburg``. docs/bots.md describes what each role does and how much
better than random it plays.
"""

from __future__ import annotations

import random

from lupus.bots.base import Bot
from lupus.bots.heuristic_lupusburg import LupusburgBrain, LupusburgMemory, LupusburgPublic
from lupus.bots.heuristic_village import VillageBrain, VillageMemory, VillagePublic
from lupus.bots.memory import Memories
from lupus.engine.model import Action
from lupus.engine.views import View
from lupus.rulebooks import load


class HeuristicBot:
    name = "heuristic"

    def __init__(self, rulebook: str) -> None:
        self.rulebook = rulebook
        self.family = load(rulebook).family
        self.village = Memories(VillageMemory, VillagePublic)
        self.lupusburg = Memories(LupusburgMemory, LupusburgPublic)

    def act(self, view: View, rng: random.Random) -> Action:
        if not view.prompts:
            raise ValueError(f"seat {view.seat} has nothing to do now")
        if self.family == "lupusburg":
            burg = self.lupusburg.of(view)
            assert isinstance(burg, LupusburgMemory)
            return LupusburgBrain(view, burg, rng).act()
        memory = self.village.of(view)
        assert isinstance(memory, VillageMemory)
        return VillageBrain(view, memory, rng).act()


def heuristic_bot(rulebook_id: str) -> Bot:
    return HeuristicBot(rulebook_id)
