"""The Witch (Longanis): shown the victim, she may heal it and may poison someone.

One healing and one poison potion for the whole game, both usable the same night,
herself included. Her turn ends when she passes or has no potion left to use. The
tit-albert option ``longanis_potions = 1`` allows one potion in all, her choice.
"""

from __future__ import annotations

from typing import ClassVar

from lupus.engine.events import SEAT, SEAT_OR_NONE, TEXT, EventSpec
from lupus.engine.interned import alone, bare
from lupus.engine.model import Action, Prompt, Value
from lupus.village.game import VillageGame
from lupus.village.plugin import OptionNeed, Role, Verb
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


ROLE = Role(
    "witch",
    events=(
        EventSpec("victim_shown", {"target": SEAT_OR_NONE}),
        EventSpec("potion", {"kind": TEXT, "target": SEAT}, script="noted"),
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
