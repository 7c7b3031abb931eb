"""The Hunter: killed by the werewolves or by the vote, he shoots someone at once.

Poisoned or heartbroken he does not shoot (the seeds name only those two ways, and the
rulebook lists them in ``mechanics.hunter_triggers``). The shot comes before the win
check, so it can still turn the game.
"""

from __future__ import annotations

from lupus.engine.model import Prompt, bare
from lupus.village.game import VillageGame
from lupus.village.plugin import Role, Verb
from lupus.village.steps import Ballot, seats


class ShootStep(Ballot):
    id = "hunter"

    def __init__(self, hunter: int) -> None:
        super().__init__()
        self.hunter = hunter

    def who(self, g: VillageGame) -> list[int]:
        return [self.hunter] if g.living() else []

    def started(self, g: VillageGame) -> None:
        g.emit("hunter_aims", None, player=self.hunter)

    def options(self, g: VillageGame, actor: int) -> tuple[Prompt, ...]:
        return (Prompt(actor, "shoot", seats(g.living())), bare(actor, "pass"))

    def resolve(self, g: VillageGame) -> None:
        target = self.picked(self.hunter, "shoot")
        if target is None:
            g.emit("hunter_spares", None, player=self.hunter)
            return
        g.emit("shot", None, player=self.hunter, target=target)
        g.kill(target, "shot")


def on_death(g: VillageGame, seat: int, cause: str) -> None:
    if g.roles[seat] == "hunter" and cause in g.facts.hunter_triggers:
        g.shots.append(ShootStep(seat))


ROLE = Role(
    "hunter",
    card="hunter",
    on_death=on_death,
    death_order=10,
    verbs=(
        Verb("shoot", "hunter", (), "any"),
        Verb("pass", "hunter", (), "any", targets="none"),
    ),
)
