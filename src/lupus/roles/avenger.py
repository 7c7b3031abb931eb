"""The Avenger (Hämnaren): the night after a murder he wakes, and must shoot.

His step is announced and runs only after a murder the night before: the mafia's
target died of it at dawn (public: it was announced that morning). A target the Doctor
saved, or who died earlier that night of another cause (this shot, heartbreak), is no
murder (README). He must ``shoot`` a player other than
himself: there is no ``pass``; if the game leader closes his step without a shot,
nobody is shot. His shot kills at once (cause ``shot``), during the night, and is
announced at dawn with the night's other deaths. A role immune to the shot
(``RoleSpec.immune``: the Godfather) survives it, and the Avenger is not told why.
An Avenger murdered tonight still wakes and shoots: the murder takes effect at dawn.
"""

from __future__ import annotations

from lupus.bots.village_brain import VillageBrain
from lupus.engine.events import SEAT, TEXT, EventSpec
from lupus.engine.interned import alone
from lupus.engine.model import Prompt
from lupus.village.events import A_ROLE
from lupus.village.game import VillageGame
from lupus.village.plugin import Play, Role, Verb
from lupus.village.steps import Ballot, seats

CAUSE = "shot"


class AvengerStep(Ballot):
    id = "avenger"
    wake = "avenger"

    def begin(self, game: VillageGame) -> bool:
        if not game.murdered("night", game.number - 1):
            return False
        return super().begin(game)

    def who(self, game: VillageGame) -> list[int]:
        return game.holders("avenger")

    def options(self, game: VillageGame, actor: int) -> tuple[Prompt, ...]:
        return (Prompt(actor, "shoot", seats([s for s in game.standing() if s != actor])),)

    def resolve(self, game: VillageGame) -> None:
        for avenger in self.voters:
            target = self.picked(avenger, "shoot")
            if target is None:
                continue
            game.emit("shot", alone(avenger), player=avenger, target=target)
            if game.survives(target, CAUSE):
                game.emit("unharmed", [], player=target, role=game.roles[target], cause=CAUSE)
                continue
            game.kill(target, CAUSE)


ROLE = Role(
    "avenger",
    weight=3,
    bot=Play({"shoot": VillageBrain.shoot}),
    events=(
        EventSpec(
            "unharmed", {"player": SEAT, "role": TEXT, "cause": TEXT}, discloses=A_ROLE, told="say"
        ),
    ),
    card="avenger",
    steps={"avenger": AvengerStep},
    verbs=(Verb("shoot", "avenger", ("avenger",), "night", targets="standing"),),
    messages={
        "wake.avenger": "The {N[avenger]} wakes up and must shoot someone.",
        "unharmed": "{player} survives the shot: {role}.",
        "step.avenger": "the {N[avenger]} (only after a murder)",
    },
)
