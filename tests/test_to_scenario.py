"""``game.to_scenario()``: a game, stopped anywhere, written down as a scenario file.

Random games of every rulebook (random play of ``playout``'s deals, and the simulator's
own games with random and heuristic bots), cut at a random point: the game's
``to_scenario()``, written as JSON text, read back with ``scenario.parse`` and replayed
with ``scenario.replay``, gives the same game, event for event (kind, audience, data,
phase, number) and the same state (the Thief's swap, the Burgomaster passing on and the
coins drawn from the bag included).
"""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import playout
from lupus import scenario as sc
from lupus.engine.game import Game
from lupus.engine.model import Action
from lupus.families import new_game
from lupus.lupusburg.game import LupusburgGame
from lupus.sim import selfplay
from lupus.sim.config import SimConfig
from lupus.village.game import VillageGame
from playout import PROFILE, SCALE, RandomPolicy, Setup

VILLAGE_STATE: tuple[str, ...] = ("roles", "dealt", "extra_cards", "dealt_extra", "alive")
VILLAGE_STATE += ("lovers", "captain", "memories", "nominees")
LUPUSBURG_STATE: tuple[str, ...] = ("characters", "alive_house", "chest", "burgomaster", "bag")
LUPUSBURG_STATE += ("bets", "first_burgomaster", "given_bag", "claw", "tokens", "shuffle_draws")


def rebuilt(game: Game) -> Game:
    """The game ``to_scenario`` describes, through JSON text, as a file would be."""
    text = json.dumps(game.to_scenario(), ensure_ascii=False)
    result = sc.replay(sc.parse(json.loads(text), "to_scenario"))
    assert result.error_index is None, result.error_message
    return result.game


def check_same_game(game: Game, again: Game) -> None:
    assert len(again.events) == len(game.events)
    for ours, theirs in zip(game.events, again.events, strict=True):
        assert (ours.kind, ours.audience, dict(ours.data), ours.phase, ours.number) == (
            theirs.kind,
            theirs.audience,
            dict(theirs.data),
            theirs.phase,
            theirs.number,
        )
    assert again.history == game.history
    assert again.deaths == game.deaths
    assert again.outcome == game.outcome
    assert (again.state_id, again.phase, again.number) == (game.state_id, game.phase, game.number)
    assert again.waiting() == game.waiting()
    assert again.prompts() == game.prompts()
    assert again.rng.getstate() == game.rng.getstate()
    fields = VILLAGE_STATE if isinstance(game, VillageGame) else LUPUSBURG_STATE
    assert type(again) is type(game)
    for name in fields:
        assert getattr(again, name) == getattr(game, name), name
    assert again.to_scenario() == game.to_scenario()


def cut_at(actions: list[Action], cut: int) -> list[Action]:
    """The actions before a point drawn evenly from the start to the end, by ``cut``
    (hypothesis draws numbers near the ends of a range more often than in between)."""
    return actions[: random.Random(cut).randint(0, len(actions))]


@settings(max_examples=60 * SCALE, **PROFILE)
@given(
    setup=playout.setups(("werewolf", "tit-albert", "maffia", "mafia-classic")),
    seed=st.integers(0, 2**32 - 1),
    cut=st.integers(0, 2**32 - 1),
)
def test_a_village_game_cut_anywhere_rebuilds_from_its_scenario(
    setup: Setup, seed: int, cut: int
) -> None:
    policy: RandomPolicy = (
        playout.LeaderClosePolicy(seed)
        if setup.rules in ("maffia", "mafia-classic")
        else RandomPolicy(seed, close_chance=0.05, change_chance=0.1)
    )
    played = playout.play(setup, policy, max_actions=600)
    game = playout.replay(setup, cut_at(played.game.history, cut))
    check_same_game(game, rebuilt(game))


def selfplay_game(config: SimConfig, index: int, cut: int | None) -> Game:
    """Game ``index`` of a simulated run, stopped at a point drawn by ``cut`` (None: at
    its end), set up as ``selfplay.play`` sets it up, then its own actions applied."""
    table = selfplay.Table(config)
    full, _ = selfplay.play(table, index)
    game, _ = selfplay.set_up(table, index)
    for action in full.history if cut is None else cut_at(full.history, cut):
        game.apply(action)
    return game


SIMULATED = [
    ("werewolf", 8),
    ("werewolf", 12),
    ("tit-albert", 10),
    ("maffia", 9),
    ("mafia-classic", 7),
    ("lupusburg", 4),
    ("lupusburg", 6),
    ("lupusburg", 8),
]


@settings(max_examples=40 * SCALE, **PROFILE)
@given(
    table=st.sampled_from(SIMULATED),
    bots=st.sampled_from(["random", "heuristic"]),
    index=st.integers(0, 10_000),
    cut=st.integers(0, 2**32 - 1),
)
def test_a_simulated_game_cut_anywhere_rebuilds_from_its_scenario(
    table: tuple[str, int], bots: str, index: int, cut: int
) -> None:
    rules, players = table
    config = SimConfig(rules, players, bots={"*": bots}, seed=7)
    game = selfplay_game(config, index, cut)
    check_same_game(game, rebuilt(game))


def test_the_thiefs_swap_and_the_burgomasters_turns_are_given_back_as_dealt() -> None:
    """After the Thief takes a card, the record still deals him the Thief and the two
    extra cards as they were; after the Burgomaster passed on and coins were drawn, the
    record names the first Burgomaster and the bag as given."""
    names = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]
    roles = ["thief", "werewolf", "seer", "werewolf", "villager", "villager", "villager", "witch"]
    game = new_game("werewolf", names, roles, ["hunter", "villager"], seed=3)
    game.apply(Action(0, "take", ("hunter",)))
    assert isinstance(game, VillageGame) and game.roles[0] == "hunter"
    record = game.to_scenario()
    assert record["roles"] == dict(zip(names, roles, strict=True))
    assert record["extra_cards"] == ["hunter", "villager"]
    assert record["actions"] == [{"actor": "Ann", "do": "take", "card": "hunter"}]
    check_same_game(game, rebuilt(game))

    config = SimConfig("lupusburg", 5, seed=1)
    for index in range(20):
        burg = selfplay_game(config, index, None)
        assert isinstance(burg, LupusburgGame)
        if burg.burgomaster != burg.first_burgomaster:
            break
    else:
        raise AssertionError("no simulated game passed the Burgomaster on")
    record = burg.to_scenario()
    assert record["burgomaster"] == burg.names[burg.first_burgomaster]
    assert "bag" not in record  # the game shuffled its own bag: the seed gives it back
    check_same_game(burg, rebuilt(burg))
