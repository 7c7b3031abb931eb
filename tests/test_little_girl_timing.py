"""What the pack sees never tells whether the Little Girl is alive.

The Little Girl decides in her own step, just before the werewolves' step, whether she
peeps during it; the werewolves' step then waits for the pack alone. So the same pack
actions give the pack the same views (its events and its prompts, when the pack is
asked and after each of its actions) whether her card is held by a living player, by
a dead one, or lies among the Thief's two cards aside. The catch is drawn whenever her
card is in the game and a werewolf is awake, so even a later tie broken by the game's
generator comes out the same.

The table (werewolf, 9 players, a Thief who keeps his card):

* alive: Hal holds the Little Girl; Dee, a villager, is the pack's victim on night 1;
* dead: Dee holds the Little Girl and is the pack's victim on night 1;
* absent: the Little Girl is one of the Thief's two extra cards, out of play.

Night 1 compares the girl alive (Hal or Dee) and absent; night 2, the girl alive (Hal),
dead (Dee) and absent, with a tie in the pack that the generator breaks.
"""

from __future__ import annotations

import pytest

from lupus.engine.game import Game
from lupus.engine.model import Action, Event, Prompt
from lupus.families import new_game

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy"]
ANN, BOB, CID, DEE, EVE, FAY, GUS, HAL, IVY = range(9)
PACK = (ANN, BOB)
BASE = ["werewolf", "werewolf", "seer", "villager", "thief", "villager", "villager"]
DEALS = {
    "alive": ([*BASE, "little-girl", "villager"], ["villager", "villager"], HAL),
    "dead": ([*BASE[:3], "little-girl", *BASE[4:], "villager", "villager"], ["villager"] * 2, DEE),
    "absent": ([*BASE, "villager", "villager"], ["little-girl", "villager"], None),
}
LEADER_CLOSE = Action(-1, "close")

Story = tuple[tuple[Event, ...], tuple[Prompt, ...]]


def story(game: Game, wolf: int, night: int, *, to_dawn: bool = True) -> Story:
    """The wolf's events from nightfall of ``night`` (to its dawn, or to now), and his
    prompts now."""
    view = game.view(wolf)
    events = view.events
    start = next(
        i for i, ev in enumerate(events) if ev.kind == "night" and ev.data["number"] == night
    )
    end = len(events)
    if to_dawn:
        end = next((i for i in range(start, end) if events[i].kind == "dawn"), end)
    return tuple(events[start:end]), tuple(view.prompts)


def play(case: str, seed: int, girl_does: str, catch: float) -> dict[int, list[Story]]:
    """The case's game; each night, what each wolf sees when the pack is asked and after
    each pack action (night -> stories, in order; 3: after night 2's dawn).

    The pack acts as soon as it is asked; everyone else only when no werewolf can act
    (the girl as late as the rules let her): a step that waited for her after the pack
    had chosen would show here."""
    roles, extra, girl = DEALS[case]
    game = new_game("werewolf", NAMES, roles, extra, {"little_girl_catch_chance": catch}, seed=seed)
    seen: dict[int, list[Story]] = {1: [], 2: []}

    def night(number: int, pack: list[Action], others: list[Action]) -> None:
        while pack:
            if game.prompts(pack[0].actor):
                seen[number] += [story(game, w, number) for w in PACK]
                game.apply(pack.pop(0))
                seen[number] += [story(game, w, number) for w in PACK]
                continue
            waiting = game.waiting()
            other = next(a for a in others if a.actor in waiting)
            others.remove(other)
            game.apply(other)
        for other in others:  # (none is left: the pack was the last asked)
            game.apply(other)
        assert game.phase == "day" and not game.finished

    # Night 1: the Thief keeps his card, the Seer looks, the girl decides, the pack eats
    # Dee (the girl herself in the "dead" case).
    decides = [] if girl is None else [Action(girl, girl_does)]
    first = [Action(EVE, "keep"), Action(CID, "inspect", (ANN,)), *decides]
    night(1, [Action(ANN, "kill", (DEE,)), Action(BOB, "kill", (DEE,))], first)
    game.apply(LEADER_CLOSE)  # day 1: nobody is voted out
    # Night 2: the Seer looks, the girl (if alive) decides, the pack splits on a tie and
    # the leader (a timer) closes its step: the generator breaks the tie.
    decides = [] if girl in (None, DEE) else [Action(HAL, girl_does)]
    second = [Action(CID, "inspect", (BOB,)), *decides]
    split = [Action(ANN, "kill", (FAY,)), Action(BOB, "kill", (GUS,)), LEADER_CLOSE]
    night(2, split, second)
    # Past dawn: the tie's victim and day 2, as the pack sees them.
    seen[3] = [story(game, w, 2, to_dawn=False) for w in PACK]
    return seen


@pytest.mark.parametrize(
    ("girl_does", "catch"), [("spy", 0.0), ("pass", 0.0), ("pass", 1.0), ("pass", 0.2)]
)
@pytest.mark.parametrize("seed", range(12))
def test_the_pack_sees_the_same_whether_the_girl_is_alive_dead_or_absent(
    seed: int, girl_does: str, catch: float
) -> None:
    alive = play("alive", seed, girl_does, catch)
    dead = play("dead", seed, girl_does, catch)
    absent = play("absent", seed, girl_does, catch)
    # Night 1: the girl is alive (Hal; Dee in the "dead" case) or out of play.
    assert alive[1] == absent[1]
    assert dead[1] == absent[1]
    # Night 2: alive, dead or out of play; and what follows, the tie's victim included.
    assert alive[2] == dead[2] == absent[2]
    assert alive[3] == dead[3] == absent[3]
    # The pack was asked, and saw its victim at once after its last choice.
    last = absent[2][-1][0]
    assert any(ev.kind == "pack_victim" for ev in last)


def test_the_girl_still_sees_them_and_may_be_caught() -> None:
    """Spying, she is shown the pack's choice at the end of the werewolves' step, and
    caught (chance 1.0) she is the victim instead, which the pack learns."""
    roles, extra, girl = DEALS["alive"]
    assert girl is not None
    game = new_game("werewolf", NAMES, roles, extra, {"little_girl_catch_chance": 1.0}, seed=0)
    game.apply(Action(EVE, "keep"))
    game.apply(Action(CID, "inspect", (ANN,)))
    assert game.waiting() == [girl]
    game.apply(Action(girl, "spy"))
    assert game.waiting() == list(PACK)
    game.apply(Action(ANN, "kill", (DEE,)))
    game.apply(Action(BOB, "sleep"))
    assert not [ev for ev in game.view(girl).events if ev.kind == "spied"]  # (split: open)
    game.apply(LEADER_CLOSE)
    spied = [ev for ev in game.view(girl).events if ev.kind == "spied"]
    assert len(spied) == 1 and spied[0].data["roles"] == {ANN: "werewolf"}
    caught = [ev for ev in game.view(BOB).events if ev.kind == "caught"]
    assert len(caught) == 1 and caught[0].data["player"] == girl
    assert [d.player for d in game.deaths] == [girl]
