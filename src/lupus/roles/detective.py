"""The Detective: each night he learns whether one player is town or mafia, not the role.

The result is the player's *side* (``RoleSpec.appears_as``, else its faction): the
Godfather appears as town. The event carries ``side``, never a role, so that nothing
but the side is disclosed. A Detective murdered tonight still investigates: the murder
takes effect at dawn.
"""

from __future__ import annotations

from lupus.engine.model import Prompt, alone
from lupus.village.game import VillageGame
from lupus.village.plugin import Role, Verb
from lupus.village.steps import Ballot, seats


class DetectiveStep(Ballot):
    id = "detective"
    wake: str | None = "detective"

    def who(self, g: VillageGame) -> list[int]:
        return g.holders("detective")

    def options(self, g: VillageGame, actor: int) -> tuple[Prompt, ...]:
        return (Prompt(actor, "inspect", seats([s for s in g.standing() if s != actor])),)

    def resolve(self, g: VillageGame) -> None:
        for detective in self.voters:
            target = self.picked(detective, "inspect")
            if target is not None:
                g.emit("inspection", alone(detective), player=target, side=g.side(target))


ROLE = Role(
    "detective",
    card="detective",
    steps={"detective": DetectiveStep},
    verbs=(Verb("inspect", "detective", ("detective",), "night", targets="standing"),),
)
