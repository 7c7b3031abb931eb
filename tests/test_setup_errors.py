"""Deals and options the werewolf and tit-albert rulebooks refuse before anyone plays.

A refused setup is not a scenario outcome: `lupus replay` exits with status 1 and says
why. Each case names the rule (seed or README decision) it enforces.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from lupus import scenario as sc
from lupus.cli import app

FOUR = ["Ann", "Ben", "Cat", "Dan"]


def deal(*roles: str, rules: str = "werewolf") -> dict[str, Any]:
    """A scenario dict for as many players as roles (Ann, Ben, Cat, Dan, then P4...)."""
    players = [*FOUR, *(f"P{i}" for i in range(4, len(roles)))][: len(roles)]
    return {"rules": rules, "players": players, "roles": dict(zip(players, roles, strict=True))}


def with_(data: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {**data, **extra}


BASIC = ("werewolf", "seer", "villager", "villager")

REFUSED: list[tuple[str, dict[str, Any], str]] = [
    # README: a game needs a pack; nobody can play against nobody.
    ("no werewolf (werewolf)", deal("villager", "seer", "villager", "villager"), "no werewolf"),
    (
        "no werewolf (tit-albert)",
        deal("villager", "seer", "villager", "villager", rules="tit-albert"),
        "no werewolf",
    ),
    ("only werewolves", deal("werewolf", "werewolf", "werewolf", "werewolf"), "every player"),
    # Seed: 2 extra cards must be added to the game for the Thief.
    ("thief without extra cards", deal("werewolf", "thief", "villager", "villager"), "two extra"),
    (
        "thief with one extra card",
        with_(deal("werewolf", "thief", "villager", "villager"), extra_cards=["villager"]),
        "two extra",
    ),
    (
        "thief with three extra cards",
        with_(deal("werewolf", "thief", "villager", "villager"), extra_cards=["villager"] * 3),
        "two extra",
    ),
    (
        "thief without extra cards (tit-albert)",
        deal("werewolf", "thief", "villager", "villager", rules="tit-albert"),
        "two extra",
    ),
    (
        "extra cards without a thief",
        with_(deal(*BASIC), extra_cards=["villager", "villager"]),
        "no player holds the thief",
    ),
    (
        "an unknown extra card",
        with_(deal("werewolf", "thief", "villager", "villager"), extra_cards=["mayor", "villager"]),
        "unknown role 'mayor'",
    ),
    # Player and role counts.
    (
        "a player without a role",
        {**deal(*BASIC), "roles": dict(zip(FOUR[:3], BASIC[:3], strict=True))},
        "no role for Dan",
    ),
    (
        "a role for someone who does not play",
        {**deal(*BASIC), "roles": {**dict(zip(FOUR, BASIC, strict=True)), "Eve": "villager"}},
        "Eve is not among the players",
    ),
    ("no roles at all", {"rules": "werewolf", "players": FOUR}, "roles"),
    ("two players", deal("werewolf", "villager"), "3 to 30 players"),
    ("31 players", deal("werewolf", "werewolf", "werewolf", *["villager"] * 28), "not 31"),
    ("an unknown role", deal("werewolf", "mayor", "villager", "villager"), "unknown role 'mayor'"),
    ("two seers", deal("werewolf", "seer", "seer", "villager"), "at most 1 seer"),
    ("two witches", deal("werewolf", "witch", "witch", "villager"), "at most 1 witch"),
    ("two hunters", deal("werewolf", "hunter", "hunter", "villager"), "at most 1 hunter"),
    ("two cupids", deal("werewolf", "cupid", "cupid", "villager"), "at most 1 cupid"),
    (
        "two little girls",
        deal("werewolf", "little-girl", "little-girl", "villager"),
        "at most 1 little-girl",
    ),
    (
        "a thief among the extra cards",
        with_(deal("werewolf", "thief", "villager", "villager"), extra_cards=["thief", "villager"]),
        "at most 1 thief",
    ),
    # Tit-albert seed: a game has 1, 2, 3 or 4 Tit Albert (README: those dealt and the
    # Voler's two extra cards; none, or five and more, is refused).
    (
        "five Tit Albert",
        deal(*["werewolf"] * 5, *["villager"] * 6, rules="tit-albert"),
        "at most 4 werewolf",
    ),
    (
        "five Tit Albert counting the Voler's extra cards",
        with_(
            deal(*["werewolf"] * 4, "thief", *["villager"] * 4, rules="tit-albert"),
            extra_cards=["werewolf", "villager"],
        ),
        "at most 4 werewolf",
    ),
    (
        "no Tit Albert, not even among the Voler's extra cards",
        with_(
            deal("thief", "seer", "villager", "villager", rules="tit-albert"),
            extra_cards=["villager", "villager"],
        ),
        "no werewolf is dealt to a player or among the thief's extra cards",
    ),
    (
        "duplicate names",
        {
            "rules": "werewolf",
            "players": ["Ann", "Ann", "Cat", "Dan"],
            "roles": {"Ann": "werewolf", "Cat": "seer", "Dan": "villager"},
        },
        "unique",
    ),
    (
        "a player named leader",
        {
            "rules": "werewolf",
            "players": ["leader", "Ben", "Cat", "Dan"],
            "roles": dict(zip(["leader", "Ben", "Cat", "Dan"], BASIC, strict=True)),
        },
        "reserved",
    ),
    # Werewolf seed: the werewolves win when at most one non-werewolf is alive.
    (
        "already won",
        with_(deal("werewolf", "werewolf", "villager"), options={"lift_minimum": True}),
        "decided before anyone plays",
    ),
    # Werewolf seed: "The minimum configuration is: 2 Werewolves, 1 Seer, 5 Simple
    # Villagers" (README: 8 players, 2 werewolf cards and a seer card in the game).
    ("seven players", deal("werewolf", "werewolf", "seer", *["villager"] * 4), "7 players, not 8"),
    (
        "one werewolf",
        deal("werewolf", "seer", *["villager"] * 6),
        r'^"The minimum configuration is: 2 Werewolves, 1 Seer, 5 Simple Villagers\." '
        "This game has 1 Werewolf card, not 2",
    ),
    ("no seer", deal("werewolf", "werewolf", "witch", *["villager"] * 5), "0 Seer cards, not 1"),
    ("the minimum names its option", deal(*BASIC), "the option lift_minimum lifts"),
    (
        "the minimum option is a bool",
        with_(deal(*BASIC), options={"lift_minimum": 1}),
        "lift_minimum must be true or false",
    ),
    # README: the quick game (tit-albert) skips the Thief, Cupid and Lovers.
    (
        "quick game with a thief",
        with_(
            deal("werewolf", "thief", "villager", "villager", rules="tit-albert"),
            options={"quick": True},
            extra_cards=["villager", "villager"],
        ),
        "thief cannot play",
    ),
    (
        "quick game with cupid",
        with_(
            deal("werewolf", "cupid", "villager", "villager", rules="tit-albert"),
            options={"quick": True},
        ),
        "cupid cannot play",
    ),
    # Options: each rulebook knows its own.
    ("quick is tit-albert's", with_(deal(*BASIC), options={"quick": True}), "unknown option"),
    (
        "longanis_potions is tit-albert's",
        with_(deal(*BASIC), options={"longanis_potions": 1}),
        "unknown option",
    ),
    ("an unknown option", with_(deal(*BASIC), options={"mayor": True}), "unknown option 'mayor'"),
    (
        "catch chance above 1",
        with_(deal(*BASIC), options={"little_girl_catch_chance": 1.5}),
        "little_girl_catch_chance",
    ),
    (
        "catch chance below 0",
        with_(deal(*BASIC), options={"little_girl_catch_chance": -0.1}),
        "little_girl_catch_chance",
    ),
    (
        "three potions",
        with_(deal(*BASIC, rules="tit-albert"), options={"longanis_potions": 3}),
        "longanis_potions",
    ),
    (
        "no potion",
        with_(deal(*BASIC, rules="tit-albert"), options={"longanis_potions": 0}),
        "longanis_potions",
    ),
    ("captain not a bool", with_(deal(*BASIC), options={"captain": "yes"}), "captain"),
    ("an unknown rulebook", deal(*BASIC, rules="chess"), "chess"),
]


@pytest.mark.parametrize(
    ("data", "message"), [(d, m) for _, d, m in REFUSED], ids=[name for name, _, _ in REFUSED]
)
def test_setup_refused(data: dict[str, Any], message: str) -> None:
    with pytest.raises(sc.ScenarioError, match=message):
        sc.setup(sc.parse(data))


ACCEPTED: list[tuple[str, dict[str, Any]]] = [
    ("the seed's minimum", deal("werewolf", "werewolf", "seer", *["villager"] * 5)),
    (
        "thief with two werewolves aside",
        with_(
            deal("werewolf", "thief", "villager", "villager"),
            extra_cards=["werewolf"] * 2,
            options={"lift_minimum": True},
        ),
    ),
    # README: any deal is a game; the werewolf cards may all lie among the Thief's two
    # extra cards (he must take one of two, chooses beside another card), and a deal
    # whose Thief plays is judged after his step, never already won at set-up.
    (
        "the only werewolf cards are the thief's two extra cards",
        with_(
            deal("thief", "seer", *["villager"] * 6),
            extra_cards=["werewolf"] * 2,
        ),
    ),
    (
        "the only Tit Albert cards are the Voler's two extra cards",
        with_(
            deal("thief", "seer", "villager", "villager", rules="tit-albert"),
            extra_cards=["werewolf"] * 2,
        ),
    ),
    (
        "the only werewolf card beside another extra card",
        with_(
            deal("thief", "seer", "villager", "villager"),
            extra_cards=["werewolf", "villager"],
            options={"lift_minimum": True},
        ),
    ),
    (
        "one Tit Albert, among the Voler's extra cards",
        with_(
            deal("thief", "villager", "villager", rules="tit-albert"),
            extra_cards=["werewolf", "villager"],
        ),
    ),
    (
        "a deal whose thief plays is judged after his step",
        with_(
            deal("werewolf", "werewolf", "thief"),
            extra_cards=["villager"] * 2,
            options={"lift_minimum": True},
        ),
    ),
    (
        "the minimum counts the thief's extra cards",
        with_(
            deal("werewolf", "thief", "seer", *["villager"] * 5),
            extra_cards=["werewolf", "villager"],
        ),
    ),
    (
        "a seer among the thief's extra cards",
        with_(
            deal("werewolf", "werewolf", "thief", *["villager"] * 5),
            extra_cards=["seer", "villager"],
        ),
    ),
    (
        "other roles stand in for villagers",
        deal("werewolf", "werewolf", "seer", "witch", "hunter", "cupid", "little-girl", "villager"),
    ),
    ("house rules: four players", with_(deal(*BASIC), options={"lift_minimum": True})),
    (
        "house rules: no seer, one werewolf",
        with_(deal("werewolf", "villager", "villager"), options={"lift_minimum": True}),
    ),
    (
        "tit-albert keeps its own limits",
        deal("werewolf", "villager", "villager", rules="tit-albert"),
    ),
    ("one Tit Albert", deal("werewolf", "villager", "villager", rules="tit-albert")),
    ("four Tit Albert", deal(*["werewolf"] * 4, *["villager"] * 5, rules="tit-albert")),
    (
        "quick game without preparation roles",
        with_(
            deal("werewolf", "witch", "villager", "villager", rules="tit-albert"),
            options={"quick": True},
        ),
    ),
    (
        "every option of tit-albert",
        with_(
            deal("werewolf", "little-girl", "witch", "villager", rules="tit-albert"),
            options={
                "captain": True,
                "little_girl_catch_chance": 0.5,
                "longanis_potions": 1,
                "quick": False,
            },
        ),
    ),
    (
        "every option of werewolf",
        with_(
            deal(*BASIC),
            options={"captain": True, "little_girl_catch_chance": 1.0, "lift_minimum": True},
        ),
    ),
]


@pytest.mark.parametrize("data", [d for _, d in ACCEPTED], ids=[name for name, _ in ACCEPTED])
def test_setup_accepted(data: dict[str, Any]) -> None:
    game = sc.setup(sc.parse(data))
    assert not game.finished


def test_bad_scenario_keys_refused() -> None:
    with pytest.raises(sc.ScenarioError, match="mayor"):
        sc.parse({**deal(*BASIC), "mayor": "Ann"})
    with pytest.raises(sc.ScenarioError):
        sc.parse({**deal(*BASIC), "actions": [{"actor": "Ann", "do": "kill", "whom": "Ben"}]})


def test_replay_exits_1_with_the_reason(tmp_path: Path) -> None:
    path = tmp_path / "no-werewolf.json"
    path.write_text(json.dumps(deal("villager", "seer", "villager", "villager")), "utf-8")
    result = CliRunner().invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == 1
    assert "no werewolf" in result.stderr


def test_checked_setups_are_remembered_within_bounds_and_still_checked() -> None:
    """A game set up again with checked cards and names skips their checks, but the
    memory of them is bounded (a server meets new names in every room), and a table
    of names met after the bound is still checked."""
    from lupus.engine.errors import SetupError
    from lupus.engine.options import resolve_options
    from lupus.families import new_game
    from lupus.rulebooks import load
    from lupus.rulebooks.facts import KEPT, memos

    book = load("werewolf")
    roles = ["werewolf", "seer", "villager", "villager"]
    lifted: dict[str, Any] = {"lift_minimum": True}
    for i in range(KEPT + 50):
        new_game(book, [f"A{i}", f"B{i}", f"C{i}", f"D{i}"], roles, options=lifted, seed=i)
    assert len(memos(book.facts.digest).valid_names) <= KEPT
    with pytest.raises(SetupError, match="unique"):
        new_game(book, ["Zed", "Zed", "Yan", "Xia"], roles, options=lifted)
    # The same cards, checked and kept under house rules, are still refused without them.
    with pytest.raises(SetupError, match="minimum configuration"):
        new_game(book, ["Ann", "Ben", "Cat", "Dan"], roles)
    for i in range(KEPT + 50):
        chance = i / (KEPT + 50)
        assert (
            resolve_options(book, {"little_girl_catch_chance": chance})["little_girl_catch_chance"]
            == chance
        )
    assert len(memos(book.facts.digest).options_seen) <= KEPT
