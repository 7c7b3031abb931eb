"""Typed events: every event a game emits fits its family's schema, and survives JSON.

The corpus is every scenario file and fifty seeded self-play games of each rulebook
(random and heuristic bots, a small and a large table). Every event there, as the game
records it and as each seat's view hands it out, fits the schema of its kind
(``lupus.village.events``, ``lupus.lupusburg.events``); every kind declared is emitted
somewhere and every kind emitted is declared; ``from_json(to_json(ev))`` is ``ev``
again, through JSON text too. Malformed JSON raises ValueError saying why, and nothing
else, whatever junk it is.
"""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from types import MappingProxyType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lupus import scenario as sc
from lupus.engine.event_check import check
from lupus.engine.event_json import from_json, plain, to_json
from lupus.engine.events import (
    INT,
    INT_OR_NONE,
    JSON,
    NUMBER,
    SEAT,
    SEATS,
    TEXT_OR_NONE,
    EventSpec,
    table,
)
from lupus.engine.game import Game
from lupus.engine.model import LEADER, Event
from lupus.engine.views import event_json, role_facts
from lupus.families import event_specs, load
from lupus.sim.config import SimConfig
from lupus.sim.selfplay import Table, play
from lupus.testing.contract import check_json

ROOT = Path(__file__).parent
SCENARIOS = sorted((ROOT / "scenarios").rglob("*.json"))
VILLAGE = event_specs(load("werewolf"))  # (the family's kinds and its roles')
LUPUSBURG = event_specs(load("lupusburg"))
SPECS: dict[str, Mapping[str, EventSpec]] = {"village": VILLAGE, "lupusburg": LUPUSBURG}
FAMILIES: dict[str, tuple[str, ...]] = {
    "village": ("werewolf", "tit-albert", "maffia", "mafia-classic"),
    "lupusburg": ("lupusburg",),
}
RULEBOOKS = [rules for books in FAMILIES.values() for rules in books]
# (players, bots, games) per rulebook: fifty seeded games each.
RUNS: dict[str, list[tuple[int, str, int]]] = {
    "werewolf": [(8, "random", 25), (14, "heuristic", 25)],
    "tit-albert": [(7, "random", 25), (12, "heuristic", 25)],
    "maffia": [(6, "random", 25), (12, "heuristic", 25)],
    "mafia-classic": [(7, "random", 25), (10, "heuristic", 25)],
    "lupusburg": [(5, "random", 25), (8, "heuristic", 25)],
}
SEED = 7


def family(game: Game) -> str:
    return "lupusburg" if game.rulebook.family == "lupusburg" else "village"


@cache
def games(rules: str) -> tuple[Game, ...]:
    """The corpus of one rulebook: its scenario files replayed, and its seeded games."""
    found: list[Game] = []
    for path in SCENARIOS:
        scenario = sc.read(path)
        if scenario.rules == rules:
            found.append(sc.replay(scenario).game)
    for players, bots, count in RUNS[rules]:
        runner = Table(SimConfig(rules, players, bots={"*": bots}, seed=SEED))
        found.extend(play(runner, i)[0] for i in range(count))
    return tuple(found)


def seen(game: Game) -> list[Event]:
    """Every event of the game as every view hands it out (read-only copies)."""
    return [ev for seat in [LEADER, *range(game.n)] for ev in game.view(seat).events]


@cache
def samples() -> tuple[tuple[str, dict[str, object]], ...]:
    """One JSON event of every kind of every family (the seeds of the junk below)."""
    found: dict[tuple[str, str], dict[str, object]] = {}
    for rules in RULEBOOKS:
        for game in games(rules):
            for ev in game.events:
                found.setdefault((family(game), ev.kind), to_json(ev))
    return tuple((fam, obj) for (fam, _), obj in sorted(found.items()))


# ---------------------------------------------------------------------- the corpus
def test_every_rulebook_of_a_family_is_covered() -> None:
    scenario_books = {sc.read(path).rules for path in SCENARIOS}
    assert scenario_books <= set(RULEBOOKS)
    assert set(RUNS) == set(RULEBOOKS)


@pytest.mark.parametrize("rules", RULEBOOKS)
def test_every_event_fits_its_schema(rules: str) -> None:
    problems: list[str] = []
    for game in games(rules):
        specs = SPECS[family(game)]
        for ev in [*game.events, *seen(game)]:
            spec = specs.get(ev.kind)
            problem = f"undeclared kind {ev.kind!r}" if spec is None else check(spec, ev)
            if problem is not None:
                problems.append(problem)
    assert not problems, f"{len(problems)} events do not fit, e.g. {sorted(set(problems))[:5]}"


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_every_kind_declared_is_emitted_and_every_kind_emitted_declared(name: str) -> None:
    emitted = {ev.kind for rules in FAMILIES[name] for g in games(rules) for ev in g.events}
    declared = set(SPECS[name])
    assert not emitted - declared, f"emitted, not declared: {sorted(emitted - declared)}"
    assert not declared - emitted, f"declared, never emitted: {sorted(declared - emitted)}"


@pytest.mark.parametrize("rules", RULEBOOKS)
def test_json_round_trip(rules: str) -> None:
    """``lupus.testing``'s check (each event, as recorded and as the views hand it
    out, fits its schema and comes back from JSON text as itself), and the JSON of an
    event is the one a view gives."""
    for game in games(rules):
        check_json(game)
        for ev in game.events:
            obj = to_json(ev)
            assert obj == event_json(ev)
            assert from_json(obj, SPECS[family(game)]) == ev


@pytest.mark.parametrize("rules", RULEBOOKS)
def test_declared_disclosures_are_the_role_and_character_fields(rules: str) -> None:
    """``discloses`` names exactly the fields of an event that tell a seat's role or a
    house's character: the secrecy tests audit ``role_facts``, which reads them."""
    hidden = {"role", "roles", "character", "characters"}
    for game in games(rules):
        specs = SPECS[family(game)]
        for ev in game.events:
            spec = specs[ev.kind]
            present = set(ev.data)
            assert spec.discloses & present == hidden & present, ev
            if role_facts(ev):
                assert spec.discloses & {"role", "roles"}, ev


def test_the_families_differ_where_their_events_do() -> None:
    assert set(VILLAGE["game_starts"].fields) == {"players", "composition", "options"}
    assert set(LUPUSBURG["game_starts"].fields) == {"players", "burgomaster", "coins"}
    assert VILLAGE["death"].optional == frozenset({"role"})


# ---------------------------------------------------------------------- malformed
def death_json(**data: object) -> dict[str, object]:
    return {"kind": "death", "audience": None, "phase": "day", "number": 2, "data": data}


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        (death_json(cause="vote"), r"^death: field 'player' is missing$"),
        (death_json(player="3", cause="vote"), r"^death\.player: '3' is a str, not a seat"),
        (death_json(player=True, cause="vote"), r"^death\.player: True is a bool, not a seat"),
        (death_json(player=-1, cause="vote"), r"^death\.player: -1 is an int, not a seat"),
        (death_json(player=1.0, cause="vote"), r"^death\.player: 1\.0 is a float, not a seat"),
        (death_json(player=1, cause=None), r"^death\.cause: None is null, not a text$"),
        (death_json(player=1, cause="vote", colour="red"), r"^death: unknown field 'colour'$"),
        (
            {**death_json(player=1, cause="vote"), "kind": "nope"},
            r"^unknown event kind 'nope'$",
        ),
        ({**death_json(player=1, cause="vote"), "kind": 3}, r"^an event's kind is a text"),
        ({**death_json(player=1, cause="vote"), "number": True}, r"number is an int, not a bool"),
        ({**death_json(player=1, cause="vote"), "phase": None}, r"phase is a text, not null"),
        ({**death_json(player=1, cause="vote"), "audience": [0, "1"]}, r"audience is null or"),
        ({**death_json(player=1, cause="vote"), "audience": 1}, r"audience is null or"),
        ({**death_json(player=1, cause="vote"), "data": [1]}, r"its data is a list, not a map"),
        ({**death_json(player=1, cause="vote"), "extra": 1}, r"^an event has no key 'extra'$"),
        ({"kind": "death"}, r"^an event needs 'audience'$"),
        ([1, 2], r"^an event is a JSON object, not a list$"),
        (None, r"^an event is a JSON object, not null$"),
    ],
)
def test_malformed_json_is_refused_saying_why(obj: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        from_json(obj, VILLAGE)


def tally_json(votes: object) -> dict[str, object]:
    return {
        "kind": "tally",
        "audience": None,
        "phase": "day",
        "number": 1,
        "data": {"votes": votes},
    }


@pytest.mark.parametrize(
    ("votes", "message"),
    [
        ({"01": 2}, r"tally\.votes: key '01' is not a seat number"),
        ({"-1": 2}, r"tally\.votes: key '-1' is not a seat number"),
        ({"x": 2}, r"tally\.votes: key 'x' is not a seat number"),
        ({"١": 2}, r"tally\.votes: key '١' is not a seat number"),  # an Arabic-Indic one
        ({"1": True}, r"tally\.votes: at '1': True is a bool, not an int"),
        ([[1, 2]], r"tally\.votes: \[\[1, 2\]\] is a list, not a mapping of seat to int"),
    ],
)
def test_malformed_mappings_are_refused_saying_why(votes: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        from_json(tally_json(votes), VILLAGE)
    assert from_json(tally_json({"0": 2, "10": 1}), VILLAGE).data == {"votes": {0: 2, 10: 1}}


def test_json_data_must_be_plain_and_finite() -> None:
    def starts(options: object) -> dict[str, object]:
        data = {"players": ["Ann"], "composition": {"villager": 1}, "options": options}
        return {
            "kind": "game_starts",
            "audience": None,
            "phase": "setup",
            "number": 0,
            "data": data,
        }

    read = from_json(starts({"a": [1, 2.5, None, {"b": True}]}), VILLAGE).data["options"]
    assert plain(read) == {"a": [1, 2.5, None, {"b": True}]}
    assert read == {"a": (1, 2.5, None, {"b": True})}  # (read-only: tuples and proxies)
    for junk, message in [
        ({"a": math.nan}, r"nan is not a finite number"),
        ({"a": {1, 2}}, r"is a set, not JSON data"),
        ({"a": {1: 2}}, r"key 1 is an int, not a text"),
    ]:
        with pytest.raises(ValueError, match=message):
            from_json(starts(junk), VILLAGE)
    deep: object = 1
    for _ in range(200):
        deep = [deep]
    with pytest.raises(ValueError, match=r"nested deeper than 64 levels"):
        from_json(starts({"a": deep}), VILLAGE)


def test_check_says_why_an_event_does_not_fit() -> None:
    spec = VILLAGE["death"]
    assert check(spec, Event("death", None, {"player": 1, "cause": "vote"}, "day", 1)) is None
    assert (
        check(spec, Event("death", None, {"player": 1, "cause": "v", "role": "seer"}, "d", 1))
        is None
    )
    cases: list[tuple[dict[str, object], str]] = [
        ({"player": True, "cause": "vote"}, "death.player: True is a bool, not a seat"),
        ({"player": "1", "cause": "vote"}, "death.player: '1' is a str, not a seat"),
        ({"cause": "vote"}, "death: field 'player' is missing"),
        ({"player": 1, "cause": "vote", "x": 1}, "death: unknown field 'x'"),
    ]
    for data, message in cases:
        problem = check(spec, Event("death", None, data, "day", 1))
        assert problem is not None and problem.startswith(message), problem
    problem = check(spec, Event("tally", None, {"votes": {}}, "day", 1))
    assert problem == "a 'tally' event is not a 'death' event"
    roles = VILLAGE["pack"]
    assert check(roles, Event("pack", None, {"roles": {"1": "werewolf"}}, "n", 1)) is not None
    frozen = MappingProxyType({"roles": MappingProxyType({1: "werewolf"})})
    assert check(roles, Event("pack", None, frozen, "n", 1)) is None


def test_the_rarer_tags() -> None:
    spec = EventSpec(
        "odd", {"a": INT_OR_NONE, "b": TEXT_OR_NONE, "c": NUMBER, "d": SEATS, "e": JSON}
    )
    specs = {"odd": spec}
    for data in [
        {"a": None, "b": None, "c": 0.5, "d": [], "e": None},
        {"a": -3, "b": "x", "c": -1e300, "d": [0, 2], "e": {"k": [1, "v"]}},
    ]:
        ev = Event("odd", frozenset({1, 0}), data, "night", 3)
        assert check(spec, ev) is None
        assert from_json(json.loads(json.dumps(to_json(ev))), specs) == ev
    bad = {"a": 1.5, "b": None, "c": 1, "d": [], "e": None}
    assert (
        check(spec, Event("odd", None, bad, "n", 1)) == "odd.a: 1.5 is a float, not an int or null"
    )
    bad = {"a": 1, "b": None, "c": 1, "d": [], "e": None}
    assert check(spec, Event("odd", None, bad, "n", 1)) == "odd.c: 1 is an int, not a finite float"


def test_declarations_are_checked() -> None:
    with pytest.raises(ValueError, match="unknown tag 'seet'"):
        EventSpec("x", {"player": "seet"})
    with pytest.raises(ValueError, match=r"optional names no field of the event: \['role'\]"):
        EventSpec("x", {"player": SEAT}, optional=frozenset({"role"}))
    with pytest.raises(ValueError, match="declared twice"):
        table(EventSpec("x", {"n": INT}), EventSpec("x", {}))


# ---------------------------------------------------------------------- accessors
def test_typed_reads() -> None:
    data: dict[str, object] = {
        "player": 2,
        "target": None,
        "role": "seer",
        "players": [0, 2],
        "roles": {0: "werewolf"},
        "votes": {1: 2},
        "cards": ["thief", "villager"],
        "round": 1,
        "flag": True,
    }
    for ev in [
        Event("x", None, data, "day", 1),  # its data: tuples and read-only proxies
        Event("x", frozenset({0}), Event("x", None, data, "day", 1).data, "day", 1, 0),
    ]:
        assert ev.seat("player") == 2
        assert ev.maybe_seat("target") is None
        assert ev.maybe_seat("nobody") is None
        assert ev.maybe_seat("player") == 2
        assert ev.text("role") == "seer"
        assert ev.maybe_text("role") == "seer"
        assert ev.maybe_text("absent") is None
        assert ev.seats("players") == [0, 2]
        assert ev.texts("cards") == ["thief", "villager"]
        assert ev.seat_texts("roles") == {0: "werewolf"}
        assert ev.seat_ints("votes") == {1: 2}
        assert ev.count("round") == 1
        for read, name in [
            (ev.seat, "flag"),
            (ev.count, "flag"),
            (ev.seat, "role"),
            (ev.maybe_seat, "role"),
            (ev.text, "player"),
            (ev.seats, "roles"),
            (ev.texts, "players"),
            (ev.seat_texts, "votes"),
            (ev.seat_ints, "roles"),
        ]:
            with pytest.raises(TypeError, match=rf"^x\.{name}: "):
                read(name)
        with pytest.raises(KeyError):
            ev.seat("absent")
    with pytest.raises(TypeError, match=r"x\.players: \(True,\) is not a list of seats"):
        Event("x", None, {"players": [True]}, "day", 1).seats("players")


# ---------------------------------------------------------------------- junk
LEAVES = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(-2, 12)
    | st.floats()
    | st.text(max_size=4)
    | st.sampled_from(["0", "01", "-1", "x", "player", "role", "death", "vote"])
)
NAMES = st.text(max_size=4) | st.sampled_from(
    ["kind", "audience", "phase", "number", "data", "player", "target", "roles", "votes", "0"]
)
JUNK = st.recursive(
    LEAVES
    | st.binary(max_size=3)
    | st.frozensets(st.integers(0, 3), max_size=2)
    | st.tuples(st.integers(0, 3)),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(NAMES, inner, max_size=4)
        | st.dictionaries(st.integers(-1, 3), inner, max_size=2)
    ),
    max_leaves=12,
)


@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, object]:
    """A real event's JSON (of either family, read with either family's schemas) with
    a few parts dropped, added or replaced by junk."""
    name, obj = draw(st.sampled_from(samples()))
    obj = copy.deepcopy(obj)
    if draw(st.booleans()):
        name = draw(st.sampled_from(sorted(SPECS)))
    for _ in range(draw(st.integers(0, 3))):
        data = obj.get("data")
        move = draw(st.sampled_from(["top", "drop", "field", "drop_field", "key", "item"]))
        if move == "top":
            obj[draw(NAMES)] = draw(JUNK)
        elif move == "drop" and obj:
            del obj[draw(st.sampled_from(sorted(obj, key=repr)))]
        elif move == "field" and isinstance(data, dict):
            data[draw(NAMES)] = draw(JUNK)
        elif move == "drop_field" and isinstance(data, dict) and data:
            del data[draw(st.sampled_from(sorted(data, key=repr)))]
        elif move in ("key", "item") and isinstance(data, dict) and data:
            field = data[draw(st.sampled_from(sorted(data, key=repr)))]
            if isinstance(field, dict) and field:
                key = draw(st.sampled_from(sorted(field, key=repr)))
                if move == "key":
                    field[draw(NAMES)] = field.pop(key)
                else:
                    field[key] = draw(JUNK)
            elif isinstance(field, list) and field:
                field[draw(st.integers(0, len(field) - 1))] = draw(JUNK)
    return name, obj


@settings(
    max_examples=1500,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(case=mutated() | st.tuples(st.sampled_from(sorted(SPECS)), JUNK))
def test_junk_raises_value_error_and_nothing_else(case: tuple[str, object]) -> None:
    name, obj = case
    specs = SPECS[name]
    try:
        ev = from_json(obj, specs)
    except ValueError as exc:
        assert "\n" not in str(exc)
        return
    # Whatever it accepts is a well-typed event that survives JSON.
    assert check(specs[ev.kind], ev) is None
    assert from_json(json.loads(json.dumps(to_json(ev))), specs) == ev
    assert isinstance(ev.data, Mapping)
