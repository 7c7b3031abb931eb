"""`lupus replay --seat NAME` tells only what that player saw, in the narration and in
`--json`: the deaths he was told of, who he knows to be alive, his own prompts, and the
reason of a refused action only if it was his own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lupus import scenario as sc
from lupus.cli import app
from lupus.engine.model import LEADER
from lupus.village.game import VillageGame

runner = CliRunner()
ROOT = Path(__file__).parent / "scenarios"
FILES = sorted(ROOT.rglob("*.json"))

# Maffia, night 2: the Couple's Eva was murdered on night 1, so her partner Filip dies
# of heartbreak in night 2's couple step (at once, told at dawn); the Avenger Greta
# still owes her shot. Then Ines tries to shoot, which is refused.
NIGHT = {
    "rules": "maffia",
    "seed": 0,
    "players": ["Anna", "Bo", "Cilla", "Dan", "Eva", "Filip", "Greta", "Hugo", "Ines"],
    "roles": {
        "Anna": "mafia",
        "Bo": "godfather",
        "Cilla": "doctor",
        "Dan": "detective",
        "Eva": "couple",
        "Filip": "couple",
        "Greta": "avenger",
        "Hugo": "villager",
        "Ines": "villager",
    },
    "actions": [
        {"actor": "Anna", "do": "kill", "target": "Eva"},
        {"actor": "Bo", "do": "kill", "target": "Eva"},
        {"actor": "Cilla", "do": "protect", "target": "Ines"},
        {"actor": "Dan", "do": "inspect", "target": "Anna"},
        {"actor": "leader", "do": "close"},
        {"actor": "Anna", "do": "kill", "target": "Hugo"},
        {"actor": "Bo", "do": "kill", "target": "Hugo"},
        {"actor": "Cilla", "do": "protect", "target": "Dan"},
        {"actor": "Dan", "do": "inspect", "target": "Bo"},
        {"actor": "Ines", "do": "shoot", "target": "Anna"},
    ],
}
EVA = {"player": "Eva", "cause": "mafia", "phase": "night", "number": 1}
FILIP = {"player": "Filip", "cause": "heartbreak", "phase": "night", "number": 2}


def replay(tmp_path: Path, *args: str) -> tuple[int, str]:
    path = tmp_path / "night.json"
    path.write_text(json.dumps(NIGHT), "utf-8")
    result = runner.invoke(app, ["replay", str(path), *args])
    return result.exit_code, result.stdout


def test_the_leader_sees_the_unannounced_death_and_every_prompt(tmp_path: Path) -> None:
    code, out = replay(tmp_path, "--json")
    assert code == 2
    told = json.loads(out)
    assert told["deaths"] == [EVA, FILIP]
    assert "Filip" not in told["alive"]
    assert told["waiting_for"] == [{"actor": "Greta", "verbs": ["shoot"]}]
    assert "Ines has nothing to do now" in told["error"]["message"]


def test_a_seat_sees_only_its_deaths_its_prompts_and_its_own_error(tmp_path: Path) -> None:
    code, out = replay(tmp_path, "--json", "--seat", "Dan")
    assert code == 2
    dan = json.loads(out)
    assert dan["deaths"] == [EVA]  # Filip's heartbreak is told at dawn
    assert "Filip" in dan["alive"] and "Eva" not in dan["alive"]
    assert dan["waiting_for"] == []  # Greta's shot is hers to know
    assert dan["error"] == {"index": 9, "message": sc.STOPPED}
    assert dan["finished"] is False and dan["winner"] is None
    greta = json.loads(replay(tmp_path, "--json", "--seat", "Greta")[1])
    assert greta["waiting_for"] == [{"actor": "Greta", "verbs": ["shoot"]}]
    assert greta["deaths"] == [EVA]
    assert greta["error"]["message"] == sc.STOPPED
    ines = json.loads(replay(tmp_path, "--json", "--seat", "Ines")[1])
    assert "Ines has nothing to do now" in ines["error"]["message"]
    assert ines["waiting_for"] == []


def test_the_narration_of_a_seat_prints_only_its_own_refused_action(tmp_path: Path) -> None:
    code, dan = replay(tmp_path, "--seat", "Dan")
    assert code == 2
    assert "nothing to do" not in dan and "Ines" not in dan.splitlines()[-1]
    assert sc.STOPPED in dan
    ines = replay(tmp_path, "--seat", "Ines")[1]
    assert "! action 9 refused: Ines has nothing to do now" in ines
    leader = replay(tmp_path)[1]
    assert "! action 9 refused: Ines has nothing to do now" in leader


def test_an_unknown_seat_is_refused_with_json_too(tmp_path: Path) -> None:
    code, _ = replay(tmp_path, "--json", "--seat", "Zed")
    assert code == 1


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_the_leaders_view_tells_what_the_state_does(path: Path) -> None:
    """Read from the leader's view alone, every scenario's outcome is the state's (but
    for the night's deaths not told yet); each seat is told of some of those deaths, in
    the same order, and finds his own entry of the leader's ``waiting_for``."""
    result = sc.replay(sc.read(path))
    game = result.game
    full = sc.summary(result)
    seen = sc.view_summary(game, game.view(LEADER))
    full_deaths = full["deaths"]
    assert isinstance(full_deaths, list)
    deaths = full_deaths
    if isinstance(game, VillageGame) and game.holding() and game.night.unannounced:
        untold = [game.names[s] for s in game.night.unannounced]
        deaths = [d for d in deaths if d["player"] not in untold]
        full["deaths"] = deaths
        full["alive"] = [p for p in game.names if p not in {d["player"] for d in deaths}]
    assert seen == {k: v for k, v in full.items() if k not in ("waiting_for", "error")}
    waiting = full["waiting_for"]
    assert isinstance(waiting, list)
    for seat in range(game.n):
        mine = sc.summary(result, seat)
        told = mine["deaths"]
        assert isinstance(told, list)
        assert [d for d in full_deaths if d in told] == told
        assert mine["waiting_for"] == [w for w in waiting if w["actor"] == game.names[seat]]
        assert mine["finished"] == full["finished"]
