"""The village's day vote: plurality, the captain counting twice and breaking ties.

A tie: a living captain picks among the tied; otherwise a second round among the tied
in which every living player votes; a second tie eliminates nobody. A vote with no
ballot at all eliminates nobody. A lover never votes against the partner. A vote may
be changed until the step resolves.
"""

from __future__ import annotations

from lupus.bots.village_brain import VillageBrain
from lupus.engine.counting import plurality
from lupus.engine.events import SEAT, EventSpec
from lupus.engine.interned import bare
from lupus.engine.model import Action, Prompt
from lupus.village.game import VillageGame
from lupus.village.plugin import ANYONE, Play, Role, Verb
from lupus.village.steps import Ballot, seats


class VoteStep(Ballot):
    id = "vote"

    def __init__(self, candidates: tuple[int, ...] | None = None) -> None:
        super().__init__()
        self.candidates = candidates
        self.round = 1 if candidates is None else 2

    def begin(self, game: VillageGame) -> bool:
        self.voters = game.living
        pool = self.candidates if self.candidates is not None else self.voters
        self.pool = [c for c in pool if game.alive[c]]
        self.targets = seats(self.pool)  # the choices of everyone not in love with one
        game.emit("vote_opens", None, round=self.round, candidates=self.pool)
        return True

    def options(self, game: VillageGame, actor: int) -> tuple[Prompt, ...]:
        partner = game.partner(actor)
        targets = self.targets
        if partner is not None and partner in self.pool:
            targets = seats([c for c in self.pool if c != partner])
        return (Prompt(actor, "vote", targets), bare(actor, "abstain"))

    def recorded(self, game: VillageGame, action: Action) -> None:
        target = action.args[0] if action.args else None
        game.emit("ballot", None, player=action.actor, target=target, vote="vote")

    def resolve(self, game: VillageGame) -> None:
        counts = [0] * game.n
        captain = game.captain
        for voter, action in self.choice.items():
            if action.verb == "vote":
                target = action.args[0]
                assert isinstance(target, int)
                counts[target] += 2 if captain is not None and voter == captain else 1
        tally = {seat: votes for seat, votes in enumerate(counts) if votes}  # in seat order
        game.emit("tally", None, votes=tally)
        if not tally:
            game.emit("no_elimination", None, reason="no_votes")
            return
        tied = plurality(tally)
        if len(tied) == 1:
            game.kill(tied[0], "vote")
            return
        game.emit("tie", None, players=tied, vote="vote")
        if self.round == 2:
            game.emit("no_elimination", None, reason="second_tie")
            return
        captain = game.captain
        if captain is not None and game.alive[captain]:
            game.push_front(DecideStep(tied))
        else:
            game.push_front(VoteStep(tuple(tied)))


class DecideStep(Ballot):
    """A tie in the day vote while the captain lives: he picks among the tied."""

    id = "decide"

    def __init__(self, tied: list[int]) -> None:
        super().__init__()
        self.tied = tied

    def begin(self, game: VillageGame) -> bool:
        captain = game.captain
        if captain is None or not game.alive[captain]:
            return False
        self.voters = (captain,)
        return True

    def options(self, game: VillageGame, actor: int) -> tuple[Prompt, ...]:
        partner = game.partner(actor)
        return (Prompt(actor, "decide", seats([t for t in self.tied if t != partner])),)

    def resolve(self, game: VillageGame) -> None:
        chosen = self.picked(self.voters[0], "decide")
        if chosen is None:
            game.push_front(VoteStep(tuple(self.tied)))
            return
        game.emit("decided", None, player=self.voters[0], target=chosen)
        game.kill(chosen, "vote")


ROLE = Role(
    "vote",
    bot=Play({"vote": VillageBrain.vote, "decide": VillageBrain.decide}),
    events=(EventSpec("decided", {"player": SEAT, "target": SEAT}, told="say"),),
    steps={"vote": VoteStep},
    eliminates=(("vote",),),
    verbs=(
        Verb("vote", "vote", (ANYONE,), "day"),
        Verb("abstain", "vote", (ANYONE,), "day", targets="none"),
        Verb("decide", "decide", (ANYONE,), "day"),
    ),
    messages={
        "ballot.vote.none": "{player} abstains.",
        "decided": "The {N[captain]}, {player}, decides: {target} is eliminated.",
        "menu.decide": "Eliminate {target}",
        "step.vote": "the village's vote",
    },
)
