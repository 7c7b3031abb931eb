"""The simulator: same seed, same numbers, on one process, several, or Ray."""

from __future__ import annotations

import importlib.util
import json
import shlex
from typing import Any

import pytest
from typer.testing import CliRunner

from lupus.cli import app
from lupus.sim import SimConfig, simulate
from lupus.sim.runner import game_stream, play_one
from lupus.sim.stats import wilson

runner = CliRunner()


def test_wilson_interval_is_sound() -> None:
    lo, hi = wilson(50, 100)
    assert lo < 0.5 < hi
    assert wilson(0, 100)[0] == 0.0
    assert wilson(100, 100)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)
    narrow, wide = wilson(5000, 10000), wilson(50, 100)
    assert narrow[1] - narrow[0] < wide[1] - wide[0]


def test_game_streams_differ_and_repeat() -> None:
    """A game's draws depend on the run's seed and its index alone."""
    assert game_stream(1, 2).getstate() == game_stream(1, 2).getstate()
    states = {game_stream(1, i).getstate() for i in range(500)}
    states |= {game_stream(2, i).getstate() for i in range(500)}
    assert len(states) == 1000


def test_a_game_depends_only_on_seed_and_index() -> None:
    config = SimConfig("werewolf", 10, seed=4)
    a, _ = play_one(config, 17)
    b, _ = play_one(config, 17)
    assert a.events == b.events
    assert a.history == b.history


def test_same_numbers_whatever_the_number_of_processes() -> None:
    config = SimConfig("tit-albert", 9, seed=11)
    one = simulate(config, 300, workers=1).tally
    two = simulate(config, 300, workers=2).tally
    assert one == two
    assert one.games == 300
    assert sum(one.wins.values()) == 300


def test_every_rulebook_simulates() -> None:
    for rules, players in [
        ("werewolf", 12),
        ("tit-albert", 10),
        ("maffia", 12),
        ("mafia-classic", 8),
        ("lupusburg", 6),
    ]:
        tally = simulate(SimConfig(rules, players, seed=1), 40).tally
        assert tally.games == 40
        assert sum(tally.wins.values()) == 40, rules


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="Ray is an optional extra")
def test_ray_backend_gives_the_same_numbers() -> None:
    config = SimConfig("werewolf", 8, seed=3)
    local = simulate(config, 200, workers=1).tally
    on_ray = simulate(config, 200, backend="ray").tally
    assert local == on_ray


def simulate_json(command_line: str) -> dict[str, Any]:
    """Run ``lupus simulate`` with these (space-separated) options; its JSON report."""
    result = runner.invoke(app, ["simulate", *shlex.split(command_line)])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_simulate_json_contract() -> None:
    data = simulate_json("--rules werewolf --players 8 --games 200 --json --workers 1 --seed 2")
    assert data["games"] == 200
    assert set(data["wins"]) == {"villagers", "werewolves", "lovers"}
    assert sum(data["wins"].values()) == 200
    rate = data["win_rate"]["villagers"]
    assert rate["ci95"][0] <= rate["p"] <= rate["ci95"][1]
    assert data["mean_days"] > 0
    assert data["seconds"] > 0


def test_simulate_roles_options_and_bot_mix() -> None:
    data = simulate_json(
        "--rules tit-albert --roles werewolf=2,witch=1,villager=5"
        " --option longanis_potions=1 --option quick=true"
        " --bots werewolves=random,*=random --games 100 --workers 1 --json",
    )
    assert data["players"] == 8
    assert data["options"] == {"longanis_potions": 1, "quick": True}


def test_simulate_refuses_bad_setups() -> None:
    bad = [
        ["--rules", "werewolf", "--roles", "dragon=1,villager=3"],
        ["--rules", "werewolf", "--option", "nope=1"],
        ["--rules", "werewolf", "--players", "99"],
        ["--rules", "werewolf", "--bots", "genius"],
    ]
    for args in bad:
        result = runner.invoke(app, ["simulate", *args, "--games", "10", "--workers", "1"])
        assert result.exit_code == 1, (args, result.output)
