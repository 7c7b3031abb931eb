"""A rulebook is carried, not named: a house rulebook's games narrate, replay, record,
simulate and balance as themselves.

Every shipped rulebook and a set of house rulebooks (written to a temporary folder and
loaded from their files; most keep a shipped id, the hardest case) go through every
way lupus has to play again: the scenario a game writes, replayed by ``lupus replay``
(its narration and ``--json``) and by the server's records, ``lupus simulate`` and
``lupus balance`` (tiny budgets; one run on two worker processes, which get the
rulebook itself). A file edited, moved or read after a ``chdir`` loads as what it
holds now.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

import lupus
from lupus import scenario as sc
from lupus.cli import app
from lupus.engine.model import LEADER
from lupus.rulebooks import is_shipped, reference
from lupus.rulebooks.schema import Rulebook
from lupus.server.records import replayed, stored
from lupus.sim.config import SimConfig
from lupus.sim.selfplay import play_one
from lupus.testing import check_rulebook

runner = CliRunner()
SHIPPED = Path(lupus.__file__).parent / "rulebooks"

# (file name, shipped rulebook it starts from, edits as (old text, new text), players)
HOUSE = [
    (
        "renamed.toml",
        "werewolf",
        [
            ('id = "werewolf"', 'id = "house-werewolf"'),
            ('werewolf = "Werewolf"', 'werewolf = "Wolfling"'),
            ('"one.werewolf" = "Werewolf"', '"one.werewolf" = "Wolfling"'),
            ('type = "float"\ndefault = 0.2', 'type = "float"\ndefault = 1.0'),
        ],
        8,
    ),
    (
        "werewolf.toml",
        "werewolf",
        [
            ('werewolf = "Werewolf"', 'werewolf = "Wolfling"'),
            ('"one.werewolf" = "Werewolf"', '"one.werewolf" = "Wolfling"'),
        ],
        9,
    ),
    ("tit-albert.toml", "tit-albert", [("default = 2\n", "default = 1\n")], 7),
    ("maffia.toml", "maffia", [("reveal_on_death = false", "reveal_on_death = true")], 9),
    ("mafia-classic.toml", "mafia-classic", [('default = "day"', 'default = "night"')], 6),
    (
        "lupusburg.toml",
        "lupusburg",
        [("bag = [8, 7, 6, 5, 4, 3, 2, 2]", "bag = [9, 7, 6, 5, 4, 3, 2, 1]")],
        5,
    ),
]


def house_text(base: str, edits: list[tuple[str, str]]) -> str:
    text = (SHIPPED / f"{base}.toml").read_text("utf-8")
    for old, new in edits:
        assert text.count(old) == 1, (base, old)
        text = text.replace(old, new)
    return text


@pytest.fixture(scope="module")
def house(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("house")
    paths = {}
    for name, base, edits, _ in HOUSE:
        path = folder / name
        path.write_text(house_text(base, edits), "utf-8")
        paths[name] = path
    return paths


def smallest_plain_table(book: lupus.Rulebook) -> int:
    """The smallest size the rulebook recommends a deck for that plays under its default
    options (werewolf's 3 to 7 need the house rule that lifts its minimum)."""
    least = book.minimum.players if book.minimum is not None else 0
    return min(int(n) for n in book.compositions if int(n) >= least)


def books(house: dict[str, Path]) -> list[tuple[str, int]]:
    """Every shipped rulebook by id and every house one by path, with a table size."""
    shipped = [(rid, smallest_plain_table(lupus.load(rid))) for rid in lupus.available()]
    return shipped + [(str(house[name]), n) for name, _, _, n in HOUSE]


def a_game(rules: str, players: int, index: int = 0) -> lupus.Game:
    game, _ = play_one(SimConfig(rules, players, seed=3), index)
    return game


def test_house_rulebooks_differ_from_the_shipped_ones(house: dict[str, Path]) -> None:
    for name, base, _, _ in HOUSE:
        book, shipped = lupus.load(str(house[name])), lupus.load(base)
        assert book.digest != shipped.digest
        assert not is_shipped(book) and is_shipped(shipped)
        if name != "renamed.toml":
            assert book.id == shipped.id  # the hardest case: a shipped id kept


def test_every_rulebook_replays_and_narrates_as_itself(
    house: dict[str, Path], tmp_path: Path
) -> None:
    for rules, players in books(house):
        book = lupus.load(rules)
        game = a_game(rules, players)
        assert game.finished
        record = game.to_scenario()
        assert record["rules"] == (book.id if is_shipped(book) else reference(book))
        path = tmp_path / "game.json"
        path.write_text(json.dumps(record), "utf-8")
        again = sc.replay(sc.read(path))
        assert again.error_index is None
        assert again.game.rulebook.digest == book.digest
        assert [(e.kind, dict(e.data)) for e in again.game.events] == [
            (e.kind, dict(e.data)) for e in game.events
        ]
        told = runner.invoke(app, ["replay", str(path), "--json"])
        assert told.exit_code == 0, told.output
        assert json.loads(told.stdout) == sc.summary(sc.Replay(game))
        narrated = runner.invoke(app, ["replay", str(path)])
        assert narrated.exit_code == 0, narrated.output
        assert narrated.stdout == "\n".join(lupus.narrate(game.view(LEADER))) + "\n"


def test_a_house_rulebook_narrates_its_own_names(house: dict[str, Path]) -> None:
    for name in ("renamed.toml", "werewolf.toml"):
        game = lupus.new_game(
            str(house[name]),
            ["Ann", "Bob", "Cid", "Dee"],
            ["werewolf", "seer", "villager", "villager"],
            options={"lift_minimum": True},
        )
        text = "\n".join(lupus.narrate(game.view(LEADER)))
        assert "Wolfling" in text and "1 Werewolf" not in text
        shipped = lupus.new_game(
            "werewolf",
            ["Ann", "Bob", "Cid", "Dee"],
            ["werewolf", "seer", "villager", "villager"],
            options={"lift_minimum": True},
        )
        assert "Wolfling" not in "\n".join(lupus.narrate(shipped.view(LEADER)))


def test_a_stored_game_of_a_house_rulebook_is_restored_with_it(house: dict[str, Path]) -> None:
    """The server keeps a game as its scenario header and actions (``records``): a
    house rulebook that keeps a shipped id is restored as the house rulebook."""
    for name, _, _, players in HOUSE:
        book = lupus.load(str(house[name]))
        game = a_game(str(house[name]), players, index=1)
        header = json.loads(json.dumps({**game.to_scenario(), "actions": []}))
        actions = json.loads(json.dumps([stored(a) for a in game.history]))
        back = replayed(header, actions)
        assert back.rulebook.digest == book.digest
        assert back.events == game.events


def test_a_file_loads_as_it_is_now(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Edited after a first load, moved, or another file of the same name after a
    ``chdir``: each loads what the file holds when it is loaded."""
    first = house_text("werewolf", [])
    second = house_text(
        "werewolf", [('type = "float"\ndefault = 0.2', 'type = "float"\ndefault = 0.5')]
    )
    path = tmp_path / "rules.toml"
    path.write_text(first, "utf-8")
    before = lupus.load(str(path))
    assert before.digest == lupus.load("werewolf").digest  # (the shipped content)
    path.write_text(second, "utf-8")
    after = lupus.load(str(path))
    assert after.digest != before.digest
    assert after.options["little_girl_catch_chance"].default == 0.5
    assert before.options["little_girl_catch_chance"].default == 0.2  # (unchanged)

    moved = tmp_path / "moved.toml"
    path.rename(moved)
    assert lupus.load(str(moved)).digest == after.digest
    with pytest.raises(lupus.RulebookError):
        lupus.load(str(path))

    for folder, text in (("a", first), ("b", second)):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "rules.toml").write_text(text, "utf-8")
    monkeypatch.chdir(tmp_path / "a")
    in_a = lupus.load("rules.toml")
    monkeypatch.chdir(tmp_path / "b")
    in_b = lupus.load("rules.toml")
    assert (in_a.digest, in_b.digest) == (before.digest, after.digest)
    assert os.getcwd() == str(tmp_path / "b")
    # The command line reads it the same way: what the file in this folder holds now.
    args = ["simulate", "--rules", "rules.toml", "--games", "2", "--workers", "1", "--json"]
    told = runner.invoke(app, args)
    assert told.exit_code == 0, told.output
    assert json.loads(told.stdout)["rules_digest"] == after.digest
    monkeypatch.chdir(tmp_path / "a")
    assert json.loads(runner.invoke(app, args).stdout)["rules_digest"] == before.digest
    moved.write_text(first, "utf-8")  # (edited again, after its games were simulated)
    args[2] = str(moved)
    assert json.loads(runner.invoke(app, args).stdout)["rules_digest"] == before.digest


def test_a_pickled_rulebook_is_its_content() -> None:
    import pickle

    for rid in lupus.available():
        book = lupus.load(rid)
        back = pickle.loads(pickle.dumps(book))
        assert isinstance(back, Rulebook) and back.digest == book.digest and back == book


def test_every_rulebook_simulates_as_itself(house: dict[str, Path]) -> None:
    for rules, players in books(house):
        book = lupus.load(rules)
        args = ["simulate", "--rules", rules, "--players", str(players), "--games", "6"]
        result = runner.invoke(app, [*args, "--workers", "1", "--json"])
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        assert data["games"] == 6 and data["rules"] == book.id
        assert data["rules_digest"] == book.digest
        assert data["shipped_rules"] == is_shipped(book)
        assert sum(data["wins"].values()) + data["no_winner"] == 6


def test_workers_in_other_processes_play_the_house_rulebook(house: dict[str, Path]) -> None:
    """Two spawned workers get the rulebook itself: a house rulebook whose id names no
    shipped one (it could not be loaded again by id) plays its own rules there."""
    path = str(house["renamed.toml"])
    args = ["simulate", "--rules", path, "--players", "8", "--games", "40", "--seed", "2"]
    one = runner.invoke(app, [*args, "--workers", "1", "--json"])
    two = runner.invoke(app, [*args, "--workers", "2", "--json"])
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    keep = ("games", "wins", "mean_days", "rules_digest")
    first, second = json.loads(one.stdout), json.loads(two.stdout)
    assert {k: first[k] for k in keep} == {k: second[k] for k in keep}
    balance = ["balance", "--rules", path, "--players", "8", "--games", "4", "--top", "1"]
    result = runner.invoke(app, [*balance, "--pack", "2", "--workers", "2", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["counts"][0]["games_played"] > 0


def test_every_rulebook_balances_as_itself(house: dict[str, Path]) -> None:
    for rules, players in books(house):
        book = lupus.load(rules)
        args = ["balance", "--rules", rules, "--players", str(players), "--games", "3"]
        result = runner.invoke(
            app, [*args, "--top", "1", "--pack", "1", "--workers", "1", "--json"]
        )
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        assert data["rules"] == book.id and data["rules_digest"] == book.digest
        (count,) = data["counts"]
        assert count["games_played"] > 0


def test_no_game_played_is_no_success(house: dict[str, Path]) -> None:
    """A balance in which no composition can be played (the werewolf minimum wants two
    werewolves: a pack of one has no candidate, and the house rulebook recommends no
    composition for 8), and a simulation of no game, fail with the reason."""
    text = house_text("werewolf", [])
    cut = text[: text.index("[compositions]")] + text[text.index("[names.en]") :]
    path = house["renamed.toml"].parent / "bare.toml"
    path.write_text(cut, "utf-8")
    args = ["balance", "--rules", str(path), "--players", "8", "--games", "3", "--pack", "1"]
    result = runner.invoke(app, [*args, "--workers", "1"])
    assert result.exit_code == 1
    assert "no composition could be played" in result.output
    zero = runner.invoke(app, ["simulate", "--rules", "werewolf", "--games", "0", "--workers", "1"])
    assert zero.exit_code != 0
    assert "Traceback" not in zero.output


@pytest.mark.parametrize("name", [name for name, _, _, _ in HOUSE])
def test_every_house_rulebook_passes_the_conformance_check(
    house: dict[str, Path], name: str
) -> None:
    """``lupus.testing.check_rulebook`` on each house rulebook, from its file."""
    check_rulebook(str(house[name]), games=3, seed=4)
