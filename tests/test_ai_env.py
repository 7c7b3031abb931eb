"""The PettingZoo environment (lupus.ai, docs/ai.md): PettingZoo's own tests on every
rulebook, the simulator's games played again through it, masks, rewards, dead seats,
sealed ballots, and observations that hold only what their seat may know."""

from __future__ import annotations

import json
import shlex
from collections import Counter
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test
from typer.testing import CliRunner

import lupus.ai
from lupus.ai.environment import LupusEnv, sealed
from lupus.bots.kinds import make_bot
from lupus.bots.random_bot import RandomBot
from lupus.cli import app
from lupus.engine.errors import IllegalAction
from lupus.engine.game import Game
from lupus.engine.model import Action
from lupus.families import family_of
from lupus.rulebooks import available
from lupus.sim.config import SimConfig
from lupus.sim.selfplay import Table, play
from lupus.testing.declared import declared
from lupus.testing.knowledge import Knowledge
from lupus.testing.seen import check_seen

RULEBOOKS = available()


def players_of(rules: str) -> int:
    """A table every rulebook plays (Lupusburg takes 4 to 8, werewolf needs 8)."""
    return 5 if rules == "lupusburg" else 8


def random_game(env: LupusEnv, bot: RandomBot, seed: int, index: int) -> Game:
    """Game ``index`` of run ``seed`` played through ``env`` by a random bot drawing
    from ``env.rng``, as ``lupus simulate --bots random`` plays it."""
    env.reset(seed=seed, options={"game": index})
    for _agent in env.agent_iter():
        _obs, _reward, done, cut, info = env.last()
        if done or cut:
            env.step(None)
            continue
        chosen = bot.act(info["view"], env.rng)
        env.step(env.id_of(chosen.verb, chosen.args))
    assert env.game is not None
    return env.game


@pytest.mark.parametrize("rules", RULEBOOKS)
def test_pettingzoo_api_and_seed_tests_pass(rules: str) -> None:
    api_test(lupus.ai.env(rules, players_of(rules)), num_cycles=400)
    seed_test(lambda: lupus.ai.env(rules, players_of(rules)), num_cycles=400)


def test_a_thousand_random_games_are_the_simulators() -> None:
    """200 seeded games of each of the five rulebooks: the same actions, the same
    events and the same winner as ``selfplay.play`` (``lupus simulate``'s games)."""
    bot = RandomBot()
    played = 0
    for rules in RULEBOOKS:
        players = players_of(rules)
        env = lupus.ai.env(rules, players)
        table = Table(SimConfig(rules, players, seed=11))
        for index in range(1000 // len(RULEBOOKS)):
            mine = random_game(env, bot, 11, index)
            theirs, _ = play(table, index)
            assert mine.history == theirs.history, (rules, index)
            assert mine.events == theirs.events, (rules, index)
            assert mine.outcome == theirs.outcome, (rules, index)
            played += 1
    assert played == 1000


def test_the_win_counts_are_lupus_simulates() -> None:
    """The command line's report of a run, and the same run through the environment."""
    result = CliRunner().invoke(
        app,
        ["simulate", *shlex.split("--rules werewolf --players 8 --games 60 --json --seed 5")],
    )
    assert result.exit_code == 0, result.output
    report: dict[str, Any] = json.loads(result.stdout)
    env, bot = lupus.ai.env("werewolf", 8), RandomBot()
    wins: Counter[str] = Counter()
    for index in range(60):
        outcome = random_game(env, bot, 5, index).outcome
        assert outcome is not None
        wins[outcome.winner or ""] += 1
    assert {f: wins.get(f, 0) for f in report["wins"]} == report["wins"]


def test_action_ids_map_both_ways() -> None:
    env = lupus.ai.env("werewolf", 8)
    for action_id in range(env.action_space("seat_0").n):  # type: ignore[attr-defined]
        verb, args = env.action_of(action_id)
        assert env.id_of(verb, args) == action_id
    assert env.id_of("link", (5, 2)) == env.id_of("link", (2, 5))
    with pytest.raises(ValueError, match="no verb"):
        env.id_of("fly", ())
    with pytest.raises(ValueError, match="outside"):
        env.action_of(10**6)


@pytest.mark.parametrize("rules", RULEBOOKS)
def test_every_offered_choice_has_an_id_and_the_mask_is_the_prompts(rules: str) -> None:
    env, bot = lupus.ai.env(rules, players_of(rules)), RandomBot()
    for index in range(5):
        env.reset(seed=2, options={"game": index})
        for agent in env.agent_iter():
            obs, _reward, done, cut, info = env.last()
            if done or cut:
                assert not obs["action_mask"].any()
                env.step(None)
                continue
            view = info["view"]
            offered = {(p.verb, args) for p in view.prompts for args in p.choices}
            masked = {env.action_of(int(i)) for i in np.flatnonzero(obs["action_mask"])}
            assert masked == offered, agent
            assert (info["action_mask"] == obs["action_mask"]).all()
            chosen = bot.act(view, env.rng)
            env.step(env.id_of(chosen.verb, chosen.args))


@pytest.mark.parametrize("rules", RULEBOOKS)
def test_each_seat_observes_its_seat_and_its_own_cards(rules: str) -> None:
    env = lupus.ai.env(rules, players_of(rules))
    env.reset(seed=3)
    game = env.game
    assert game is not None
    encoder, width = env.encoder, len(env.encoder.cards)
    for seat, agent in enumerate(env.possible_agents):
        obs = env.observe(agent)["observation"]
        assert obs.shape == (encoder.size,)
        start = encoder.start["seat"]
        assert list(obs[start : start + game.n]) == [int(s == seat) for s in range(game.n)]
        cards = obs[encoder.start["cards"] :][: encoder.holders * width].reshape(-1, width)
        shown = {(int(h), encoder.cards[c]) for h, c in zip(*np.nonzero(cards), strict=True)}
        if encoder.houses:  # its two houses' characters
            mine = {(h, c) for h, c in shown if h // 2 == seat}
            assert len(mine) == 2, (agent, shown)
        else:
            assert (seat, game.seen(seat).role()) in shown, (agent, shown)


def test_a_masked_out_action_is_refused_and_changes_nothing() -> None:
    env = lupus.ai.env("werewolf", 8)
    env.reset(seed=1)
    agent = env.agent_selection
    obs, *_ = env.last()
    game = env.game
    assert game is not None
    before = (len(game.history), game.state_id, len(game.events), agent)
    observed = {a: env.observe(a)["observation"].copy() for a in env.agents}
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalAction, match="masked out"):
        env.step(illegal)
    with pytest.raises(IllegalAction):
        env.step(10**6)
    with pytest.raises(IllegalAction):
        env.step(None)
    assert (len(game.history), game.state_id, len(game.events), env.agent_selection) == before
    for a in env.agents:
        assert (env.observe(a)["observation"] == observed[a]).all()
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))  # a legal one is taken
    assert len(game.history) > before[0]


@pytest.mark.parametrize("rules", RULEBOOKS)
def test_dead_seats_stay_agents_and_are_rewarded_at_the_end(rules: str) -> None:
    env, bot = lupus.ai.env(rules, players_of(rules)), RandomBot()
    saw_dead_agent = False
    for index in range(10):
        env.reset(seed=7, options={"game": index})
        rewards: dict[str, float] = {}
        for agent in env.agent_iter():
            _obs, reward, done, cut, info = env.last()
            if done or cut:
                rewards[agent] = reward
                env.step(None)
                continue
            assert reward == 0.0  # nothing before the end
            assert env.agents == env.possible_agents  # the dead are agents still
            if len(info["view"].alive()) < len(env.possible_agents):
                saw_dead_agent = True
            chosen = bot.act(info["view"], env.rng)
            env.step(env.id_of(chosen.verb, chosen.args))
        game = env.game
        assert game is not None and game.outcome is not None
        assert set(rewards) == set(env.possible_agents)
        for seat, agent in enumerate(env.possible_agents):
            if family_of(game.rulebook).house_verbs:  # Lupusburg: the points
                assert rewards[agent] == game.outcome.scores.get(seat, 0)
            else:
                assert rewards[agent] == (1.0 if seat in game.outcome.winners else -1.0)
    assert saw_dead_agent, rules


def test_lupusburg_tells_the_winner_in_info() -> None:
    env, bot = lupus.ai.env("lupusburg", 5), RandomBot()
    env.reset(seed=3)
    winners = set()
    for _agent in env.agent_iter():
        _obs, _reward, done, cut, info = env.last()
        if done or cut:
            winners.add((info["winner"], tuple(info["winners"])))
            env.step(None)
            continue
        chosen = bot.act(info["view"], env.rng)
        env.step(env.id_of(chosen.verb, chosen.args))
    assert env.game is not None and env.game.outcome is not None
    outcome = env.game.outcome
    assert winners == {(outcome.winner, tuple(f"seat_{s}" for s in outcome.winners))}
    assert len(outcome.winners) == 1  # one winning player


def test_the_example_runs() -> None:
    import subprocess
    import sys
    from pathlib import Path

    example = Path(__file__).parent.parent / "examples" / "random_agent.py"
    for extra in ([], ["--simulator"]):
        out = subprocess.run(
            [sys.executable, str(example), "--games", "3", "--seed", "2", *extra],
            capture_output=True,
            text=True,
            check=True,
        )
        assert out.stdout.startswith("3 games of werewolf at 8: wins"), out.stdout


def test_a_ballot_is_sealed_until_every_vote_is_cast() -> None:
    """The day vote is open in the engine (each ballot is public as cast): through the
    environment a voter sees none of the others' until the vote is over."""
    env, bot = lupus.ai.env("werewolf", 8), RandomBot()
    env.reset(seed=4)
    checked = 0
    for agent in env.agent_iter():
        _obs, _reward, done, cut, info = env.last()
        if done or cut:
            env.step(None)
            continue
        view, game = info["view"], env.game
        assert game is not None
        if any(p.verb == "vote" for p in view.prompts):
            real = game.seen(env.possible_agents.index(agent))
            opened = env._opened  # the public events when this vote opened

            def this_vote(events: tuple[Any, ...], opened: int = opened) -> list[Any]:
                return [e for e in events if e.audience is None and e.seq >= opened]

            cast = [e for e in this_vote(real.events) if e.kind == "ballot"]
            assert not this_vote(view.events)
            checked += bool(cast)
        chosen = bot.act(view, env.rng)
        env.step(env.id_of(chosen.verb, chosen.args))
    assert checked, "no voter came after another"
    # The open view, as the simulator's bots see it, with sealed_ballots=False.
    open_env = lupus.ai.env("werewolf", 8, sealed_ballots=False)
    open_env.reset(seed=4)
    agent = open_env.agent_selection
    assert open_env.game is not None
    assert open_env.infos[agent]["view"] == open_env.game.seen(int(agent.split("_")[1]))


@settings(max_examples=12, deadline=None)
@given(
    rules=st.sampled_from([r for r in RULEBOOKS if r != "lupusburg"]),
    seed=st.integers(0, 2**32),
)
def test_observations_hold_only_what_the_seat_may_know(rules: str, seed: int) -> None:
    """At every turn, for every agent: its info's view is its seat's events (sealed or
    not), its observation is the encoding of that view, and each card the observation
    shows is one the referee says the seat may know then."""
    env, bot = lupus.ai.env(rules, players_of(rules)), RandomBot()
    env.reset(seed=seed)
    game = env.game
    assert game is not None
    referee = Knowledge(game, declared(rules))
    referee.on_events(game)
    width = len(env.encoder.cards)
    start = env.encoder.start["cards"]
    for _agent in env.agent_iter():
        for other in env.agents:
            seat = env.possible_agents.index(other)
            view = env.infos[other]["view"]
            own = game.seen(seat)
            expected = sealed(own, env._opened) if env._ballot and not game.finished else own
            assert view == expected
            check_seen(seat, own.events, game.events)
            obs = env.observe(other)["observation"]
            assert (obs == env.encoder.encode(view)).all()
            cards = obs[start : start + env.encoder.holders * width].reshape(-1, width)
            for holder, card in zip(*np.nonzero(cards), strict=True):
                assert referee.may_know(seat, int(holder), len(game.events) - 1), (
                    other,
                    holder,
                    env.encoder.cards[card],
                )
        _obs, _reward, done, cut, info = env.last()
        if done or cut:
            env.step(None)
            continue
        chosen: Action = bot.act(info["view"], env.rng)
        referee.on_action(chosen, len(game.events))
        env.step(env.id_of(chosen.verb, chosen.args))
        referee.on_events(game)


def test_import_lupus_does_not_import_pettingzoo() -> None:
    import subprocess
    import sys

    code = "import sys, lupus, lupus.sim, lupus.cli\nfor m in ('pettingzoo', 'gymnasium', 'numpy'):"
    code += "\n    print(m in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False", "False"]


def test_a_game_stopped_by_max_actions_is_truncated_with_no_reward() -> None:
    env, bot = lupus.ai.env("werewolf", 8, max_actions=5), RandomBot()
    env.reset(seed=1)
    ended: dict[str, tuple[bool, bool, float]] = {}
    for agent in env.agent_iter():
        _obs, reward, done, cut, info = env.last()
        if done or cut:
            ended[agent] = (done, cut, reward)
            env.step(None)
            continue
        chosen = bot.act(info["view"], env.rng)
        env.step(env.id_of(chosen.verb, chosen.args))
    assert env.played == 5
    assert ended == {agent: (False, True, 0.0) for agent in env.possible_agents}


@pytest.mark.parametrize("rules", RULEBOOKS)
def test_open_ballots_let_the_heuristic_bots_play_the_simulators_games(rules: str) -> None:
    """With ``sealed_ballots=False`` each view is the engine's, so the heuristic bots
    (which follow the ballots already cast) play ``lupus simulate --bots heuristic``."""
    players = players_of(rules)
    env = lupus.ai.env(rules, players, sealed_ballots=False)
    table = Table(SimConfig(rules, players, bots={"*": "heuristic"}, seed=9))
    for index in range(8):
        env.reset(seed=9, options={"game": index})
        game = env.game
        assert game is not None
        bot = make_bot("heuristic", game.rulebook)  # one per game, as the simulator has it
        for _agent in env.agent_iter():
            _obs, _reward, done, cut, info = env.last()
            if done or cut:
                env.step(None)
                continue
            chosen = bot.act(info["view"], env.rng)
            env.step(env.id_of(chosen.verb, chosen.args))
        theirs, _ = play(table, index)
        assert game.history == theirs.history, (rules, index)
        assert game.outcome == theirs.outcome, (rules, index)


def test_a_composition_and_options_are_the_simulators() -> None:
    counts = {"werewolf": 3, "seer": 1, "witch": 1, "villager": 4}
    env, bot = lupus.ai.env("werewolf", 9, counts=counts), RandomBot()
    table = Table(SimConfig("werewolf", 9, counts=counts, seed=4))
    for index in range(5):
        mine = random_game(env, bot, 4, index)
        assert Counter(mine.sides_dealt())["werewolves"] == 3
        assert mine.history == play(table, index)[0].history
    with pytest.raises(ValueError):
        lupus.ai.env("werewolf", 5)  # the werewolf minimum table, refused at once
