"""The Witch (Longanis): shown the victim, she may heal it and may poison someone.

One healing and one poison potion for the whole game, both usable the same night,
herself included. Her turn ends when she passes or has no potion left to use. The
tit-albert option ``longanis_potions = 1`` allows one potion in all, her choice.
"""

from __future__ import annotations

from typing import ClassVar

from lupus.bots.village_brain import VillageBrain, targets
from lupus.bots.village_memory import VillageMemory
from lupus.bots.village_suspicion import FOLLOW_FLOOR
from lupus.engine.events import SEAT, SEAT_OR_NONE, TEXT, EventSpec, field_variant
from lupus.engine.interned import alone, bare
from lupus.engine.model import Action, Prompt, Value
from lupus.village.game import VillageGame
from lupus.village.plugin import OptionNeed, Play, Role, Verb
from lupus.village.steps import Ballot, seats


class Potions(Value):
    """What the Witch keeps across nights: her potions not yet used."""

    __slots__ = ("heal", "poison")
    FIELDS: ClassVar[tuple[str, ...]] = ("heal", "poison")

    def __init__(self) -> None:
        self.heal = 1
        self.poison = 1


def potions(game: VillageGame) -> Potions:
    kept = game.memory("witch")
    assert isinstance(kept, Potions)
    return kept


class WitchStep(Ballot):
    id = "witch"
    wake = "witch"

    def who(self, game: VillageGame) -> list[int]:
        return game.holders("witch")

    def started(self, game: VillageGame) -> None:
        self.done: set[int] = set()
        for witch in self.voters:
            game.emit("victim_shown", alone(witch), target=game.night.victim)
            if not self.can_brew(game):
                self.done.add(witch)  # no potion left to use: her turn is already over

    def budget(self, game: VillageGame) -> int:
        total = game.options.get("longanis_potions", 2)
        assert isinstance(total, int)
        left = potions(game)
        spent = 2 - left.heal - left.poison
        return total - spent

    def usable(self, game: VillageGame, kind: str) -> bool:
        left = potions(game)
        return (left.heal if kind == "heal" else left.poison) > 0 and self.budget(game) > 0

    def can_heal(self, game: VillageGame) -> bool:
        return self.usable(game, "heal") and game.night.victim is not None

    def can_brew(self, game: VillageGame) -> bool:
        """Whether a potion can still be used tonight (else passing is all she can do)."""
        return self.can_heal(game) or self.usable(game, "poison")

    def options(self, game: VillageGame, actor: int) -> tuple[Prompt, ...]:
        if actor in self.done:
            return ()
        found = []
        if self.can_heal(game):
            found.append(bare(actor, "heal"))
        if self.usable(game, "poison"):
            found.append(Prompt(actor, "poison", seats(game.living)))
        found.append(bare(actor, "pass"))
        return tuple(found)

    def decided(self, game: VillageGame, actor: int) -> bool:
        return actor in self.done  # she may heal, then still poison

    def act(self, game: VillageGame, action: Action) -> None:
        witch = action.actor
        if action.verb == "heal":
            potions(game).heal -= 1
            game.night.healed = True
            game.emit("potion", alone(witch), kind="heal", target=game.night.victim)
        elif action.verb == "poison":
            potions(game).poison -= 1
            target = action.args[0]
            assert isinstance(target, int)
            game.night.poisoned.append(target)
            game.emit("potion", alone(witch), kind="poison", target=target)
        if action.verb == "pass" or not self.can_brew(game):
            self.done.add(witch)
        for each in self.voters:
            self.offers.forget(each)  # a potion used is no longer offered (they share them)


def witch(bot: VillageBrain) -> Action | None:
    """The heuristic bot's Witch: she heals the victim when it is herself, her partner,
    or (for the village) someone she does not suspect; she poisons a sure enemy, or a
    clear suspect; else she passes."""
    m = bot.m
    victim = m.victim
    if "heal" in bot.prompts and victim is not None and m.side() != "pack":
        mine = victim == m.me or victim == m.partner
        worth = not m.bad(victim) and m.suspicion(victim) < FOLLOW_FLOOR
        if mine or (worth and m.side() == "village"):
            return bot.plain("heal")
    if "poison" in bot.prompts:
        cands = [c for c in targets(bot.prompts["poison"]) if c != m.me]
        if m.side() == "village":
            sure = [c for c in cands if m.bad(c)]
            if sure:
                return bot.one("poison", sure[0])
            pool = [c for c in cands if not m.good(c)]
            if pool:
                ranked = sorted((m.suspicion(c) for c in pool), reverse=True)
                second = ranked[1] if len(ranked) > 1 else 0.0
                if ranked[0] >= 2.0 and ranked[0] >= second + 1.0:
                    return bot.one("poison", bot.enemy_pick(pool))
    return bot.plain("pass")


ROLE = Role(
    "witch",
    weight=4,
    bot=Play(
        {"heal": witch, "poison": witch},
        taste=4,
        prey=2,
        remembers={"victim_shown": VillageMemory.on_victim},
    ),
    events=(
        EventSpec("victim_shown", {"target": SEAT_OR_NONE}, shows="victim"),
        EventSpec(
            "potion", {"kind": TEXT, "target": SEAT}, script="noted", variant=field_variant("kind")
        ),
    ),
    card="witch",
    steps={"witch": WitchStep},
    options={"longanis_potions": OptionNeed("int")},
    memory=Potions,
    verbs=(
        Verb("heal", "witch", ("witch",), "night", targets="none"),
        Verb("poison", "witch", ("witch",), "night"),
        Verb("pass", "witch", ("witch",), "night", targets="none"),
    ),
    messages={
        "wake.witch": "The {N[witch]} wakes up and is shown the victim.",
        "victim_shown": "The {N[witch]} is shown the victim: {target}.",
        "potion.heal": "The {N[witch]} uses the healing potion on {target}.",
        "potion.poison": "The {N[witch]} pours the poison for {target}.",
        "menu.heal": "Use the healing potion",
        "menu.poison": "Poison {target}",
        "step.witch": "{N[witch]}",
    },
)
