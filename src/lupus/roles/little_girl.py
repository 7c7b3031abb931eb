"""The Little Girl: she may peep during the werewolves' step.

She decides in a step of her own, called (``wake``) just before the werewolves' step
whenever her card is in the game, alive or not, like every step: ``spy`` (she will
peep while they choose) or ``pass``. The werewolves' step then waits for the pack
alone, so that nothing the pack sees (its prompts, its victim, when they come) depends
on whether she is alive: a werewolf who has chosen never waits for her.

Peeping shows her the werewolves who opened their eyes and the victim they chose.
A werewolf who stays asleep cannot be seen (the seeds give sleeping as the werewolves'
way to lower the risk of being spied on) and cannot catch her. She is caught with
probability ``little_girl_catch_chance``; then she is the victim instead, and the
werewolves learn who she is. The chance is drawn whenever her card is in the game and
a werewolf is awake, whether she spied, passed, is dead or out of the game: the game's
generator moves on the same way whatever she did, so no later draw the pack sees (a
tie broken) tells it anything about her.
"""

from __future__ import annotations

from lupus.bots.village_brain import VillageBrain
from lupus.engine.events import SEAT, SEAT_OR_NONE, SEAT_TEXT, TEXT, EventSpec
from lupus.engine.interned import alone, bare
from lupus.engine.model import Action, Prompt
from lupus.village.events import A_ROLE, SOME_ROLES
from lupus.village.game import VillageGame
from lupus.village.plugin import OptionNeed, Play, Role, Verb
from lupus.village.steps import Ballot

ROLE_ID = "little-girl"


class LittleGirlStep(Ballot):
    """She decides whether she will peep during the werewolves' step that follows."""

    id = "little_girl"
    wake = ROLE_ID

    def who(self, game: VillageGame) -> list[int]:
        return game.holders(ROLE_ID)

    def options(self, game: VillageGame, actor: int) -> tuple[Prompt, ...]:
        return (bare(actor, "spy"), bare(actor, "pass"))

    def resolve(self, game: VillageGame) -> None:
        # A leader's close counts as a pass.
        game.night.spying = [s for s in self.voters if self.picked_verb(s) == "spy"]

    def picked_verb(self, actor: int) -> str | None:
        action = self.choice.get(actor)
        return None if action is None else action.verb


def watch(game: VillageGame, awake: list[int], victim: int | None) -> int | None:
    """The pack has chosen: each girl who decided to peep sees it and may be caught.
    Returns the night's victim (a girl caught, else the pack's)."""
    if not game.in_deck(ROLE_ID):
        return victim
    roll = game.rng.random() if awake else 1.0  # (drawn whatever she did: see above)
    for girl in game.night.spying:
        if game.alive[girl]:
            victim = peep(game, girl, awake, victim, roll)
    return victim


def peep(
    game: VillageGame, girl: int, awake: list[int], victim: int | None, roll: float
) -> int | None:
    """Show her what she sees; return the night's victim (herself if caught)."""
    if not awake:
        game.emit("spied_nothing", alone(girl))
        return victim
    game.emit("spied", alone(girl), roles={w: game.roles[w] for w in awake}, target=victim)
    chance = float(game.option("little_girl_catch_chance"))
    if roll < chance:
        witnesses = [*[s for s in game.living if game.is_pack(s)], girl]
        game.emit("caught", witnesses, player=girl, role=game.roles[girl])
        return girl
    return victim


def little_girl(bot: VillageBrain) -> Action | None:
    """The heuristic bot's Little Girl: she spies while the chance of being caught is
    small and she does not know the whole pack yet."""
    m = bot.m
    chance = bot.view.options.get("little_girl_catch_chance", 0.2)
    risk = float(chance) if isinstance(chance, int | float) else 0.2
    known_wolves = sum(1 for r in m.known.values() if r in m.pack_roles)
    if risk <= 0.35 and known_wolves < max(1, m.pack_total):
        return bot.plain("spy")
    return bot.plain("pass")


ROLE = Role(
    "little-girl",
    weight=2,
    bot=Play({"spy": little_girl}, taste=3, prey=1),
    events=(
        EventSpec("spied", {"roles": SEAT_TEXT, "target": SEAT_OR_NONE}, discloses=SOME_ROLES),
        EventSpec("spied_nothing", {}),
        EventSpec("caught", {"player": SEAT, "role": TEXT}, discloses=A_ROLE, told="say"),
    ),
    card=ROLE_ID,
    steps={"little_girl": LittleGirlStep},
    options={"little_girl_catch_chance": OptionNeed("float", required=True)},
    verbs=(
        Verb("spy", "little_girl", (ROLE_ID,), "night", targets="none"),
        Verb("pass", "little_girl", (ROLE_ID,), "night", targets="none"),
    ),
    messages={
        "wake.little_girl": (
            "The {N[little-girl]} decides whether she will peep at {N[pack]} while they choose."
        ),
        "spied": "Peeping, {viewer} sees {roles} choose {target}.",
        "spied_nothing": "Peeping, {viewer} sees nobody awake.",
        "caught": "{N[pack]} catch {player}, the {role}, peeping: she is their victim instead.",
        "menu.spy": "Peep",
        "step.little_girl": "{N[little-girl]} (decides whether to peep at {N[pack]})",
    },
)
