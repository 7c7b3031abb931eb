"""The `lupus` command as a user meets it: exit statuses, JSON, narration, rules."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from lupus.cli import app

runner = CliRunner()
EXAMPLE = Path(__file__).parent / "scenarios" / "werewolf" / "docs-example.json"


def write(tmp_path: Path, data: object) -> str:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), "utf-8")
    return str(path)


def example() -> dict[str, object]:
    data = json.loads(EXAMPLE.read_text("utf-8"))
    data.pop("expect")
    return data


def test_replay_json_reports_the_outcome() -> None:
    result = runner.invoke(app, ["replay", str(EXAMPLE), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["winner"] == "villagers"
    assert out["error"] is None
    assert [d["cause"] for d in out["deaths"]] == ["werewolves", "shot"]


def test_replay_narrates_to_the_full_reveal() -> None:
    result = runner.invoke(app, ["replay", str(EXAMPLE)])
    assert result.exit_code == 0
    lines = result.stdout.strip().splitlines()
    assert "== Night 1 ==" in lines
    assert lines[-1].startswith("The game is over")
    assert "Ann (Werewolf)" in lines[-1]
    assert "«?»" not in result.stdout


def test_replay_seat_tells_only_what_that_player_saw() -> None:
    dee = runner.invoke(app, ["replay", str(EXAMPLE), "--seat", "Dee"]).stdout
    bob = runner.invoke(app, ["replay", str(EXAMPLE), "--seat", "Bob"]).stdout
    assert "looks at the card of Ann" in bob
    assert "looks at the card of Ann" not in dee
    assert "Bob is dealt" not in dee
    assert "(to " not in dee


def test_illegal_action_exits_2_with_its_index(tmp_path: Path) -> None:
    data = example()
    data["actions"] = [{"actor": "Bob", "do": "kill", "target": "Ann"}]
    result = runner.invoke(app, ["replay", write(tmp_path, data), "--json"])
    assert result.exit_code == 2
    error = json.loads(result.stdout)["error"]
    assert error["index"] == 0
    assert "Bob cannot kill" in error["message"]


def test_unknown_player_is_an_illegal_action(tmp_path: Path) -> None:
    data = example()
    data["actions"] = [{"actor": "Zed", "do": "inspect", "target": "Ann"}]
    result = runner.invoke(app, ["replay", write(tmp_path, data), "--json"])
    assert result.exit_code == 2
    assert "Zed" in json.loads(result.stdout)["error"]["message"]


def test_malformed_files_exit_1_naming_the_problem(tmp_path: Path) -> None:
    bad_json = tmp_path / "bad.json"
    bad_json.write_text("{", "utf-8")
    result = runner.invoke(app, ["replay", str(bad_json)])
    assert result.exit_code == 1
    assert "not valid JSON" in result.stderr

    data = example()
    data["roles"] = {"Ann": "dragon"}
    result = runner.invoke(app, ["replay", write(tmp_path, data)])
    assert result.exit_code == 1
    assert "roles" in result.stderr

    data = example()
    data["options"] = {"no_such_option": True}
    result = runner.invoke(app, ["replay", write(tmp_path, data)])
    assert result.exit_code == 1
    assert "no_such_option" in result.stderr

    data = example()
    del data["players"]
    result = runner.invoke(app, ["replay", write(tmp_path, data)])
    assert result.exit_code == 1
    assert "players" in result.stderr


def test_unfinished_game_lists_who_we_wait_for(tmp_path: Path) -> None:
    data = example()
    data["actions"] = [{"actor": "Bob", "do": "inspect", "target": "Ann"}]
    out = json.loads(runner.invoke(app, ["replay", write(tmp_path, data), "--json"]).stdout)
    assert out["finished"] is False
    assert out["winner"] is None
    assert out["waiting_for"] == [{"actor": "Ann", "verbs": ["kill", "sleep"]}]


def test_rules_lists_and_explains_rulebooks() -> None:
    listing = runner.invoke(app, ["rules"])
    assert listing.exit_code == 0
    assert "werewolf" in listing.stdout and "tit-albert" in listing.stdout
    tit = runner.invoke(app, ["rules", "tit-albert"]).stdout
    for name in ("Tit Albert", "Vilazwa", "Bhai Looké", "Longanis", "Tifi", "Sefvilaz", "Agwa"):
        assert name in tit
    assert "longanis_potions = 2" in tit
    assert "quick = false" in tit
    assert "minimum configuration" not in tit  # tit-albert keeps its own limits
    unknown = runner.invoke(app, ["rules", "chess"])
    assert unknown.exit_code == 1


def test_rules_show_the_minimum_configuration_and_its_house_rules_option() -> None:
    text = runner.invoke(app, ["rules", "werewolf"]).stdout
    assert "The minimum configuration is: 2 Werewolves, 1 Seer, 5 Simple Villagers." in text
    assert "the option lift_minimum lifts it" in text
    assert "lift_minimum = false (bool): House rules" in text


def test_demo_plays_a_whole_game() -> None:
    result = runner.invoke(app, ["demo"])
    assert result.exit_code == 0
    assert "The game is over" in result.stdout
    assert "«?»" not in result.stdout
