"""Games share nothing: a game played after any other gives what it gives in a fresh process.

A server plays thousands of games in one process, and the engine keeps memos per
rulebook (checked tables of names, options, deals: ``lupus.rulebooks.facts.Memos``).
Each target game below is played once in a fresh interpreter, and then here after
other games (Hypothesis draws them: other rulebooks, player counts, options with
values equal but not identical to the target's, such as ``0.0`` and ``-0.0`` or ``1``
and ``True``, names equal to the target's under a ``str`` subclass, a deck refused or
accepted); the JSON of the leader's events must be byte-identical, and a setup refused
in a fresh process must be refused the same way.
"""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lupus
from isolation_games import play
from lupus.engine.model import LEADER
from lupus.engine.options import resolve_options
from lupus.rulebooks import available

HERE = Path(__file__).parent
EIGHT = [
    "werewolf",
    "werewolf",
    "seer",
    "villager",
    "villager",
    "villager",
    "villager",
    "little-girl",
]


def house_rulebook(folder: Path) -> str:
    """A house werewolf that keeps the shipped id: the Little Girl is always caught."""
    text = (Path(lupus.__file__).parent / "rulebooks" / "werewolf.toml").read_text("utf-8")
    text = text.replace(
        'type = "float"\ndefault = 0.2', 'type = "float"\ndefault = 1.0'
    )  # little_girl_catch_chance
    assert "default = 1.0" in text
    path = folder / "house.toml"
    path.write_text(text, "utf-8")
    return str(path)


def targets(house: str) -> list[dict[str, Any]]:
    names8 = [f"P{i}" for i in range(8)]
    return [
        # A deck of 8 cards for 7 players: refused, whatever was played before.
        {"rules": "werewolf", "players": names8[:7], "roles": EIGHT},
        {"rules": "werewolf", "players": names8, "roles": EIGHT, "seed": 3, "play_seed": 1},
        {
            "rules": "werewolf",
            "players": ["Zoe\u0301", *names8[1:]],
            "roles": EIGHT,
            "options": {"little_girl_catch_chance": -0.0, "captain": True},
            "seed": 5,
            "play_seed": 2,
        },
        {
            "rules": "tit-albert",
            "players": names8[:6],
            "counts": {"werewolf": 1, "seer": 1, "witch": 1, "villager": 3},
            "deal_seed": 4,
            "options": {"longanis_potions": 1, "quick": True},
            "seed": 1,
        },
        {
            "rules": "maffia",
            "players": [*names8, "P8"],
            "counts": dict(lupus.load("maffia").compositions["9"]),
            "deal_seed": 7,
            "seed": 2,
            "play_seed": 3,
        },
        {
            "rules": "mafia-classic",
            "players": names8[:5],
            "counts": {"mafia": 1, "villager": 4},
            "deal_seed": 1,
            "options": {"first_phase": "day"},
        },
        {"rules": "lupusburg", "players": names8[:5], "counts": {}, "deal_seed": 2, "seed": 9},
        # The house rulebook, by path: its own rules, not the shipped werewolf's.
        {"rules": house, "players": names8, "roles": EIGHT, "seed": 3, "play_seed": 1},
    ]


def fresh(specs: list[dict[str, Any]]) -> list[str]:
    """Each spec played in a fresh interpreter of its own (run two at a time)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), *sys.path])}
    command = [sys.executable, str(HERE / "isolation_games.py")]
    out: list[str] = []
    for i in range(0, len(specs), 2):
        running = [
            subprocess.Popen(
                command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, text=True
            )
            for _ in specs[i : i + 2]
        ]
        for proc, spec in zip(running, specs[i : i + 2], strict=True):
            stdout, _ = proc.communicate(json.dumps(spec), timeout=120)
            assert proc.returncode == 0
            out.append(stdout)
    return out


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[dict[str, Any]], list[str]]:
    specs = targets(house_rulebook(tmp_path_factory.mktemp("house")))
    return specs, fresh(specs)


class Twin(str):
    """A name equal to a plain one (same hash, same text), of another type."""

    __slots__ = ()


def odd_values(spec: Any) -> list[object]:
    """Values for an option that equal another of its values without being it."""
    if spec.type == "bool":
        return [True, False, 1, 0]
    if spec.type == "int":
        return [spec.default, True, float(spec.default), int(spec.min or 0)]
    if spec.type == "float":
        return [0.0, -0.0, 1, True, spec.default, math.nextafter(0.0, 1.0)]
    return list(spec.choices)


@st.composite
def other_games(draw: st.DrawFn, house: str) -> dict[str, Any]:
    """Another game: its setup may well be refused (that, too, must leave nothing)."""
    rules = draw(st.sampled_from([*available(), house]))
    book = lupus.load(rules)
    sizes = sorted(int(n) for n in book.compositions)
    n = draw(st.sampled_from(sizes))
    twin = draw(st.booleans())
    players = [Twin(f"P{i}") if twin else f"P{i}" for i in range(n)]
    if draw(st.booleans()):
        players[0] = draw(st.sampled_from(["Zoe\u0301", "Zoé", Twin("Zoé")]))
    options = {
        key: draw(st.sampled_from(odd_values(spec)))
        for key, spec in book.options.items()
        if draw(st.booleans())
    }
    game: dict[str, Any] = {"rules": rules, "options": options, "seed": draw(st.integers(0, 9))}
    counts = dict(book.compositions[str(n)])
    if book.family == "village" and draw(st.booleans()):
        deck = [r for r, k in counts.items() for _ in range(k)]
        random.Random(draw(st.integers(0, 99))).shuffle(deck)
        game["roles"] = deck if draw(st.booleans()) else deck[:-1]  # one player short
        players = players[: len(deck)]
    else:
        game["counts"], game["deal_seed"] = counts, draw(st.integers(0, 99))
    game["players"] = players
    return game


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_a_game_after_other_games_is_the_game_of_a_fresh_process(
    played: tuple[list[dict[str, Any]], list[str]], data: st.DataObject
) -> None:
    specs, expected = played
    house = specs[-1]["rules"]
    for other in data.draw(st.lists(other_games(house), min_size=1, max_size=4)):
        play(other)
    order = data.draw(st.permutations(range(len(specs))))
    for i in order:  # (the targets, too, run after one another in any order)
        assert play(specs[i]) == expected[i], f"target {i} differs from a fresh process"


def test_the_fresh_games_are_what_they_claim(
    played: tuple[list[dict[str, Any]], list[str]],
) -> None:
    """The targets test what they are meant to: a refused deck, -0.0 kept, a house
    rulebook that plays its own rules."""
    expected = played[1]
    assert "7 players need 7 role cards, got 8" in json.loads(expected[0])["why"]
    assert '"little_girl_catch_chance": -0.0' in expected[2]
    assert "events" in json.loads(expected[7])
    assert expected[7] != expected[1]  # the house's Little Girl is always caught
    for text in expected[1:]:
        assert json.loads(text)["events"], text


def test_a_deck_of_eight_is_refused_to_seven_after_a_game_of_eight() -> None:
    names = [f"P{i}" for i in range(8)]
    lupus.new_game("werewolf", names, EIGHT)
    with pytest.raises(lupus.SetupError, match="7 players need 7 role cards, got 8"):
        lupus.new_game("werewolf", names[:7], EIGHT)


def outcome(book: Any, key: str, value: object) -> tuple[object, str]:
    try:
        got = resolve_options(book, {key: value})[key]
    except lupus.SetupError as exc:
        return "refused", str(exc)
    return type(got), repr(got)


def unmemoised(book: Any, key: str, value: object) -> tuple[object, str]:
    try:
        got = book.options[key].check(value, key)
    except ValueError as exc:
        return "refused", f"option {exc}"
    return type(got), repr(got)


@pytest.mark.parametrize(
    ("first", "then"), [(0.0, -0.0), (-0.0, 0.0), (1, True), (True, 1), (1.0, 1), (1, 1.0)]
)
@pytest.mark.parametrize("key", ["little_girl_catch_chance", "captain"])
def test_checked_options_keep_the_value_given_whatever_came_before(
    key: str, first: object, then: object
) -> None:
    """Equal values of another type or sign are not the same option value: each is
    checked as given (kept as it is, or refused), whatever was checked before."""
    book = lupus.load("werewolf")
    outcome(book, key, first)
    assert outcome(book, key, then) == unmemoised(book, key, then)


def test_a_role_registered_later_is_checked_and_narrated_anew(tmp_path: Path) -> None:
    """What the family can play and what a narrator says are kept per rulebook; a role
    registered (or taken back) after a first use is seen by the next use."""
    from lupus.families import register_role, unregister_role
    from lupus.messages import tables
    from lupus.village.plugin import Role
    from lupus.village.steps import Ballot

    class Nap(Ballot):
        id = "nap_time"

    role = Role("napper", steps={"nap_time": Nap}, messages={"wake.nap_time": "Nap time."})
    text = (Path(lupus.__file__).parent / "rulebooks" / "werewolf.toml").read_text("utf-8")
    text = text.replace('later = ["seer",', 'later = ["nap_time", "seer",', 1)
    path = tmp_path / "nap.toml"
    path.write_text(text, "utf-8")
    book = lupus.load("werewolf")
    assert "wake.nap_time" not in tables(book, "en")[0]  # (narrated before: kept)
    with pytest.raises(lupus.RulebookError, match="unknown step 'nap_time'"):
        lupus.load(str(path))
    register_role(role)
    try:
        assert "wake.nap_time" in tables(book, "en")[0]
        assert lupus.load(str(path)).night.later[0] == "nap_time"
    finally:
        unregister_role(role)
    assert "wake.nap_time" not in tables(book, "en")[0]
    with pytest.raises(lupus.RulebookError, match="unknown step 'nap_time'"):
        lupus.load(str(path))


def test_a_process_keeps_the_rulebooks_its_games_hold_and_a_few_more() -> None:
    """A view carries its rulebook's digest; the rulebook is kept while a game holds it
    and among the last ``BOOKS_KEPT`` after that, not for ever (a process may replay
    thousands of scenarios that each carry a house rulebook)."""
    import gc

    from lupus.rulebooks import from_data
    from lupus.rulebooks.schema import BOOKS_KEPT, lookup_book, remember_book

    data = lupus.load("werewolf").model_dump(mode="json")
    names, cards = [f"P{i}" for i in range(8)], EIGHT
    first = lupus.new_game(from_data({**data, "id": "house-0"}), names, cards)
    view = first.view(LEADER)
    assert view.book.id == "house-0"
    del first
    digests = [remember_book(from_data({**data, "id": f"house-{i}"})) for i in range(1, 200)]
    gc.collect()
    assert BOOKS_KEPT // 2 < sum(lookup_book(d) is not None for d in digests) <= BOOKS_KEPT
    with pytest.raises(lupus.RulebookError, match="the rules of this game are gone"):
        lupus.narrate(view)
    held = lupus.new_game(from_data({**data, "id": "house-held"}), names, cards)
    for i in range(3 * BOOKS_KEPT):
        remember_book(from_data({**data, "id": f"again-{i}"}))
    gc.collect()
    assert held.view(LEADER).book.id == "house-held"  # (its game holds it)
