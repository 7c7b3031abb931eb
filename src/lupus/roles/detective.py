"""The Detective: each night he learns whether one player is town or mafia, not the role.

The result is the player's *side* (``RoleSpec.appears_as``, else its faction): the
Godfather appears as town. The event carries ``side``, never a role, so that nothing
but the side is disclosed. A Detective murdered tonight still investigates: the murder
takes effect at dawn.
"""

from __future__ import annotations

from lupus.bots.village_brain import INSPECT
from lupus.bots.village_memory import VillageMemory
from lupus.engine.events import SEAT, TEXT, EventSpec
from lupus.engine.interned import alone
from lupus.engine.model import Prompt
from lupus.village.game import VillageGame
from lupus.village.plugin import Play, Role, Verb
from lupus.village.steps import Ballot, seats


class DetectiveStep(Ballot):
    id = "detective"
    wake = "detective"

    def who(self, game: VillageGame) -> list[int]:
        return game.holders("detective")

    def options(self, game: VillageGame, actor: int) -> tuple[Prompt, ...]:
        return (Prompt(actor, "inspect", seats([s for s in game.standing() if s != actor])),)

    def resolve(self, game: VillageGame) -> None:
        for detective in self.voters:
            target = self.picked(detective, "inspect")
            if target is not None:
                side = game.side(target)
                game.emit("inspection", alone(detective), player=target, side=side, by=detective)


ROLE = Role(
    "detective",
    weight=7,
    bot=Play({"inspect": INSPECT}, prey=3, remembers={"inspection": VillageMemory.on_side}),
    events=(
        # ``player`` is investigated, ``by`` the Detective.
        EventSpec("inspection", {"player": SEAT, "side": TEXT, "by": SEAT}, shows="side"),
    ),
    card="detective",
    steps={"detective": DetectiveStep},
    verbs=(Verb("inspect", "detective", ("detective",), "night", targets="standing"),),
    messages={
        "wake.detective": "The {N[detective]} wakes up and investigates a player.",
        "inspection": "{by} investigates {player}, who sides with {side}.",
        "step.detective": "the {N[detective]}",
    },
)
