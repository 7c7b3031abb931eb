"""The Mafia (and the Godfather, one of them): they choose tonight's victim together.

Every living member of the pack (the rulebook's ``pack_tag``: Maffia and Gudfadern)
names a target with ``kill`` and sees the others' picks. The step resolves as soon as
every living member has named a target and they all agree; while they disagree it stays
open and any of them may change his pick. If the game leader closes it, the target named
most often is the victim (a tie: the seeded random generator); nobody named: no murder.
There is no way to stay asleep. Whether the attack lands is settled after the protector
(see ``doctor``) or at dawn.
"""

from __future__ import annotations

from lupus.engine.game import pick_one, plurality
from lupus.engine.model import Action, Prompt
from lupus.village.game import VillageGame
from lupus.village.plugin import Role, Verb
from lupus.village.steps import Ballot, seats, tally


class MafiaStep(Ballot):
    id = "mafia"

    def begin(self, g: VillageGame) -> bool:
        g.emit("wake", None, step=self.id)
        self.voters = tuple(s for s in g.living() if g.is_pack(s))
        g.emit("pack", self.voters, roles={m: g.roles[m] for m in self.voters})
        return True

    def options(self, g: VillageGame, actor: int) -> tuple[Prompt, ...]:
        own = g.facts.pack_kills_own
        return (Prompt(actor, "kill", seats([s for s in g.standing() if own or not g.is_pack(s)])),)

    def targets(self) -> list[int]:
        return [t for t in (self.picked(m, "kill") for m in self.voters) if t is not None]

    complete_when_all_chose = False  # see waiting

    def waiting(self, g: VillageGame) -> list[int]:
        missing = [m for m in self.voters if m not in self.choice]
        if missing:
            return missing
        # Everyone has pointed, but not at the same player: they all still owe agreement
        # (unless the rulebook settles it by plurality, as the classic game does).
        agreed = len(set(self.targets())) <= 1
        if agreed or not g.facts.pack_must_agree:
            return []
        return list(self.voters)

    def recorded(self, g: VillageGame, action: Action) -> None:
        g.emit("pack_choice", self.voters, player=action.actor, target=action.args[0])

    def resolve(self, g: VillageGame) -> None:
        named = tally(self.targets())
        victim = pick_one(g.rng, plurality(named)) if named else None
        g.emit("pack_victim", self.voters, target=victim)
        g.night.victim = victim


ROLE = Role(
    "mafia",
    pack=True,
    steps={"mafia": MafiaStep},
    verbs=(Verb("kill", "mafia", ("@pack",), "night", targets="standing"),),
)
