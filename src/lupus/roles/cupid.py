"""Cupid and the Lovers: a pair linked on the first night who live and die together.

The lovers wake to recognise each other (in tit-albert without learning the partner's
card). When one dies, the other dies at once of heartbreak. A lover never votes
against the partner; that restriction lives in the day vote's choices.
"""

from __future__ import annotations

from itertools import combinations

from lupus.engine.model import Prompt, alone
from lupus.village.game import VillageGame
from lupus.village.plugin import Role, Verb
from lupus.village.steps import Ballot, VillageStep


class CupidStep(Ballot):
    id = "cupid"
    wake: str | None = "cupid"

    def who(self, g: VillageGame) -> list[int]:
        return g.holders("cupid")

    def options(self, g: VillageGame, actor: int) -> tuple[Prompt, ...]:
        # A pair is listed the way the prompt normalizes what a player gives (any order).
        shape = Prompt(actor, "link", (), unordered=True)
        pairs = tuple(shape.normalize(pair) for pair in combinations(g.living(), 2))
        return (Prompt(actor, "link", pairs, unordered=True),)

    def resolve(self, g: VillageGame) -> None:
        for cupid in self.voters:
            action = self.choice.get(cupid)
            if action is None:
                continue
            a, b = action.args
            assert isinstance(a, int) and isinstance(b, int)
            g.lovers = (a, b)
            g.emit("linked", alone(cupid), players=[a, b])


class LoversStep(VillageStep):
    """The lovers wake and recognise each other; nobody decides anything."""

    id = "lovers"

    def begin(self, g: VillageGame) -> bool:
        if not g.in_deck("cupid"):
            return False
        g.emit("wake", None, step=self.id)
        if g.lovers is not None:
            show_role = g.rulebook.mechanics.lovers_know_partner_role
            for me, other in (g.lovers, g.lovers[::-1]):
                if show_role:
                    g.emit("in_love", alone(me), partner=other, player=other, role=g.roles[other])
                else:
                    g.emit("in_love", alone(me), partner=other)
        return False


def heartbreak(g: VillageGame, seat: int, cause: str) -> None:
    partner = g.partner(seat)
    if partner is not None and g.alive[partner]:
        g.kill(partner, "heartbreak")


ROLE = Role(
    "cupid",
    card="cupid",
    steps={"cupid": CupidStep, "lovers": LoversStep},
    on_death=heartbreak,
    death_order=0,  # the partner dies at once, before anything the death sets off
    verbs=(Verb("link", "cupid", ("cupid",), "night", first_only=True),),
)
