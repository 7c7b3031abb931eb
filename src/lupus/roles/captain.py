"""The Captain (Sefvilaz): an elected title whose vote counts twice.

Option ``captain``. Elected on the first day, before the first elimination vote, by a
plurality of all living players (a tie goes to a second round among the tied, then to
the seeded random generator). Where the rulebook says so (the werewolf seed: "elected
after having the majority of votes from other players") nobody votes for himself. He
breaks ties of the day vote. Dying, he names his successor; if the leader closes the
step before he names anyone, that missing input is a pass like any other: there is no
captain any more, and day-vote ties go to a second round.
"""

from __future__ import annotations

from lupus.bots.village_brain import VillageBrain
from lupus.bots.village_suspicion import VillagePublic
from lupus.engine.counting import plurality
from lupus.engine.draw import choice
from lupus.engine.events import INT, SEAT, SEATS, TEXT, EventSpec, field_variant
from lupus.engine.interned import bare
from lupus.engine.model import Action, Prompt
from lupus.village.game import VillageGame
from lupus.village.plugin import ANYONE, OptionNeed, Play, Role, Verb
from lupus.village.steps import Ballot, seats, tally


class ElectionStep(Ballot):
    id = "election"

    def __init__(self, candidates: tuple[int, ...] | None = None) -> None:
        super().__init__()
        self.candidates = candidates
        self.round = 1 if candidates is None else 2

    def begin(self, game: VillageGame) -> bool:
        if not game.option_on("captain") or game.captain is not None or game.number != 1:
            return False
        if self.candidates is None:
            self.candidates = game.living
        game.emit("election", None, round=self.round, candidates=list(self.candidates))
        self.voters = game.living
        return True

    def options(self, game: VillageGame, actor: int) -> tuple[Prompt, ...]:
        assert self.candidates is not None
        own = game.facts.captain_self_vote
        live = [c for c in self.candidates if game.alive[c] and (own or c != actor)]
        if not live:  # the only candidate left is himself
            return (bare(actor, "abstain"),)
        return (Prompt(actor, "elect", seats(live)), bare(actor, "abstain"))

    def refusal(self, game: VillageGame, action: Action) -> str | None:
        me = action.actor
        if (
            action.verb == "elect"
            and action.args == (me,)
            and not game.facts.captain_self_vote
            and me in (self.candidates or ())
        ):
            who = game.names[me]
            title = game.rulebook.name("captain")
            return f"{who} cannot elect {who}: the {title} is elected by the other players' votes"
        return None

    def recorded(self, game: VillageGame, action: Action) -> None:
        target = action.args[0] if action.args else None
        game.emit("ballot", None, player=action.actor, target=target, vote="elect")

    def resolve(self, game: VillageGame) -> None:
        assert self.candidates is not None
        votes = tally([self.picked(v, "elect") for v in self.voters])
        # Nobody voted: a tie among every candidate.
        tied = plurality(votes) if votes else [c for c in self.candidates if game.alive[c]]
        if len(tied) == 1:
            appoint(game, tied[0], "elected")
        elif self.round == 1:
            game.emit("tie", None, players=tied, vote="election")
            game.push_front(ElectionStep(tuple(tied)))
        else:
            game.emit("tie", None, players=tied, vote="election")
            appoint(game, choice(game.rng, tied), "drawn")


class SuccessionStep(Ballot):
    """The dying captain's last breath: he names his successor."""

    id = "succession"

    def __init__(self, captain: int) -> None:
        super().__init__()
        self.captain = captain

    def begin(self, game: VillageGame) -> bool:
        if not game.living or game.captain is not None:
            return False
        game.emit("succession", None, player=self.captain)
        self.voters = (self.captain,)
        return True

    def options(self, game: VillageGame, actor: int) -> tuple[Prompt, ...]:
        return (Prompt(actor, "appoint", seats(game.living)),)

    def resolve(self, game: VillageGame) -> None:
        chosen = self.picked(self.captain, "appoint")
        if chosen is not None and game.alive[chosen]:
            appoint(game, chosen, "appointed")
        else:
            game.emit("no_successor", None, player=self.captain)


def appoint(game: VillageGame, seat: int, how: str) -> None:
    game.captain = seat
    game.emit("captain", None, player=seat, how=how)


def on_death(game: VillageGame, seat: int, cause: str) -> None:
    if game.captain == seat:
        game.captain = None
        game.successions.append(SuccessionStep(seat))


ROLE = Role(
    "captain",
    bot=Play(
        {"elect": VillageBrain.elect, "appoint": VillageBrain.appoint},
        records={"captain": VillagePublic.on_captain, "election": VillagePublic.on_election},
    ),
    events=(
        EventSpec(
            "election",
            {"round": INT, "candidates": SEATS},
            told="step",
            script="opens",
            table="other_vote",
        ),
        EventSpec(
            "captain",
            {"player": SEAT, "how": TEXT},
            told="say",
            variant=field_variant("how"),
            table="title",
        ),
        EventSpec("succession", {"player": SEAT}, told="say"),
        EventSpec("no_successor", {"player": SEAT}, told="say"),
    ),
    steps={"election": ElectionStep},
    options={"captain": OptionNeed("bool")},
    on_death=on_death,
    death_order=20,
    verbs=(
        Verb("elect", "election", (ANYONE,), "day", first_only=True),
        Verb("abstain", "election", (ANYONE,), "day", first_only=True, targets="none"),
        Verb("appoint", "succession", (), "any"),
    ),
    messages={
        "election": "Election of the {N[captain]}: round {round}, candidates {players}.",
        "ballot.elect": "{player} votes for {target} as {N[captain]}.",
        "ballot.elect.none": "{player} abstains.",
        "captain.elected": "{player} is elected {N[captain]}.",
        "captain.appointed": "{player} is the new {N[captain]}.",
        "captain.drawn": "{player} becomes {N[captain]} by lot.",
        "succession": "{player}, the dying {N[captain]}, names a successor.",
        "no_successor": "{player} names no successor: there is no {N[captain]} any more.",
        "menu.elect": "Vote for {target} as {N[captain]}",
        "menu.appoint": "Name {target} the new {N[captain]}",
        "step.election": "election of the {N[captain]} (first day, option captain)",
    },
)
