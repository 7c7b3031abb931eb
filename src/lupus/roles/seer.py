"""The Seer: each night she looks at one player's card."""

from __future__ import annotations

from lupus.bots.village_brain import INSPECT
from lupus.bots.village_memory import VillageMemory
from lupus.engine.events import SEAT, TEXT, EventSpec
from lupus.engine.interned import alone
from lupus.engine.model import Prompt
from lupus.village.events import A_ROLE
from lupus.village.game import VillageGame
from lupus.village.plugin import Play, Role, Verb
from lupus.village.steps import Ballot, seats


class SeerStep(Ballot):
    id = "seer"
    wake = "seer"

    def who(self, game: VillageGame) -> list[int]:
        return game.holders("seer")

    def options(self, game: VillageGame, actor: int) -> tuple[Prompt, ...]:
        return (Prompt(actor, "inspect", seats([s for s in game.living if s != actor])),)

    def resolve(self, game: VillageGame) -> None:
        for seer in self.voters:
            target = self.picked(seer, "inspect")
            if target is not None:
                game.emit("vision", alone(seer), player=target, role=game.roles[target])


ROLE = Role(
    "seer",
    weight=7,
    bot=Play(
        {"inspect": INSPECT}, taste=5, prey=3, remembers={"vision": VillageMemory.on_inspected}
    ),
    events=(EventSpec("vision", {"player": SEAT, "role": TEXT}, discloses=A_ROLE, shows="card"),),
    card="seer",
    steps={"seer": SeerStep},
    verbs=(Verb("inspect", "seer", ("seer",), "night"),),
    learns=("inspect",),
    messages={
        "wake.seer": "The {N[seer]} wakes up and looks at a player's card.",
        "vision": "{viewer} looks at the card of {player}: {role}.",
        "step.seer": "{N[seer]}",
    },
)
