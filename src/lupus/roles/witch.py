"""The Witch (Longanis): shown the victim, she may heal it and may poison someone.

One healing and one poison potion for the whole game, both usable the same night,
herself included. Her turn ends when she passes or has no potion left to use. The
tit-albert option ``longanis_potions = 1`` allows one potion in all, her choice.
"""

from __future__ import annotations

from lupus.engine.model import Action, Prompt, alone, bare
from lupus.engine.village import VillageGame
from lupus.roles.base import Ballot, seats


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
        spent = 2 - g.potions["heal"] - g.potions["poison"]
        return total - spent

    def usable(self, g: VillageGame, kind: str) -> bool:
        return g.potions[kind] > 0 and self.budget(g) > 0

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
            g.potions["heal"] -= 1
            g.night.healed = True
            g.emit("potion", alone(witch), kind="heal", target=g.night.victim)
        elif action.verb == "poison":
            g.potions["poison"] -= 1
            target = action.args[0]
            assert isinstance(target, int)
            g.night.poisoned.append(target)
            g.emit("potion", alone(witch), kind="poison", target=target)
        if action.verb == "pass" or not self.can_brew(g):
            self.done.add(witch)
