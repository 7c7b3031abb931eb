"""Every count and argument of the engine's ways in, swept as a hostile caller would.

``deal()``, ``new_game()``, ``Game.apply`` and scenario files are handed values of
every wrong type and size (Hypothesis): each must be refused at once (well under a
second, nothing built: a composition of 10**10 cards is counted, not laid out), with an
error of lupus's own classes and a short message of one line, and must change nothing
(the caller's values, the generator, and the next game, which plays as if no refusal
had come before it). The limits are in ``lupus.engine.limits`` (docs/architecture.md,
"Limits").
"""

from __future__ import annotations

import copy
import json
import random
import re
import subprocess
import sys
import threading
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lupus
from lupus import LEADER, Action, Deal, IllegalAction, LupusError, SetupError, deal, new_game
from lupus import scenario as sc
from lupus.engine.limits import (
    MAX_CARDS,
    MAX_COMPOSITION_ENTRIES,
    MAX_FILE_BYTES,
    MAX_OPTIONS,
    MAX_PATH_LENGTH,
    MAX_PLAYERS,
    MAX_SEED,
)

MESSAGE = 400
"""The longest refusal these tests accept (the longest real one quotes a rule)."""

SWEEP = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)

W, T, F = "werewolf", "thief", "townsfolk"
NAMES4 = ["Ann", "Ben", "Cat", "Dan"]
VILLAGE4: dict[str, Any] = {
    "roles": ["werewolf", "seer", "villager", "villager"],
    "options": {"lift_minimum": True},
    "seed": 1,
}
LUPUSBURG4: dict[str, Any] = {
    "characters": [[F, W], [T, F], [F, F], [F, F]],
    "chests": [1, 2, 1, 2],
    "burgomaster": 0,
    "bag": [8, 7, 6, 5, 4, 3, 2, 2],
    "seed": 1,
}


def within(seconds: float, call: Callable[[], object]) -> object:
    """``call()``'s result or exception, which must come within ``seconds`` (a call
    that never returns fails the test instead of hanging the suite)."""
    box: list[object] = []

    def run() -> None:
        try:
            box.append(("value", call()))
        except BaseException as exc:  # (handed back to the test)
            box.append(("error", exc))

    started = time.perf_counter()
    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    assert box, f"no answer after {seconds} s"
    assert time.perf_counter() - started < seconds
    kind, value = box[0]  # type: ignore[misc]
    if kind == "error":
        raise value  # type: ignore[misc]
    return value


def refused(call: Callable[[], object], error: type[Exception] = LupusError) -> str:
    """The message of ``call``'s refusal: at once, of lupus's own class (``error``),
    short and on one line."""
    with pytest.raises(error) as info:
        within(1.0, call)
    assert isinstance(info.value, LupusError), type(info.value)
    message = str(info.value)
    assert 0 < len(message) <= MESSAGE, (len(message), message[:200])
    assert "\n" not in message and "\r" not in message
    return message


def snapshot(value: object) -> str:
    """What a value holds, to tell that a refusal left it as it was (an ``object()``'s
    address aside)."""
    return re.sub(r" at 0x[0-9a-f]+", "", repr(value))


def fingerprint(game: lupus.Game) -> str:
    return json.dumps(game.view(LEADER).to_json(), sort_keys=True, default=str)


def village_game() -> lupus.Game:
    return new_game("werewolf", NAMES4, **VILLAGE4)


def lupusburg_game() -> lupus.Game:
    return new_game("lupusburg", NAMES4, **LUPUSBURG4)


BEFORE = {"werewolf": fingerprint(village_game()), "lupusburg": fingerprint(lupusburg_game())}
"""The reference games, made before any refusal: a refusal must not change the next."""


def unchanged_afterwards() -> None:
    assert fingerprint(village_game()) == BEFORE["werewolf"]
    assert fingerprint(lupusburg_game()) == BEFORE["lupusburg"]


# ----------------------------------------------------------------- values of every kind

NOT_INTS = st.one_of(
    st.booleans(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=6),
    st.none(),
    st.lists(st.integers(0, 9), max_size=3),
    st.tuples(st.integers(0, 9)),
    st.builds(object),
)
HUGE = st.one_of(st.integers(min_value=10**9), st.just(10**10), st.just(10**100))
NOT_LISTS = st.one_of(
    st.text(max_size=6), st.integers(), st.none(), st.booleans(), st.builds(object)
)


def bad_count(low: int, high: int) -> st.SearchStrategy[object]:
    """Anything but an int from ``low`` to ``high``."""
    return st.one_of(
        NOT_INTS,
        st.integers(max_value=low - 1),
        st.integers(min_value=high + 1),
        HUGE.filter(lambda n: n > high),
    )


# ----------------------------------------------------------------- deal()


@pytest.mark.parametrize("rules", ["werewolf", "maffia", "lupusburg"])
@SWEEP
@given(data=st.data())
def test_deal_refuses_a_bad_number_of_players_at_once(rules: str, data: st.DataObject) -> None:
    book = lupus.load(rules)
    players = data.draw(bad_count(book.min_players, min(book.max_players, MAX_PLAYERS)))
    rng = random.Random(5)
    state = rng.getstate()
    counts = lupus.composition(book, int(min(book.compositions, key=int)))
    kept = dict(counts)
    refused(lambda: deal(rules, players, counts, rng))
    assert rng.getstate() == state and counts == kept


def bad_compositions(book: lupus.Rulebook) -> st.SearchStrategy[object]:
    roles = sorted(book.roles)
    known = st.sampled_from(roles)
    return st.one_of(
        NOT_LISTS,  # not a mapping at all
        st.lists(st.tuples(known, st.integers(0, 3)), min_size=1, max_size=3),
        # an unknown role, or a key that is not a role id
        st.dictionaries(
            st.one_of(
                st.text(min_size=1).filter(lambda r: r not in book.roles),
                st.integers(),
                st.booleans(),
                st.none(),
                st.tuples(st.integers(0, 9)),
            ),
            st.integers(0, 3),
            min_size=1,
            max_size=3,
        ).filter(lambda d: any(type(k) is not str or k not in book.roles for k in d)),
        # a count that is not a whole number from 0 to MAX_CARDS
        st.builds(lambda r, n: {r: n}, known, bad_count(0, MAX_CARDS)),
        # more entries than a composition may name
        st.dictionaries(
            st.text(min_size=1, max_size=8),
            st.integers(0, 1),
            min_size=MAX_COMPOSITION_ENTRIES + 1,
            max_size=MAX_COMPOSITION_ENTRIES + 3,
        ),
        # known roles and whole counts that do not make the table's cards
        st.dictionaries(known, st.integers(0, MAX_CARDS), min_size=1).filter(
            lambda d: sum(d.values()) not in (8, 10)
        ),
    )


@pytest.mark.parametrize("rules", ["werewolf", "tit-albert", "maffia", "lupusburg"])
@SWEEP
@given(data=st.data())
def test_deal_refuses_a_bad_composition_before_building_anything(
    rules: str, data: st.DataObject
) -> None:
    book = lupus.load(rules)
    counts = data.draw(bad_compositions(book))
    kept = snapshot(counts)
    rng = random.Random(5)
    state = rng.getstate()
    refused(lambda: deal(rules, 8, counts, rng))  # type: ignore[arg-type]
    assert rng.getstate() == state
    assert snapshot(counts) == kept
    unchanged_afterwards()


@SWEEP
@given(
    rng=st.one_of(NOT_LISTS, st.just(random)),
    options=st.one_of(
        st.lists(st.integers(), max_size=2),
        st.dictionaries(st.integers(), st.booleans(), min_size=1, max_size=2),
        st.just({"lift_minimum": 1}),
        st.just({"no_such_option": True}),
        st.just({f"o{i}": True for i in range(MAX_OPTIONS + 1)}),
    ),
)
def test_deal_refuses_a_bad_generator_or_bad_options(rng: object, options: object) -> None:
    counts = lupus.composition(lupus.load("werewolf"), 8)
    refused(lambda: deal("werewolf", 8, counts, rng))  # type: ignore[arg-type]
    refused(lambda: deal("werewolf", 8, counts, random.Random(1), options))  # type: ignore[arg-type]


HUGE_DEAL = """
import random, resource, sys, time, tracemalloc
resource.setrlimit(resource.RLIMIT_AS, (2 * 1024**3, 2 * 1024**3))
import lupus
lupus.deal("werewolf", 8, {"werewolf": 2, "seer": 1, "villager": 5}, random.Random(0))  # (warm)
rng = random.Random(0)
tracemalloc.start()
started = time.perf_counter()
try:
    lupus.deal("werewolf", 8, {"werewolf": int(sys.argv[1]), "seer": 1, "villager": 5}, rng)
except lupus.SetupError as exc:
    print(type(exc).__name__, time.perf_counter() - started, tracemalloc.get_traced_memory()[1])
"""


def test_a_huge_composition_is_refused_without_allocating() -> None:
    """Counted, not laid out: a deck of 10**10 cards took seconds and gigabytes. (In a
    process of its own, its memory capped: a dealer that built the deck again would fail
    this test, not the machine.)"""
    for count in (10**10, 10**18):
        done = subprocess.run(
            [sys.executable, "-c", HUGE_DEAL, str(count)],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        kind, seconds, peak = done.stdout.split()
        assert kind == "SetupError", done.stderr[-500:]
        assert float(seconds) < 0.1 and int(peak) < 16 * 1024, (seconds, peak)


def test_a_composition_within_bounds_is_counted_before_it_is_laid_out() -> None:
    """Every role of the rulebook at the most a count may be (2,048 cards): counted
    against the seats before a deck of them is built (which alone takes 18 kB)."""
    book = lupus.load("werewolf")
    counts = dict.fromkeys(book.roles, MAX_CARDS)
    rng = random.Random(0)
    refused(lambda: deal(book, 8, counts, rng))  # (warm)
    tracemalloc.start()
    try:
        with pytest.raises(SetupError) as info:
            deal(book, 8, counts, rng)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert f"{MAX_CARDS * len(book.roles)} cards for 8 players" in str(info.value)
    assert peak < 8 * 1024, peak


@pytest.mark.parametrize("players", [0, 1, 2, 3, -1, 9, 10**10])
def test_a_lupusburg_table_it_cannot_seat_is_refused_at_once(players: int) -> None:
    """``deal("lupusburg", 1)`` never returned: one player holds both the Werewolf and
    the Thief at every redeal."""
    message = refused(lambda: deal("lupusburg", players, {}, random.Random(0)), SetupError)
    assert "4 to 8 players" in message


def test_lupusburg_deals_its_one_deck_only() -> None:
    book = lupus.load("lupusburg")
    assert deal(book, 5, {}, random.Random(0)).characters
    assert deal(book, 5, lupus.composition(book, 5), random.Random(0)).characters
    message = refused(lambda: deal(book, 5, {"werewolf": 2, "townsfolk": 8}, random.Random(0)))
    assert "one deck only" in message


def test_a_good_deal_still_deals() -> None:
    """The sweeps above refuse only what is wrong."""
    book = lupus.load("werewolf")
    for players in range(8, 19):
        dealt = deal(book, players, lupus.composition(book, players), random.Random(players))
        assert len(dealt.roles) == players


# ----------------------------------------------------------------- new_game()

VILLAGE_ARGUMENTS: dict[str, st.SearchStrategy[object]] = {
    "players": st.one_of(
        NOT_LISTS,
        st.just(range(10**10)),
        st.lists(st.text(max_size=3), min_size=MAX_PLAYERS + 1, max_size=MAX_PLAYERS + 2),
        st.lists(NOT_INTS.filter(lambda v: type(v) is not str), min_size=4, max_size=4),
    ),
    "roles": st.one_of(
        NOT_LISTS,
        st.just(range(10**10)),
        st.lists(NOT_INTS.filter(lambda v: type(v) is not str), min_size=4, max_size=4),
        st.lists(st.text(min_size=41, max_size=60), min_size=4, max_size=4),
        st.just(["villager"] * (MAX_CARDS + 1)),
    ),
    "extra_cards": st.one_of(
        st.integers(), st.lists(st.integers(), min_size=1, max_size=2), st.just(["x" * 10**5])
    ),
    "options": st.one_of(
        st.lists(st.integers(), max_size=2),
        st.dictionaries(st.integers(), st.booleans(), min_size=1, max_size=2),
        st.just({"lift_minimum": 1}),
        st.just({"lift_minimum": True, "x" * 10**5: 1}),
        st.just({f"o{i}": True for i in range(MAX_OPTIONS + 1)}),
    ),
    "seed": bad_count(0, MAX_SEED),
}

LUPUSBURG_ARGUMENTS: dict[str, st.SearchStrategy[object]] = {
    "characters": st.one_of(
        NOT_LISTS,
        st.just([[F, W], [T, F], [F, F], 5]),
        st.just([[F, W], [T, F], [F, F], [F, 1.0]]),
        st.just([[F, W], [T, F], [F, F], ["x" * 10**5, F]]),
        st.just([[F, F]] * (MAX_PLAYERS + 1)),
    ),
    "chests": st.one_of(
        NOT_LISTS,
        st.lists(
            st.sampled_from([1.0, 2.0, True, False, "1", None, 3, 0, -1]), min_size=4, max_size=4
        ),
        st.just([1, 2, 1.0, 2]),
        st.just(range(10**10)),
    ),
    "burgomaster": st.one_of(NOT_INTS, st.integers(max_value=-1), st.integers(min_value=4)),
    "bag": st.one_of(
        st.integers(),
        st.text(min_size=1, max_size=4),
        st.just([8, 7, 6, 5, 4, 3, 2, 2.0]),
        st.just([8.0, 7, 6, 5, 4, 3, 2, 2]),
        st.just([8, 7, 6, 5, 4, 3, 2, True]),
        st.just(list(range(10**5))),
        st.just(range(10**10)),
    ),
    "seed": bad_count(0, MAX_SEED),
    "options": st.just({"no_such_option": True}),
}


@SWEEP
@given(data=st.data())
def test_new_game_refuses_every_bad_argument_at_once(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(sorted(VILLAGE_ARGUMENTS)))
    value = data.draw(VILLAGE_ARGUMENTS[name])
    given_args = {"players": NAMES4, **VILLAGE4, name: value}
    kept = snapshot(given_args)
    players = given_args.pop("players")
    refused(lambda: new_game("werewolf", players, **given_args))  # type: ignore[arg-type]
    assert snapshot({"players": players, **given_args}) == kept
    unchanged_afterwards()


@SWEEP
@given(data=st.data())
def test_new_game_refuses_every_bad_lupusburg_argument_at_once(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(sorted(LUPUSBURG_ARGUMENTS)))
    value = data.draw(LUPUSBURG_ARGUMENTS[name])
    given_args = {**LUPUSBURG4, name: value}
    kept = snapshot(given_args)
    refused(lambda: new_game("lupusburg", NAMES4, **given_args))  # type: ignore[arg-type]
    assert snapshot(given_args) == kept
    unchanged_afterwards()


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"chests": [1, 2, 1.0, 2]}, "chest is under house 1 or 2, not 1.0"),
        ({"chests": [1, 2, 2.0, 2]}, "not 2.0"),
        ({"bag": [8, 7, 6, 5, 4, 3, 2, 2.0]}, "the bag holds exactly the coins"),
        ({"bag": [8, 7, 6, 5, 4, 3, True, 2]}, "the bag holds exactly the coins"),
        ({"burgomaster": 1.0}, "first Burgomaster"),
        ({"burgomaster": True}, "first Burgomaster"),
    ],
)
def test_lupusburg_takes_chests_coins_and_burgomaster_as_whole_numbers(
    change: dict[str, object], words: str
) -> None:
    """A chest or a coin of 1.0 equals 1: it was accepted, and the game broke at the
    first bet."""
    message = refused(lambda: new_game("lupusburg", NAMES4, **{**LUPUSBURG4, **change}))
    assert words in message


def test_a_deal_built_by_hand_is_checked_as_new_games_arguments_are() -> None:
    """``Deal`` trusts its caller; ``set_up`` does not."""
    from lupus.families import set_up

    book = lupus.load("werewolf")
    bad = Deal(roles=tuple(range(4)))  # type: ignore[arg-type]
    refused(lambda: set_up(book, NAMES4, bad, {"lift_minimum": True}))
    refused(lambda: set_up(book, NAMES4, "a deal", {"lift_minimum": True}))  # type: ignore[arg-type]


def test_a_name_and_an_option_are_measured_before_they_are_read() -> None:
    """A name is measured before it is normalized, an option's value before it is
    quoted (a list of a million items was rendered whole, then cut)."""
    refused(lambda: new_game("werewolf", ["A" * 10**7, "B", "C", "D"], **VILLAGE4))
    roles, counts = VILLAGE4["roles"], {"werewolf": 2, "villager": 6}
    for value in (list(range(10**6)), "x" * 10**6, {"a": 1}, None, b"yes"):
        options = {"lift_minimum": True, "little_girl_catch_chance": value}
        refused(lambda o=options: new_game("werewolf", NAMES4, roles, options=o))
        refused(lambda o=options: deal("werewolf", 8, counts, random.Random(0), o))
    unchanged_afterwards()


@pytest.mark.parametrize("rules", [5, None, b"werewolf", ["werewolf"], 2.5])
def test_a_rulebook_that_is_not_one_is_a_rulebook_error(rules: object) -> None:
    refused(lambda: deal(rules, 8, {}, random.Random(0)), lupus.RulebookError)  # type: ignore[arg-type]
    refused(lambda: new_game(rules, NAMES4), lupus.RulebookError)  # type: ignore[arg-type]
    refused(lambda: lupus.composition(rules, 8), lupus.RulebookError)  # type: ignore[arg-type]


# ----------------------------------------------------------------- Game.apply's refusals

ARGUMENTS = st.one_of(
    st.integers(),
    st.text(max_size=100_000),
    st.floats(),
    st.booleans(),
    st.none(),
    st.lists(st.integers(), max_size=5),
    st.just(10**5000),
)


@SWEEP
@given(
    verb=st.sampled_from(["inspect", "kill", "sleep", "x" * 100_000]),
    args=st.one_of(
        st.lists(ARGUMENTS, max_size=6).map(tuple),
        st.just(tuple(range(100_000))),
        st.just(("x" * 100_000,) * 3),
        st.just((1,) * 100_000),
    ),
)
def test_a_refused_action_never_quotes_its_input_whole(verb: str, args: tuple[object, ...]) -> None:
    """An action of 100,000 arguments gave a 500,000-character message."""
    game = village_game()
    before = fingerprint(game)
    try:
        within(1.0, lambda: game.apply(Action(1, verb, args)))  # type: ignore[arg-type]
    except IllegalAction as exc:
        assert len(str(exc)) <= MESSAGE, len(str(exc))
        assert "\n" not in str(exc)
        assert fingerprint(game) == before  # refused: nothing changed
    parts = refused(lambda: Action.of(1, verb, list(args)), IllegalAction) if len(args) > 8 else ""
    assert len(parts) <= MESSAGE


def test_a_long_name_in_a_scenario_line_is_quoted_short() -> None:
    game = village_game()
    refused(lambda: game.parse_target("inspect", "Z" * 100_000), IllegalAction)
    step = sc.ScenarioAction(actor="Z" * 9_000, do="inspect")
    refused(lambda: sc.to_action(game, step), IllegalAction)
    burg = lupusburg_game()
    refused(lambda: burg.parse_target("peek", "Z" * 9_000 + ".1"), IllegalAction)


# ----------------------------------------------------------------- scenario files


def village_scenario() -> dict[str, Any]:
    return {
        "rules": "werewolf",
        "options": {"lift_minimum": True},
        "seed": 3,
        "players": NAMES4,
        "roles": dict(zip(NAMES4, VILLAGE4["roles"], strict=True)),
        "actions": [{"actor": "Ben", "do": "inspect", "target": "Ann"}],
    }


def lupusburg_scenario() -> dict[str, Any]:
    return {
        "rules": "lupusburg",
        "players": NAMES4,
        "characters": dict(zip(NAMES4, LUPUSBURG4["characters"], strict=True)),
        "chests": dict(zip(NAMES4, LUPUSBURG4["chests"], strict=True)),
        "bag": list(LUPUSBURG4["bag"]),
        "actions": [{"actor": "Ben", "do": "peek", "target": "Cat.1"}],
    }


WRONG_TYPES = st.one_of(
    st.booleans(), st.text(max_size=5), st.floats(), st.none(), st.lists(st.integers(), max_size=2)
)


def bad_scenarios() -> st.SearchStrategy[tuple[str, dict[str, Any]]]:
    """(the key to name, a scenario with that key wrong)."""

    def put(base: dict[str, Any], key: str, value: object) -> tuple[str, dict[str, Any]]:
        data = copy.deepcopy(base)
        where: Any = data
        parts = key.split(".")
        for part in parts[:-1]:
            where = where[int(part)] if part.isdigit() else where[part]
        where[parts[-1]] = value
        return key, data

    village, burg = village_scenario(), lupusburg_scenario()
    return st.one_of(
        st.builds(lambda v: put(village, "seed", v), st.one_of(WRONG_TYPES, st.just("7"))),
        st.builds(
            lambda v: put(village, "seed", v),
            bad_count(0, MAX_SEED).filter(lambda v: type(v) is int),
        ),
        st.builds(
            lambda v: put(burg, "actions.0.coin", v),
            st.one_of(WRONG_TYPES.filter(lambda v: v is not None), HUGE),
        ),
        st.builds(lambda v: put(burg, "chests.Ann", v), WRONG_TYPES),
        st.builds(
            lambda v: put(burg, "bag", v),
            st.one_of(
                st.just([8, 7, 6, 5, 4, 3, 2, 2.0]), st.just([True] * 8), st.just(list(range(65)))
            ),
        ),
        st.builds(
            lambda v: put(village, "players", v),
            st.one_of(st.just(["P"] * (MAX_PLAYERS + 1)), st.just([1, 2, 3, 4])),
        ),
        st.builds(
            lambda v: put(village, "roles.Ann", v), st.one_of(st.just("w" * 41), st.integers())
        ),
        st.builds(lambda v: put(village, "description", v), st.just("d" * 10_001)),
        st.builds(
            lambda v: put(village, "options", v),
            st.just({f"o{i}": True for i in range(MAX_OPTIONS + 1)}),
        ),
        st.builds(lambda v: put(village, "actions.0.actor", v), st.just("a" * 10_001)),
        st.builds(lambda v: put(village, "actions.0.targets", v), st.just(["Ann"] * 9)),
        st.builds(lambda v: put(village, "rules", v), st.just("r" * (MAX_PATH_LENGTH + 1))),
    )


@SWEEP
@given(case=bad_scenarios())
def test_a_scenario_value_of_the_wrong_type_or_size_is_refused_naming_its_key(
    case: tuple[str, dict[str, Any]],
) -> None:
    """A seed or a coin given as ``true`` or ``"3"`` was read as 1 or 3."""
    key, data = case
    message = refused(lambda: sc.setup(sc.parse(data)), sc.ScenarioError)
    assert key.split(".")[0] in message, (key, message)


def test_a_scenario_of_too_many_actions_is_refused_at_once() -> None:
    data = village_scenario()
    data["actions"] = [{"actor": "Ben", "do": "pass"}] * 200_001
    assert "actions" in refused(lambda: sc.parse(data), sc.ScenarioError)


def test_a_good_scenario_still_replays() -> None:
    for data in (village_scenario(), lupusburg_scenario()):
        assert sc.replay(sc.parse(data)).error_index is None


@pytest.mark.parametrize("length", [300, 5_000, MAX_PATH_LENGTH + 1])
def test_a_rulebook_path_too_long_for_the_system_is_an_error(length: int) -> None:
    """It was a traceback (``Path.is_file`` raised OSError)."""
    path = "r" * (length - 5) + ".toml"
    message = refused(lambda: lupus.load(path), lupus.RulebookError)
    assert "..." in message  # (the path's end only)
    data = village_scenario() | {"rules": path}
    if length <= MAX_PATH_LENGTH:
        refused(lambda: sc.setup(sc.parse(data)), sc.ScenarioError)


def test_a_file_too_large_is_refused_before_it_is_read(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    with big.open("wb") as file:  # (sparse: nothing is written)
        file.truncate(MAX_FILE_BYTES + 1)
    assert "16 MiB" in refused(lambda: sc.read(big), sc.ScenarioError)
    toml = tmp_path / "big.toml"
    with toml.open("wb") as file:
        file.truncate(MAX_FILE_BYTES + 1)
    assert "16 MiB" in refused(lambda: lupus.load(str(toml)), lupus.RulebookError)
