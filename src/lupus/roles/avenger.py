"""The Avenger (Hämnaren): the night after a murder he wakes, and must shoot.

His step is announced and runs only if the mafia's attack killed someone the night
before (public: it was announced that morning). He must ``shoot`` a player other than
himself: there is no ``pass``; if the game leader closes his step without a shot,
nobody is shot. His shot kills at once (cause ``shot``), during the night, and is
announced at dawn with the night's other deaths. A role immune to the shot
(``RoleSpec.immune``: the Godfather) survives it, and the Avenger is not told why.
An Avenger murdered tonight still wakes and shoots: the murder takes effect at dawn.
"""

from __future__ import annotations

from lupus.engine.model import Prompt, alone
from lupus.village.game import VillageGame
from lupus.village.plugin import Role, Verb
from lupus.village.steps import Ballot, seats

CAUSE = "shot"


class AvengerStep(Ballot):
    id = "avenger"
    wake: str | None = "avenger"

    def begin(self, g: VillageGame) -> bool:
        if not g.murdered("night", g.number - 1):
            return False
        return super().begin(g)

    def who(self, g: VillageGame) -> list[int]:
        return g.holders("avenger")

    def options(self, g: VillageGame, actor: int) -> tuple[Prompt, ...]:
        return (Prompt(actor, "shoot", seats([s for s in g.standing() if s != actor])),)

    def resolve(self, g: VillageGame) -> None:
        for avenger in self.voters:
            target = self.picked(avenger, "shoot")
            if target is None:
                continue
            g.emit("shot", alone(avenger), player=avenger, target=target)
            if g.survives(target, CAUSE):
                g.emit("unharmed", [], player=target, role=g.roles[target], cause=CAUSE)
                continue
            g.kill(target, CAUSE)


ROLE = Role(
    "avenger",
    card="avenger",
    steps={"avenger": AvengerStep},
    verbs=(Verb("shoot", "avenger", ("avenger",), "night", targets="standing"),),
)
