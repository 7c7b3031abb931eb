"""The Witch (Longanis): shown the victim, she may heal it and may poison someone.

One healing and one poison potion for the whole game, both usable the same night,
herself included. Her turn ends when she passes or has no potion left to use. The
tit-albert option ``longanis_potions = 1`` allows one potion in all, her choice.
"""

from __future__ import annotations

from typing import ClassVar

from lupus.engine.model import Action, Prompt, Value, alone, bare
from lupus.village.game import VillageGame
from lupus.village.plugin import Role, Verb
from lupus.village.steps import Ballot, seats


class Potions(Value):
    """What the Witch keeps across nights: her potions not yet used."""

    __slots__ = ("heal", "poison")
    FIELDS: ClassVar[tuple[str, ...]] = ("heal", "poison")

    def __init__(self) -> None:
        self.heal = 1
        self.poison = 1


def potions(g: VillageGame) -> Potions:
    kept = g.memory("witch")
    assert isinstance(kept, Potions)
    return kept


class WitchStep(Ballot):
    id = "witch"
    wake: str | None = "witch"
    options_follow_decisions = True  # a potion used is no longer offered

    def who(self, g: VillageGame) -> list[int]:
        return g.holders("witch")

    def started(self, g: VillageGame) -> None:
        self.done: set[int] = set()
        for witch in self.voters:
            g.emit("victim_shown", alone(witch), target=g.night.victim)
            if not self.can_brew(g):
                self.done.add(witch)  # no potion left to use: her turn is already over

    def budget(self, g: VillageGame) -> int:
        total = g.options.get("longanis_potions", 2)
        assert isinstance(total, int)
        left = potions(g)
        spent = 2 - left.heal - left.poison
        return total - spent

    def usable(self, g: VillageGame, kind: str) -> bool:
        left = potions(g)
        return (left.heal if kind == "heal" else left.poison) > 0 and self.budget(g) > 0

    def can_heal(self, g: VillageGame) -> bool:
        return self.usable(g, "heal") and g.night.victim is not None

    def can_brew(self, g: VillageGame) -> bool:
        """Whether a potion can still be used tonight (else passing is all she can do)."""
        return self.can_heal(g) or self.usable(g, "poison")

    def options(self, g: VillageGame, actor: int) -> tuple[Prompt, ...]:
        if actor in self.done:
            return ()
        found = []
        if self.can_heal(g):
            found.append(bare(actor, "heal"))
        if self.usable(g, "poison"):
            found.append(Prompt(actor, "poison", seats(g.living())))
        found.append(bare(actor, "pass"))
        return tuple(found)

    complete_when_all_chose = False  # see waiting

    def waiting(self, g: VillageGame) -> list[int]:
        return [w for w in self.voters if w not in self.done]

    def act(self, g: VillageGame, action: Action) -> None:
        witch = action.actor
        if action.verb == "heal":
            potions(g).heal -= 1
            g.night.healed = True
            g.emit("potion", alone(witch), kind="heal", target=g.night.victim)
        elif action.verb == "poison":
            potions(g).poison -= 1
            target = action.args[0]
            assert isinstance(target, int)
            g.night.poisoned.append(target)
            g.emit("potion", alone(witch), kind="poison", target=target)
        if action.verb == "pass" or not self.can_brew(g):
            self.done.add(witch)


ROLE = Role(
    "witch",
    card="witch",
    steps={"witch": WitchStep},
    memory=Potions,
    verbs=(
        Verb("heal", "witch", ("witch",), "night", targets="none"),
        Verb("poison", "witch", ("witch",), "night"),
        Verb("pass", "witch", ("witch",), "night", targets="none"),
    ),
)
