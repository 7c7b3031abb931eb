"""The Mafia (and the Godfather, one of them): they choose tonight's victim together.

Every living member of the pack (the rulebook's ``pack_tag``: Maffia and Gudfadern)
names a target with ``kill`` and sees the others' picks. The step resolves as soon as
every living member has named the same target (``lupus.village.pack``); while they
disagree it stays open and any of them may change his pick. If the game leader closes
it, the target named most often is the victim (a tie: the seeded random generator);
nobody named: no murder. A rulebook whose mafia need not agree (``pack_must_agree =
false``, the classic game) takes that plurality once every member has named someone.
There is no way to stay asleep. Whether the attack lands is settled after the protector
(see ``doctor``) or at dawn.
"""

from __future__ import annotations

from lupus.bots.village_brain import VillageBrain
from lupus.engine.counting import plurality
from lupus.engine.model import Action, Prompt
from lupus.village.game import VillageGame
from lupus.village.pack import PackBallot
from lupus.village.plugin import PACK, Play, Role, Verb
from lupus.village.steps import seats, tally


class MafiaStep(PackBallot):
    id = "mafia"

    def begin(self, game: VillageGame) -> bool:
        self.wake_up(game)
        self.voters = tuple(s for s in game.living if game.is_pack(s))
        self.pack_begins(game)
        game.emit("pack", self.voters, roles={m: game.roles[m] for m in self.voters})
        return True

    def options(self, game: VillageGame, actor: int) -> tuple[Prompt, ...]:
        own = game.facts.pack_kills_own
        return (
            Prompt(
                actor, "kill", seats([s for s in game.standing() if own or not game.is_pack(s)])
            ),
        )

    def targets(self) -> list[int]:
        return [t for t in (self.picked(m, "kill") for m in self.voters) if t is not None]

    def recorded(self, game: VillageGame, action: Action) -> None:
        game.emit("pack_choice", self.voters, player=action.actor, target=action.args[0])

    def resolve(self, game: VillageGame) -> None:
        named = tally(self.targets())
        victim = game.one_of(plurality(named)) if named else None
        game.emit("pack_victim", self.voters, target=victim)
        game.night.victim = victim


ROLE = Role(
    "mafia",
    weight=-6,
    bot=Play({"kill": VillageBrain.kill}),
    pack=True,
    steps={"mafia": MafiaStep},
    verbs=(Verb("kill", "mafia", (PACK,), "night", targets="standing"),),
    messages={
        "wake.mafia": "{N[pack]} wake up and choose whom to murder.",
        "step.mafia": "{N[pack]}",
    },
)
