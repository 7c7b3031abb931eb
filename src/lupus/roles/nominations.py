"""The day of nominations: open discussion, last defences, a strict-majority banishment.

1. ``nominations``: each living player may ``nominate`` one other living player (at
   most one at a time), ``withdraw`` his nomination and nominate again, until the game
   leader closes the discussion: only his ``close`` ends it (``waiting`` lists those who
   have not nominated, for information). Nobody nominated: no vote, straight to night.
2. ``defence``: each nominee in turn gives a last defence (an announcement, no input).
3. ``banishment``: every living player has one vote in all, for one nominee, or
   abstains; a nominee may vote, for himself too. The ballots are shown together once
   the vote is over (the seed: hands are raised at the same time). A nominee with the
   votes of more than half of the living players is banished (cause ``vote``);
   otherwise nobody leaves. If the leader closes the vote, the missing voters abstain.
"""

from __future__ import annotations

from lupus.bots.village_brain import VillageBrain
from lupus.bots.village_memory import VillageMemory
from lupus.bots.village_suspicion import VillagePublic
from lupus.engine.events import INT, SEAT, SEATS, EventSpec
from lupus.engine.interned import bare
from lupus.engine.model import Action, Prompt
from lupus.village.game import VillageGame
from lupus.village.plugin import ANYONE, Play, Role, Verb
from lupus.village.steps import Ballot, VillageStep, seats, tally


class NominationsStep(VillageStep):
    id = "nominations"

    def __init__(self) -> None:
        self.nominations: dict[int, int] = {}  # nominator -> nominee, in the order given
        # Each player's nominate prompt, built once: nobody dies during the discussion.
        self._nominate: dict[int, tuple[Prompt, ...]] = {}

    def begin(self, game: VillageGame) -> bool:
        game.nominees = []
        game.emit("nominations_open", None)
        return True

    def prompts(self, game: VillageGame) -> list[Prompt]:
        return [p for s in game.living for p in self.prompts_for(game, s)]

    def prompts_for(self, game: VillageGame, actor: int) -> tuple[Prompt, ...]:
        if not game.alive[actor]:
            return ()
        if actor in self.nominations:
            return (bare(actor, "withdraw"),)
        offer = self._nominate.get(actor)
        if offer is None:
            others = seats([s for s in game.living if s != actor])
            offer = self._nominate[actor] = (Prompt(actor, "nominate", others),)
        return offer

    def waiting(self, game: VillageGame) -> list[int]:
        return [s for s in game.living if s not in self.nominations]

    def first_waiting(self, game: VillageGame) -> int | None:
        for seat in game.living:
            if seat not in self.nominations:
                return seat
        return None

    def complete(self, game: VillageGame) -> bool:
        return self.closed  # only the leader ends the discussion

    def act(self, game: VillageGame, action: Action) -> None:
        actor = action.actor
        if action.verb == "withdraw":
            withdrawn = self.nominations.pop(actor)
            game.emit("withdrawal", None, player=actor, target=withdrawn)
            return
        nominee = action.args[0]
        assert isinstance(nominee, int)
        self.nominations[actor] = nominee
        game.emit("nomination", None, player=actor, target=nominee)

    def resolve(self, game: VillageGame) -> None:
        nominees = list(dict.fromkeys(self.nominations.values()))
        game.nominees = nominees
        if nominees:
            game.emit("nominees", None, players=nominees)
        else:
            game.emit("no_nominations", None)


class DefenceStep(VillageStep):
    """Each nominee's last defence, in the order they were nominated."""

    id = "defence"

    def begin(self, game: VillageGame) -> bool:
        for nominee in game.nominees:
            if game.alive[nominee]:
                game.emit("defence", None, player=nominee)
        return False


class BanishmentStep(Ballot):
    id = "banishment"

    def begin(self, game: VillageGame) -> bool:
        self.pool = [s for s in game.nominees if game.alive[s]]
        if not self.pool:
            return False
        self.voters = game.living
        self.needed = len(self.voters) // 2 + 1
        self.targets = seats(self.pool)
        game.emit("banishment_opens", None, candidates=self.pool, needed=self.needed)
        return True

    def options(self, game: VillageGame, actor: int) -> tuple[Prompt, ...]:
        return (Prompt(actor, "vote", self.targets), bare(actor, "abstain"))

    def resolve(self, game: VillageGame) -> None:
        targets = [self.picked(voter, "vote") for voter in self.voters]
        for voter, target in zip(self.voters, targets, strict=True):
            game.emit("ballot", None, player=voter, target=target, vote="banish")
        votes = tally(targets)  # nominee -> votes, in the order first voted for
        game.emit("tally", None, votes=dict(sorted(votes.items())))
        banished = [s for s, n in votes.items() if n >= self.needed]
        if banished:
            game.kill(banished[0], "vote")
        else:
            game.emit("no_elimination", None, reason="no_majority")


ROLE = Role(
    "nominations",
    bot=Play(
        {"nominate": VillageBrain.nominate, "vote": VillageBrain.vote},
        remembers={"nomination": VillageMemory.on_accusation},
        records={
            "nominations_open": VillagePublic.on_nominations_open,
            "nomination": VillagePublic.on_nomination,
            "withdrawal": VillagePublic.on_withdrawal,
            "banishment_opens": VillagePublic.on_banishment_opens,
        },
    ),
    events=(
        EventSpec("nominations_open", {}, told="step", script="opens", table="nominations"),
        EventSpec("nomination", {"player": SEAT, "target": SEAT}, script="echoes"),
        EventSpec(
            "withdrawal", {"player": SEAT, "target": SEAT}, script="echoes", table="withdraws"
        ),
        EventSpec("nominees", {"players": SEATS}, told="step"),
        EventSpec("no_nominations", {}, told="say", table="decides"),
        EventSpec("defence", {"player": SEAT}, told="step"),
        EventSpec(
            "banishment_opens",
            {"candidates": SEATS, "needed": INT},
            told="step",
            script="opens",
            table="counted_vote",
        ),
    ),
    steps={"nominations": NominationsStep, "defence": DefenceStep, "banishment": BanishmentStep},
    eliminates=(("nominations", "banishment"),),
    verbs=(
        Verb("nominate", "nominations", (ANYONE,), "day"),
        Verb("withdraw", "nominations", (ANYONE,), "day", targets="none"),
        Verb("vote", "banishment", (ANYONE,), "day"),
        Verb("abstain", "banishment", (ANYONE,), "day", targets="none"),
    ),
    messages={
        "nominations_open": "Discussion: each player may nominate one other player for banishment.",
        "nomination": "{player} nominates {target}.",
        "withdrawal": "{player} withdraws the nomination of {target}.",
        "nominees": "The discussion is closed. Nominated: {players}.",
        "no_nominations": "The discussion is closed. Nobody is nominated: no vote today.",
        "defence": "{player} makes a last defence.",
        "banishment_opens": (
            "The vote, one vote each: for {one_of}, or abstain. It takes {needed} votes to banish."
        ),
        "ballot.banish": "{player} votes to banish {target}.",
        "ballot.banish.none": "{player} abstains.",
        "menu.nominate": "Nominate {target}",
        "menu.withdraw": "Withdraw your nomination",
        "step.nominations": "discussion and nominations",
        "step.defence": "the nominees' last defence",
        "step.banishment": "the banishment vote (more than half of the living)",
    },
)
