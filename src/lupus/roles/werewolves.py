"""The werewolves' step: each living werewolf names a victim or stays asleep.

The pack agrees (``lupus.village.pack``): the step resolves as soon as every living
werewolf has named the same victim, or all stay asleep; a member may change his choice
until then, and a mix (two names, or a name and sleep) keeps the step open until the
game leader (a timer) closes it. Then, as always, the victim is the player named most
often, ties broken by the game's seeded random generator, and a member who named
nobody (asleep, or silent) counts for nobody; a werewolf may be the victim. Where the
rulebook says so (the werewolf seed: "If no werewolves open their eyes, they die of
hunger and the villagers win"), a pack that stays wholly asleep starves (all asleep,
or the leader closing with nobody named): each living werewolf dies (cause ``hunger``,
that night), his death sets off what any death does (a lover's heartbreak), the village
is told at once and the villagers win.
The step waits for the pack alone: the Little Girl decides in her own step, before
this one, whether she peeps during it (see ``little_girl``), so that what the pack sees
never depends on whether she lives.
"""

from __future__ import annotations

from lupus.bots.village_brain import VillageBrain
from lupus.engine.counting import plurality
from lupus.engine.events import EventSpec
from lupus.engine.interned import bare
from lupus.engine.model import Action, Prompt
from lupus.roles import little_girl
from lupus.village.game import VillageGame
from lupus.village.pack import PackBallot
from lupus.village.plugin import Play, Role, Verb
from lupus.village.steps import seats, tally


class WerewolvesStep(PackBallot):
    id = "werewolves"

    def begin(self, game: VillageGame) -> bool:
        self.wake_up(game)
        self.pack = [s for s in game.living if game.is_pack(s)]
        self.den = frozenset(self.pack)  # who sees the pack's choices
        self.victims = seats(game.living)  # every werewolf's choices
        self.voters = tuple(self.pack)
        self.pack_begins(game)
        game.emit("pack", self.den, roles={w: game.roles[w] for w in self.pack})
        return True

    def options(self, game: VillageGame, actor: int) -> tuple[Prompt, ...]:
        return (Prompt(actor, "kill", self.victims), bare(actor, "sleep"))

    def recorded(self, game: VillageGame, action: Action) -> None:
        target = action.args[0] if action.args else None
        game.emit("pack_choice", self.den, player=action.actor, target=target)

    def resolve(self, game: VillageGame) -> None:
        awake = [w for w in self.pack if self.picked(w, "kill") is not None]
        starved = game.facts.starvation_winner
        if not awake and starved is not None:
            starve(game, self.pack, starved)
            return
        named = tally([self.picked(w, "kill") for w in awake])
        victim = game.one_of(plurality(named)) if named else None
        game.emit("pack_victim", self.den, target=victim)
        game.night.victim = little_girl.watch(game, awake, victim)


def starve(game: VillageGame, pack: list[int], winner: str) -> None:
    """The sleeping pack dies of hunger; the game ends at once, without a dawn."""
    game.announce("starvation")
    game.kill_together([(wolf, "hunger") for wolf in pack])  # (two lovers: both starve)
    game.release_news()  # the village learns it now: the game is over
    game.finish(winner, "starvation")


ROLE = Role(
    "werewolves",
    weight=-6,
    bot=Play({"kill": VillageBrain.kill}),
    events=(EventSpec("starvation", {}, told="say"),),
    pack=True,
    card="werewolf",
    steps={"werewolves": WerewolvesStep},
    verbs=(
        Verb("kill", "werewolves", ("werewolf",), "night"),
        Verb("sleep", "werewolves", ("werewolf",), "night", targets="none"),
    ),
    messages={
        "wake.werewolves": "{N[pack]} wake up and choose a victim.",
        "pack_choice.sleep": "{player} stays asleep.",
        "starvation": "{N[pack]} all stayed asleep: they die of hunger.",
        "cause_hunger": "starved",
        "menu.sleep": "Stay asleep",
        "step.werewolves": "{N[pack]}",
    },
)
