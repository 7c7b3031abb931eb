"""The Thief: on the first night he may swap his card for one of the two extra cards.

If both extra cards are werewolves he must take one. The card he leaves goes back in
the middle; the card he takes is his role for the rest of the game.
"""

from __future__ import annotations

from lupus.engine.model import Action, Prompt, alone, bare
from lupus.village.game import VillageGame
from lupus.village.plugin import Role, Verb
from lupus.village.steps import Ballot


class ThiefStep(Ballot):
    id = "thief"
    wake: str | None = "thief"

    def who(self, g: VillageGame) -> list[int]:
        return g.holders("thief")

    def forced(self, g: VillageGame) -> bool:
        return all(card in g.pack_roles for card in g.extra_cards)

    def started(self, g: VillageGame) -> None:
        for thief in self.voters:
            g.emit("extra_cards", alone(thief), cards=list(g.extra_cards))

    def options(self, g: VillageGame, actor: int) -> tuple[Prompt, ...]:
        cards = tuple((c,) for c in sorted(set(g.extra_cards)))
        found = [Prompt(actor, "take", cards)]
        if not self.forced(g):
            found.append(bare(actor, "keep"))
        return tuple(found)

    def resolve(self, g: VillageGame) -> None:
        for thief in self.voters:
            action = self.choice.get(thief)
            if action is None and self.forced(g):
                action = Action(thief, "take", (g.extra_cards[0],))
            if action is None or action.verb != "take":
                continue
            card = str(action.args[0])
            g.extra_cards[g.extra_cards.index(card)] = g.roles[thief]
            g.give_role(thief, card)
            g.emit("role_taken", alone(thief), player=thief, role=card)


ROLE = Role(
    "thief",
    card="thief",
    steps={"thief": ThiefStep},
    verbs=(
        Verb("take", "thief", ("thief",), "night", first_only=True, targets="cards"),
        Verb("keep", "thief", ("thief",), "night", first_only=True, targets="none"),
    ),
)
