"""The classic lynch: every living player votes for another, the plurality is lynched.

A tie is broken by the game's seeded random generator, so every day ends with a death
(unless the leader closes the vote with no ballot at all). Used by ``mafia-classic``,
the reference game whose random play has an exact solution (see ``lupus.sim.theory``).
"""

from __future__ import annotations

from lupus.bots.village_brain import VillageBrain
from lupus.engine.counting import plurality
from lupus.engine.model import Action, Prompt
from lupus.village.game import VillageGame
from lupus.village.plugin import ANYONE, Play, Role, Verb
from lupus.village.steps import Ballot, seats, tally


class LynchStep(Ballot):
    id = "lynch"

    def begin(self, game: VillageGame) -> bool:
        self.voters = game.living
        game.emit("vote_opens", None, round=1, candidates=list(self.voters))
        return True

    def options(self, game: VillageGame, actor: int) -> tuple[Prompt, ...]:
        return (Prompt(actor, "vote", seats([s for s in self.voters if s != actor])),)

    def recorded(self, game: VillageGame, action: Action) -> None:
        game.emit("ballot", None, player=action.actor, target=action.args[0], vote="vote")

    def resolve(self, game: VillageGame) -> None:
        votes = tally([self.picked(v, "vote") for v in self.voters])
        game.emit("tally", None, votes=dict(sorted(votes.items())))
        if not votes:
            game.emit("no_elimination", None, reason="no_votes")
            return
        tied = plurality(votes)
        if len(tied) > 1:
            game.emit("tie", None, players=tied, vote="vote")
        game.kill(game.one_of(tied), "vote")


ROLE = Role(
    "lynch",
    bot=Play({"vote": VillageBrain.vote}),
    steps={"lynch": LynchStep},
    eliminates=(("lynch",),),
    verbs=(Verb("vote", "lynch", (ANYONE,), "day"),),
)
