"""The Thief: on the first night he may swap his card for one of the two extra cards.

If both extra cards are werewolves he must take one. The card he leaves goes back in
the middle; the card he takes is his role for the rest of the game.

Any deal is a game (README): the werewolf cards may all lie among his two extra cards.
Set-up never calls a deal whose Thief plays already won; the win is checked once his
step is over instead, so that if no werewolf is in play after it (he kept his card, or
took the other one) the villagers win at once.
"""

from __future__ import annotations

from lupus.bots.village_brain import VillageBrain
from lupus.bots.village_memory import VillageMemory
from lupus.engine.events import SEAT, TEXT, TEXTS, EventSpec
from lupus.engine.interned import alone, bare
from lupus.engine.model import Action, Prompt
from lupus.village.events import A_ROLE
from lupus.village.game import VillageGame
from lupus.village.plugin import Play, Role, Verb
from lupus.village.steps import Ballot


class ThiefStep(Ballot):
    id = "thief"
    wake = "thief"

    def who(self, game: VillageGame) -> list[int]:
        return game.holders("thief")

    def forced(self, game: VillageGame) -> bool:
        return all(card in game.pack_roles for card in game.extra_cards)

    def started(self, game: VillageGame) -> None:
        for thief in self.voters:
            game.emit("extra_cards", alone(thief), cards=list(game.extra_cards))

    def options(self, game: VillageGame, actor: int) -> tuple[Prompt, ...]:
        cards = tuple((c,) for c in sorted(set(game.extra_cards)))
        found = [Prompt(actor, "take", cards)]
        if not self.forced(game):
            found.append(bare(actor, "keep"))
        return tuple(found)

    def resolve(self, game: VillageGame) -> None:
        for thief in self.voters:
            action = self.choice.get(thief)
            if action is None and self.forced(game):
                action = Action(thief, "take", (game.extra_cards[0],))
            if action is None or action.verb != "take":
                continue
            card = str(action.args[0])
            game.extra_cards[game.extra_cards.index(card)] = game.roles[thief]
            game.give_role(thief, card)
            game.emit("role_taken", alone(thief), player=thief, role=card)
        game.check_win()  # (the deal was judged after this step: see the module)


def thief(bot: VillageBrain) -> Action | None:
    """The heuristic bot's Thief: he takes the extra card he likes best (``Play.taste``),
    never a pack card while he may keep his own, and one of the pack's when both are."""
    take = bot.prompts.get("take")
    cards = [str(c[0]) for c in take.choices] if take else []
    taste = {c: bot.plays.taste.get(c, 0) for c in cards if c not in bot.m.pack_roles}
    if taste:
        card = max(sorted(taste), key=lambda c: taste[c])
        if taste[card] > 0 or "keep" not in bot.prompts:
            return Action(bot.view.seat, "take", (card,))
    keep = bot.plain("keep")
    if keep is not None:
        return keep
    if cards:  # both extra cards are werewolves: he must take one
        return Action(bot.view.seat, "take", (cards[0],))
    return None


ROLE = Role(
    "thief",
    weight=0,
    bot=Play(
        {"take": thief, "keep": thief}, remembers={"extra_cards": VillageMemory.on_cards_aside}
    ),
    extra_cards=2,
    events=(
        EventSpec("extra_cards", {"cards": TEXTS}),
        EventSpec("role_taken", {"player": SEAT, "role": TEXT}, discloses=A_ROLE, shows="held"),
    ),
    card="thief",
    steps={"thief": ThiefStep},
    verbs=(
        Verb("take", "thief", ("thief",), "night", first_only=True, targets="cards"),
        Verb("keep", "thief", ("thief",), "night", first_only=True, targets="none"),
    ),
    messages={
        "wake.thief": "The {N[thief]} wakes up and may swap their card.",
        "extra_cards": "The two cards in the middle are {cards}.",
        "role_taken": "{player} takes the card {role} and plays it from now on.",
        "menu.take": "Take the card {card}",
        "menu.keep": "Keep your card",
        "step.thief": "{N[thief]}",
    },
)
