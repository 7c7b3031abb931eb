"""The Hunter: killed by the werewolves or by the vote, he shoots someone at once.

Poisoned or heartbroken he does not shoot (the seeds name only those two ways, and the
rulebook lists them in ``mechanics.hunter_triggers``). The shot comes before the win
check, so it can still turn the game.
"""

from __future__ import annotations

from lupus.bots.village_brain import VillageBrain
from lupus.engine.events import SEAT, EventSpec
from lupus.engine.interned import bare
from lupus.engine.model import Prompt
from lupus.village.game import VillageGame
from lupus.village.plugin import Play, Role, Verb
from lupus.village.steps import Ballot, seats


class ShootStep(Ballot):
    id = "hunter"

    def __init__(self, hunter: int) -> None:
        super().__init__()
        self.hunter = hunter

    def who(self, game: VillageGame) -> list[int]:
        return [self.hunter] if game.living else []

    def started(self, game: VillageGame) -> None:
        game.emit("hunter_aims", None, player=self.hunter)

    def options(self, game: VillageGame, actor: int) -> tuple[Prompt, ...]:
        return (Prompt(actor, "shoot", seats(game.living)), bare(actor, "pass"))

    def resolve(self, game: VillageGame) -> None:
        target = self.picked(self.hunter, "shoot")
        if target is None:
            game.emit("hunter_spares", None, player=self.hunter)
            return
        game.emit("shot", None, player=self.hunter, target=target)
        game.kill(target, "shot")


def on_death(game: VillageGame, seat: int, cause: str) -> None:
    if game.roles[seat] == "hunter" and cause in game.facts.hunter_triggers:
        game.shots.append(ShootStep(seat))


ROLE = Role(
    "hunter",
    weight=3,
    bot=Play({"shoot": VillageBrain.shoot}, taste=2, prey=-1),
    events=(
        EventSpec("hunter_aims", {"player": SEAT}, told="step", script="opens"),
        EventSpec("hunter_spares", {"player": SEAT}, told="say"),
    ),
    card="hunter",
    on_death=on_death,
    death_order=10,
    verbs=(
        Verb("shoot", "hunter", (), "any"),
        Verb("pass", "hunter", (), "any", targets="none"),
    ),
    messages={
        "hunter_aims": "{player}, the {N[hunter]}, takes aim with their last breath.",
        "hunter_spares": "{player} lowers their gun.",
    },
)
