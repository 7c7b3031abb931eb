"""The heuristic bot: plays as a sensible person would, from its own view only.

It is handed a :class:`~lupus.engine.views.View` and a random generator, like every
bot, and keeps per-seat memory derived from nothing but the views it is handed (see
``lupus.bots.memory``). The rules of play live in a few modules per family, named in
``BRAINS``: for the village family (werewolf, tit-albert, maffia, mafia-classic)
``village_suspicion`` (the public suspicion), ``village_memory`` (a seat's private
facts) and ``village_brain`` (the decisions); for Lupusburg ``lupusburg_memory`` and
``lupusburg_brain``. docs/bots.md describes what each role does and how much better
than random it plays.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Generic, Protocol, TypeVar

from lupus.bots.base import Bot
from lupus.bots.lupusburg_brain import LupusburgBrain
from lupus.bots.lupusburg_memory import LupusburgMemory, LupusburgPublic
from lupus.bots.memory import Memories, Memory, Public
from lupus.bots.village_brain import VillageBrain
from lupus.bots.village_memory import VillageMemory
from lupus.bots.village_suspicion import VillagePublic
from lupus.engine.model import Action
from lupus.engine.views import View
from lupus.rulebooks import load
from lupus.rulebooks.schema import Rulebook

P = TypeVar("P", bound=Public)
M = TypeVar("M", bound=Memory[Any])


class Brain(Protocol):
    def act(self) -> Action: ...


class Heuristic(Generic[P, M]):
    """One family's heuristic: the memory each seat keeps, the public record the seats
    share, and the brain that decides from them."""

    def __init__(
        self,
        memory: type[M],
        public: Callable[[View], P],
        brain: Callable[[View, M, random.Random], Brain],
    ) -> None:
        self.memory = memory
        self.public = public
        self.brain = brain

    def memories(self) -> Memories[P]:
        return Memories(self.memory, self.public)

    def act(self, memories: Memories[P], view: View, rng: random.Random) -> Action:
        memory = memories.of(view)
        assert isinstance(memory, self.memory)
        return self.brain(view, memory, rng).act()


VILLAGE = Heuristic(VillageMemory, VillagePublic, VillageBrain)
LUPUSBURG = Heuristic(LupusburgMemory, LupusburgPublic, LupusburgBrain)

# The heuristic of each rulebook family (``Rulebook.family``): a family's bots read its
# own events, so a new family brings its own heuristic here.
BRAINS: dict[str, Heuristic[Any, Any]] = {
    "village": VILLAGE,
    "lupusburg": LUPUSBURG,
}


class HeuristicBot:
    name = "heuristic"

    def __init__(self, rulebook: str | Rulebook) -> None:
        book = load(rulebook) if isinstance(rulebook, str) else rulebook
        self.rulebook = book.id
        self.family = book.family
        heuristic = BRAINS.get(self.family)
        if heuristic is None:
            raise ValueError(f"{book.id}: no heuristic for the family {self.family!r}")
        self.heuristic = heuristic
        self.memories = heuristic.memories()

    def act(self, view: View, rng: random.Random) -> Action:
        if not view.prompts:
            raise ValueError(f"seat {view.seat} has nothing to do now")
        return self.heuristic.act(self.memories, view, rng)


def heuristic_bot(rulebook: str | Rulebook) -> Bot:
    return HeuristicBot(rulebook)
