"""Cupid and the Lovers: a pair linked on the first night who live and die together.

The lovers wake to recognise each other (in tit-albert without learning the partner's
card). When one dies, the other dies at once of heartbreak. A lover never votes
against the partner; that restriction lives in the day vote's choices.
"""

from __future__ import annotations

from itertools import combinations

from lupus.bots.memory import as_int, best
from lupus.bots.village_brain import VillageBrain
from lupus.bots.village_memory import VillageMemory
from lupus.engine.events import SEAT, SEATS, TEXT, EventSpec
from lupus.engine.interned import alone
from lupus.engine.model import Action, Event, Prompt
from lupus.village.events import A_ROLE
from lupus.village.game import VillageGame
from lupus.village.plugin import Play, Role, Verb
from lupus.village.steps import Ballot, VillageStep


class CupidStep(Ballot):
    id = "cupid"
    wake = "cupid"

    def who(self, game: VillageGame) -> list[int]:
        return game.holders("cupid")

    def options(self, game: VillageGame, actor: int) -> tuple[Prompt, ...]:
        # A pair is listed the way the prompt normalizes what a player gives (any order).
        shape = Prompt(actor, "link", (), unordered=True)
        pairs = tuple(shape.normalize(pair) for pair in combinations(game.living, 2))
        return (Prompt(actor, "link", pairs, unordered=True),)

    def resolve(self, game: VillageGame) -> None:
        for cupid in self.voters:
            action = self.choice.get(cupid)
            if action is None:
                continue
            a, b = action.args
            assert isinstance(a, int) and isinstance(b, int)
            game.lovers = (a, b)
            game.emit("linked", alone(cupid), players=[a, b])


class LoversStep(VillageStep):
    """The lovers wake and recognise each other; nobody decides anything."""

    id = "lovers"

    def begin(self, game: VillageGame) -> bool:
        if not game.in_deck("cupid"):
            return False
        self.wake_up(game)
        if game.lovers is not None:
            show_role = game.rulebook.mechanics.lovers_know_partner_role
            for me, other in (game.lovers, game.lovers[::-1]):
                if show_role:
                    game.emit(
                        "in_love", alone(me), partner=other, player=other, role=game.roles[other]
                    )
                else:
                    game.emit("in_love", alone(me), partner=other)
        return False


def told_role(ev: Event) -> str | None:
    """A lover told his partner's card (where the rulebook says so)."""
    return "role" if "role" in ev.data else None


def heartbreak(game: VillageGame, seat: int, cause: str) -> None:
    """The partner dies at once of heartbreak, unless he dies at this same moment of
    his own cause (``VillageGame.kill_together``: poisoned at the victim's dawn, a
    starving werewolf): heartbreak is only for a lover who would otherwise have lived."""
    partner = game.partner(seat)
    if partner is not None and game.alive[partner] and partner not in game.doomed:
        game.kill(partner, "heartbreak")


def cupid(bot: VillageBrain) -> Action | None:
    """The heuristic bot's Cupid: he links himself with the player he trusts most, where
    he may, else the two he trusts most."""
    prompt = bot.prompts["link"]
    me = bot.m.me
    mine = [c for c in prompt.choices if me in c]
    pool = mine or list(prompt.choices)
    if not pool:
        return None

    def trust(pair: tuple[int | str, ...]) -> float:
        other = [as_int(s) for s in pair if s != me]
        return -sum(bot.m.susp.get(s, 0.0) for s in other)

    pair = best(pool, trust, bot.rng)
    return None if pair is None else Action(me, "link", pair)


ROLE = Role(
    "cupid",
    weight=-3,
    bot=Play({"link": cupid}, taste=1, remembers={"in_love": VillageMemory.on_partner}),
    events=(
        EventSpec("linked", {"players": SEATS}, script="noted"),
        # ``player`` and ``role`` where the rulebook tells lovers each other's role.
        EventSpec(
            "in_love",
            {"partner": SEAT, "player": SEAT, "role": TEXT},
            optional=frozenset({"player", "role"}),
            discloses=A_ROLE,
            variant=told_role,
        ),
    ),
    card="cupid",
    steps={"cupid": CupidStep, "lovers": LoversStep},
    on_death=heartbreak,
    death_order=0,  # the partner dies at once, before anything the death sets off
    verbs=(Verb("link", "cupid", ("cupid",), "night", first_only=True),),
    messages={
        "wake.cupid": "{N[cupid]} wakes up and picks the two Lovers.",
        "wake.lovers": "The Lovers wake up and recognise each other.",
        "linked": "{players} will be the Lovers.",
        "in_love": "{viewer} is in love with {partner}.",
        "in_love.role": "{viewer} is in love with {partner} (card: {role}).",
        "menu.link": "Make {targets} the Lovers",
        "step.cupid": "{N[cupid]}",
        "step.lovers": "the Lovers",
    },
)
