"""The Little Girl: during the werewolves' step she may peep.

Peeping shows her the werewolves who opened their eyes and the victim they chose.
A werewolf who stays asleep cannot be seen (the seeds give sleeping as the werewolves'
way to lower the risk of being spied on) and cannot catch her. She is caught with
probability ``little_girl_catch_chance``; then she is the victim instead, and the
werewolves learn who she is.
"""

from __future__ import annotations

from lupus.engine.game import alone
from lupus.engine.model import Prompt, bare
from lupus.engine.village import VillageGame

ROLE = "little-girl"


def spies(g: VillageGame) -> list[int]:
    return g.holders(ROLE) if g.in_deck(ROLE) else []


def spy_prompts(actor: int) -> tuple[Prompt, ...]:
    return (bare(actor, "spy"), bare(actor, "pass"))


def peep(g: VillageGame, girl: int, awake: list[int], victim: int | None) -> int | None:
    """Show her what she sees; return the night's victim (herself if caught)."""
    if not awake:
        g.emit("spied_nothing", alone(girl))
        return victim
    g.emit("spied", alone(girl), roles={w: g.roles[w] for w in awake}, target=victim)
    chance = float(g.option("little_girl_catch_chance"))
    if g.rng.random() < chance:
        witnesses = [*[s for s in g.living() if g.is_pack(s)], girl]
        g.emit("caught", witnesses, player=girl, role=g.roles[girl])
        return girl
    return victim
