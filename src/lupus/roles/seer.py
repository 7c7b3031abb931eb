"""The Seer: each night she looks at one player's card."""

from __future__ import annotations

from lupus.engine.model import Prompt, alone
from lupus.village.game import VillageGame
from lupus.village.plugin import Role, Verb
from lupus.village.steps import Ballot, seats


class SeerStep(Ballot):
    id = "seer"
    wake: str | None = "seer"

    def who(self, g: VillageGame) -> list[int]:
        return g.holders("seer")

    def options(self, g: VillageGame, actor: int) -> tuple[Prompt, ...]:
        return (Prompt(actor, "inspect", seats([s for s in g.living() if s != actor])),)

    def resolve(self, g: VillageGame) -> None:
        for seer in self.voters:
            target = self.picked(seer, "inspect")
            if target is not None:
                g.emit("vision", alone(seer), player=target, role=g.roles[target])


ROLE = Role(
    "seer",
    card="seer",
    steps={"seer": SeerStep},
    verbs=(Verb("inspect", "seer", ("seer",), "night"),),
    learns=("inspect",),
)
