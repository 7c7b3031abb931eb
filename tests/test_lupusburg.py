"""Lupusburg: setup refusals, what each player may see, random legal play, matches.

The rule-by-rule cases are scenario files (tests/scenarios/lupusburg); here are the
checks a scenario cannot express: refused deals, views and narration, a property test
of random legal play from random deals (end, scores recomputed from the rules, replay,
and an independent oracle of what each player is entitled to see), and the match helper.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lupus import scenario as sc
from lupus.engine.errors import IllegalAction, SetupError
from lupus.engine.event_json import plain
from lupus.engine.model import LEADER, Action, Death, Event, Outcome, Prompt
from lupus.engine.views import View
from lupus.families import load, new_game
from lupus.lupusburg.game import LupusburgGame
from lupus.lupusburg.match import (
    add_game,
    first_burgomaster,
    game_points,
    leaders,
    match_totals,
)
from lupus.narration import Narrator, narrate

W, T, F = "werewolf", "thief", "townsfolk"
BOX = (8, 7, 6, 5, 4, 3, 2, 2)
NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")
SCENARIOS = Path(__file__).parent / "scenarios" / "lupusburg"
SECRET_KEYS = ("characters", "character", "chest", "chests", "coins", "kept", "coin", "bets")


def deal4() -> tuple[list[list[str]], list[int]]:
    return [[F, W], [T, F], [F, F], [F, F]], [1, 2, 1, 2]


def lupusburg(
    names: Sequence[str],
    characters: Sequence[Sequence[str]],
    chests: Sequence[int],
    burgomaster: int = 0,
    bag: Sequence[int] | None = None,
    seed: int = 0,
) -> LupusburgGame:
    game = new_game(
        "lupusburg",
        list(names),
        characters=characters,
        chests=chests,
        burgomaster=burgomaster,
        bag=bag,
        seed=seed,
    )
    assert isinstance(game, LupusburgGame)
    return game


def act(game: LupusburgGame, line: str) -> None:
    """Apply ``"Ben peek Cat.1"``, ``"Ann bet Ben"``, ``"Ann keep 8"``, ``"Ann pass"``,
    ``"leader close"``, or the scenario files' shorthand ``"Ann bet Ben 8"``."""
    actor, verb, *rest = line.split()
    if verb == "keep":
        step = sc.ScenarioAction(actor=actor, do=verb, coin=int(rest[0]))
    else:
        step = sc.ScenarioAction(
            actor=actor,
            do=verb,
            target=rest[0] if rest else None,
            coin=int(rest[1]) if len(rest) > 1 else None,
        )
    for action in sc.to_actions(game, step):
        game.apply(action)


# ---------------------------------------------------------------------------- setup


@pytest.mark.parametrize("n", range(4, 9))
def test_every_table_from_4_to_8_deals_1_werewolf_1_thief_and_2n_minus_2_townsfolk(
    n: int,
) -> None:
    characters = [[F, W], [T, F]] + [[F, F]] * (n - 2)
    game = lupusburg(NAMES[:n], characters, [1, 2] + [1] * (n - 2))
    assert Counter(game.characters) == {W: 1, T: 1, F: 2 * n - 2}
    assert game.waiting() == [1]  # the Thief's peek comes first
    assert sorted(game.bag) == sorted(BOX)


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (NAMES[:3], "4 to 8 players, not 3"),
        ((*NAMES, "Ida"), "4 to 8 players, not 9"),
        (("Ann", "Ann", "Cat", "Dan"), "unique"),
        (("Ann", "", "Cat", "Dan"), "not empty"),
        (("Ann", " ", "Cat", "Dan"), "not empty"),
        (("Ann", "B.n", "Cat", "Dan"), "without a dot"),
    ],
)
def test_player_count_and_names_are_refused(names: Sequence[str], message: str) -> None:
    n = len(names)
    characters = [[F, W], [T, F]] + [[F, F]] * (n - 2)
    with pytest.raises(SetupError, match=re.escape(message)):
        lupusburg(names, characters, [1, 2] + [1] * (n - 2))


@pytest.mark.parametrize(
    ("characters", "chests", "message"),
    [
        ([[F, W], [T, F], [F, F]], [1, 2, 1, 2], "exactly two characters"),
        ([[F, W], [T, F], [F, F], [F, F, F]], [1, 2, 1, 2], "exactly two characters"),
        ([[F, W], [T, F], [F, F], [F]], [1, 2, 1, 2], "exactly two characters"),
        ([[F, W], [T, F], [F, W], [F, F]], [1, 2, 1, 2], "1 werewolf, 1 thief and 6 townsfolk"),
        ([[F, W], [F, F], [F, F], [F, F]], [1, 2, 1, 2], "1 werewolf, 1 thief and 6 townsfolk"),
        ([[F, W], [T, F], [T, F], [F, F]], [1, 2, 1, 2], "1 werewolf, 1 thief and 6 townsfolk"),
        ([[F, W], [T, F], [F, "seer"], [F, F]], [1, 2, 1, 2], "unknown character 'seer'"),
        ([[T, W], [F, F], [F, F], [F, F]], [1, 1, 1, 2], "both the werewolf and the thief"),
        ([[W, T], [F, F], [F, F], [F, F]], [2, 1, 1, 2], "both the werewolf and the thief"),
        ([[F, W], [T, F], [F, F], [F, F]], [2, 2, 1, 2], "may not live under the chest house"),
        ([[W, F], [T, F], [F, F], [F, F]], [1, 2, 1, 2], "may not live under the chest house"),
        ([[F, W], [T, F], [F, F], [F, F]], [1, 1, 1, 2], "may not live under the chest house"),
        ([[F, W], [F, T], [F, F], [F, F]], [1, 2, 1, 2], "may not live under the chest house"),
        ([[F, W], [T, F], [F, F], [F, F]], [1, 2, 0, 2], "house 1 or 2, not 0"),
        ([[F, W], [T, F], [F, F], [F, F]], [1, 2, 3, 2], "house 1 or 2, not 3"),
        ([[F, W], [T, F], [F, F], [F, F]], [1, 2, True, 2], "house 1 or 2, not True"),
        ([[F, W], [T, F], [F, F], [F, F]], [1, 2, 1], "one chest"),
        ([[F, W], [T, F], [F, F], [F, F]], [1, 2, 1, 2, 1], "one chest"),
    ],
)
def test_deals_the_rules_do_not_allow_are_refused(
    characters: list[list[str]], chests: list[int], message: str
) -> None:
    with pytest.raises(SetupError, match=re.escape(message)):
        lupusburg(NAMES[:4], characters, chests)


@pytest.mark.parametrize(
    "bag",
    [
        [8, 7, 6, 5, 4, 3, 2],
        [8, 7, 6, 5, 4, 3, 2, 2, 1],
        [8, 7, 6, 5, 4, 3, 3, 2],
        [9, 7, 6, 5, 4, 3, 2, 2],
        [],
    ],
)
def test_the_bag_holds_exactly_the_boxs_coins(bag: list[int]) -> None:
    characters, chests = deal4()
    with pytest.raises(SetupError, match=re.escape("the bag holds exactly the coins")):
        lupusburg(NAMES[:4], characters, chests, bag=bag)


def test_any_order_of_the_bag_is_accepted_and_kept() -> None:
    characters, chests = deal4()
    bag = [2, 3, 2, 8, 4, 7, 5, 6]
    assert lupusburg(NAMES[:4], characters, chests, bag=bag).bag == bag


@pytest.mark.parametrize("burgomaster", [-1, 4, 7])
def test_the_first_burgomaster_is_a_player(burgomaster: int) -> None:
    characters, chests = deal4()
    with pytest.raises(SetupError, match="first Burgomaster"):
        lupusburg(NAMES[:4], characters, chests, burgomaster=burgomaster)


def test_lupusburg_takes_characters_not_role_cards() -> None:
    with pytest.raises(SetupError, match="not role cards"):
        new_game("lupusburg", list(NAMES[:4]), [W, T, F, F])


def scenario_data(**changes: object) -> dict[str, object]:
    data: dict[str, object] = {
        "rules": "lupusburg",
        "players": ["Ann", "Ben", "Cat", "Dan"],
        "characters": {"Ann": [F, W], "Ben": [T, F], "Cat": [F, F], "Dan": [F, F]},
        "chests": {"Ann": 1, "Ben": 2, "Cat": 1, "Dan": 2},
    }
    data.update(changes)
    return data


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"roles": {"Ann": W}}, "use `characters` and `chests`"),
        ({"chests": None}, "both are needed"),
        ({"characters": {"Ann": [F, W], "Ben": [T, F], "Cat": [F, F]}}, "nothing for Dan"),
        ({"chests": {"Ann": 1, "Ben": 2, "Cat": 1, "Dan": 2, "Eve": 1}}, "Eve is not among"),
        ({"burgomaster": "Eve"}, "'Eve' is not among the players"),
        ({"bag": [8, 8, 8, 8, 8, 8, 8, 8]}, "the bag holds exactly"),
        ({"characters": {"Ann": [W, T], "Ben": [F, F], "Cat": [F, F], "Dan": [F, F]}}, "redeal"),
    ],
)
def test_scenario_setups_are_refused_with_the_reason(
    changes: dict[str, object], message: str
) -> None:
    with pytest.raises(sc.ScenarioError, match=re.escape(message)):
        sc.setup(sc.parse(scenario_data(**changes)))


def test_scenario_burgomaster_defaults_to_the_first_player() -> None:
    game = sc.setup(sc.parse(scenario_data()))
    assert isinstance(game, LupusburgGame)
    assert game.burgomaster == 0
    game = sc.setup(sc.parse(scenario_data(burgomaster="Cat")))
    assert isinstance(game, LupusburgGame)
    assert game.burgomaster == 2


# ---------------------------------------------------------------------------- views


@dataclass
class Known:
    """The secret facts a list of events discloses."""

    characters: dict[int, str] = field(default_factory=dict)
    chests: dict[int, bool] = field(default_factory=dict)
    draws: list[tuple[tuple[int, ...], int | None]] = field(default_factory=list)


def before_the_end(events: Sequence[Event]) -> list[Event]:
    out = []
    for ev in events:
        if ev.kind == "game_over":
            break
        out.append(ev)
    return out


def disclosed(events: Sequence[Event]) -> Known:
    """Every character, chest and coin the events tell, audited key by key: an event
    carrying a secret key this function does not understand fails the test."""
    known = Known()
    for ev in before_the_end(events):
        d = ev.data
        for key, value in d.items():
            values = list(value.values()) if isinstance(value, Mapping) else [value]
            if key not in ("characters", "character", "step", "cause"):
                assert not {W, T, F} & {v for v in values if isinstance(v, str)}, ev
        secret = [k for k in SECRET_KEYS if k in d]
        if not secret:
            continue
        if ev.kind == "game_starts":
            # The box's coins are public; no draw is told.
            coins = d["coins"]
            assert secret == ["coins"] and isinstance(coins, list | tuple)
            assert sorted(coins) == sorted(BOX)
        elif ev.kind == "characters_dealt":
            assert set(secret) == {"characters", "chest"}
            table = d["characters"]
            assert isinstance(table, Mapping)
            known.characters.update(table)
            for house in table:
                known.chests[house] = house == d["chest"]
        elif ev.kind == "peeked":
            assert secret == ["chest"] and isinstance(d["chest"], bool)
            known.chests[int(str(d["house"]))] = d["chest"]
        elif ev.kind in ("privilege_seen", "privilege_shown"):
            assert secret == ["character"]
            known.characters[int(str(d["house"]))] = str(d["character"])
        elif ev.kind == "coins_drawn":
            # After the bet: the coins he holds, then the one he keeps (or the game's
            # generator picks when the leader closes his turn).
            assert secret == ["coins"]
            coins = d["coins"]
            assert isinstance(coins, list | tuple) and 0 < len(coins) <= 3
            known.draws.append((tuple(coins), None))
        elif ev.kind in ("coin_kept", "coin_picked"):
            assert secret == ["kept"]
            coins, before = known.draws[-1]
            kept = int(str(d["kept"]))
            assert before is None and kept in coins
            known.draws[-1] = (coins, kept)
        else:
            raise AssertionError(f"unexpected secret {secret} in {ev.kind}")
    return known


WHOLE = sc.read(SCENARIOS / "whole-game.json")


def whole_game() -> LupusburgGame:
    game = sc.replay(WHOLE).game
    assert isinstance(game, LupusburgGame) and game.finished
    return game


def test_each_view_discloses_exactly_what_its_player_was_entitled_to() -> None:
    game = whole_game()
    # Houses: Ann 0,1; Ben 2,3; Cat 4,5; Dan 6,7.
    expected = {
        0: Known({0: F, 1: W, 2: T}, {0: True, 1: False}, []),  # privilege on Ben.1
        1: Known(
            {2: T, 3: F, 0: F},  # Ann showed him Ann.1
            {2: False, 3: True, 4: True, 7: True},  # peeks Cat.1, Dan.2
            [((8, 7, 6), 8)],
        ),
        2: Known({4: F, 5: F}, {4: True, 5: False}, [((5, 4, 3), 5)]),
        3: Known({6: F, 7: F}, {6: False, 7: True}, []),
    }
    for seat, wanted in expected.items():
        assert disclosed(game.view(seat).events) == wanted, game.names[seat]


def test_the_leader_and_the_end_reveal_everything() -> None:
    game = whole_game()
    over = [ev for ev in game.events if ev.kind == "game_over"]
    assert len(over) == 1 and over[0].audience is None
    assert over[0].data["characters"] == dict(enumerate(game.characters))
    assert over[0].data["chests"] == tuple(game.chest)
    assert plain(over[0].data["bets"]) == {"1": [0, 8], "2": [3, 5]}
    assert disclosed(game.view(LEADER).events).characters == dict(enumerate(game.characters))


def test_public_events_name_houses_and_players_never_characters_or_coins() -> None:
    game = whole_game()
    for ev in before_the_end(game.events):
        if ev.audience is None:
            assert not set(SECRET_KEYS) & set(ev.data) or ev.kind == "game_starts", ev
    bets = [ev for ev in game.events if ev.kind == "bet"]
    assert [(ev.audience, dict(ev.data)) for ev in bets] == [
        (None, {"player": 1, "target": 0}),
        (None, {"player": 2, "target": 3}),
    ]
    ballots = [ev for ev in game.events if ev.kind == "ballot_cast"]
    assert all(ev.audience == frozenset({ev.data["player"]}) for ev in ballots)
    totals = [dict(ev.data) for ev in game.events if ev.kind == "ballots"]
    assert totals == [{"votes": {1: 4, 4: 1}}, {"votes": {7: 0, 0: 3}}]


ROLE_NAMES = "Werewolf|Thief|Townsfolk"
HOUSE = r"\w+'s (?:first|second) house"
HOUSE_ROLE = re.compile(rf"({HOUSE}) \(({ROLE_NAMES})\)|under ({HOUSE}): ({ROLE_NAMES})")


def said(text: str) -> str:
    """A line written with the houses' short names (``Ann.1``) as the narration says
    them ("Ann's first house")."""
    return re.sub(
        r"\b(\w+)\.([12])\b",
        lambda m: f"{m[1]}'s {'first' if m[2] == '1' else 'second'} house",
        text,
    )


def named_characters(lines: Sequence[str]) -> set[str]:
    """The houses whose character the narration names, up to the game's end."""
    houses: set[str] = set()
    for line in lines:
        if line.startswith("The game is over"):
            break
        for match in HOUSE_ROLE.finditer(line):
            houses.add(match.group(1) or match.group(3))
    return houses


def test_the_narration_of_a_view_names_only_characters_its_player_saw() -> None:
    game = whole_game()
    seen = {
        name: {said(house) for house in houses}
        for name, houses in {
            "Ann": {"Ann.1", "Ann.2", "Ben.1"},
            "Ben": {"Ben.1", "Ben.2", "Ann.1"},
            "Cat": {"Cat.1", "Cat.2"},
            "Dan": {"Dan.1", "Dan.2"},
        }.items()
    }
    for seat, name in enumerate(game.names):
        lines = narrate(game.view(seat))
        assert named_characters(lines) == seen[name]
        draws = [line for line in lines if " coin" in line]
        assert draws == {
            "Ben": [
                "Ben draws the coins 8, 7, 6.",
                "Ben keeps the coin 8, face down under the seal.",
            ],
            "Cat": [
                "Cat draws the coins 5, 4, 3.",
                "Cat keeps the coin 5, face down under the seal.",
            ],
        }.get(name, [])
        bets = [line for line in lines if " bet" in line]
        assert bets == [
            "Ann does not bet.",
            "Ben places a bet on Ann.",
            "Cat places a bet on Dan.",
            "Dan does not bet.",
            "Dan does not bet.",
            "Ann does not bet.",
        ]
    leader = narrate(game.view(LEADER))
    assert named_characters(leader) == {said(f"{p}.{k}") for p in game.names for k in (1, 2)}
    assert leader[-1].startswith("The game is over: Ben wins.")


def test_a_view_holds_only_its_own_prompts() -> None:
    characters, chests = deal4()
    game = lupusburg(NAMES[:4], characters, chests, bag=list(BOX))
    for line in ("Ben peek Cat.1", "Ann claw Dan.1", "Ann pass"):
        act(game, line)
    assert [p.verb for p in game.view(0).prompts] == ["bet", "pass"]
    bet = game.view(0).prompts[0]
    assert bet.choices == ((1,), (2,), (3,))  # a player: no coin before the bet
    for seat in (1, 2, 3):
        assert game.view(seat).prompts == ()


def test_the_thief_step_runs_and_nobody_acts_without_a_living_thief() -> None:
    game = sc.replay(sc.read(SCENARIOS / "thief-step-runs-without-living-thief.json")).game
    night2 = [ev for ev in game.events if ev.phase == "night" and ev.number == 2]
    assert [ev.kind for ev in night2] == ["night", "wake", "wake"]
    assert [ev.data["step"] for ev in night2[1:]] == ["thief", "werewolf"]
    assert all(ev.audience is None for ev in night2)


def test_a_closed_privilege_shows_one_random_living_character_to_that_player_only() -> None:
    shown: set[int] = set()
    for seed in range(12):
        characters, chests = deal4()
        game = lupusburg(NAMES[:4], characters, chests, seed=seed)
        for line in ("Ben peek Cat.1", "Ann claw Dan.1", "Ann privilege Cat.2", "leader close"):
            act(game, line)
        events = [ev for ev in game.events if ev.kind == "privilege_shown"]
        assert len(events) == 1
        ev = events[0]
        assert ev.audience == frozenset({0, 2})
        assert ev.data["house"] in (0, 1)
        assert ev.data["character"] == game.characters[int(str(ev.data["house"]))]
        shown.add(int(str(ev.data["house"])))
        assert [p.verb for p in game.prompts(0)] == ["bet", "pass"]
    assert shown == {0, 1}


def test_without_a_bag_order_every_draw_is_at_random() -> None:
    draws = set()
    for seed in range(20):
        characters, chests = deal4()
        game = lupusburg(NAMES[:4], characters, chests, seed=seed)
        for line in ("Ben peek Cat.1", "Ann claw Dan.1", "Ann pass", "Ann bet Ben"):
            act(game, line)
        first = [int(c[0]) for c in game.prompts(0)[0].choices]
        act(game, f"Ann keep {max(first)}")
        act(game, "Ben bet Ann")
        second = sorted(int(c[0]) for c in game.prompts(1)[0].choices)
        remaining = Counter(BOX) - Counter([max(first)])
        assert not Counter(second) - remaining
        draws.add((tuple(first), tuple(second)))
    assert len(draws) > 5


def test_bet_and_keep_errors_name_players_then_coins() -> None:
    characters, chests = deal4()
    game = lupusburg(NAMES[:4], characters, chests, bag=[2, 3, 2, 8, 7, 6, 5, 4])
    for line in ("Ben peek Cat.1", "Ann claw Dan.1", "Ann pass"):
        act(game, line)
    with pytest.raises(IllegalAction) as refused:
        game.apply(Action(0, "bet", (2, 8)))
    assert str(refused.value) == (
        "Ann cannot bet without naming one player now (bet on one of Ben, Cat, Dan)"
    )
    with pytest.raises(IllegalAction, match=re.escape("Ann cannot bet on Ann now")):
        game.apply(Action(0, "bet", (0,)))
    with pytest.raises(IllegalAction, match=re.escape("possible now: bet, pass")):
        game.apply(Action(0, "keep", (2,)))
    game.apply(Action(0, "bet", (2,)))
    assert game.bag == [8, 7, 6, 5, 4]  # three coins in his hand
    with pytest.raises(IllegalAction) as refused:
        game.apply(Action(0, "keep", (8,)))
    assert str(refused.value) == "Ann cannot keep 8 now (keep one of the coins drawn: 3, 2)"
    with pytest.raises(IllegalAction, match="without naming one coin"):
        game.apply(Action(0, "keep", ()))
    game.apply(Action(0, "keep", (2,)))
    assert game.bag == [8, 7, 6, 5, 4, 3, 2]
    assert game.bets[0] == (2, 2)


# ---------------------------------------------------------------------------- bets


def betting_day(bag: Sequence[int] | None = None, seed: int = 0) -> LupusburgGame:
    """A 4-player game at Ann's betting turn on day 1 (Ann is the Burgomaster)."""
    characters, chests = deal4()
    game = lupusburg(NAMES[:4], characters, chests, bag=bag, seed=seed)
    for line in ("Ben peek Cat.1", "Ann claw Dan.1", "Ann pass"):
        act(game, line)
    return game


def test_a_bet_names_a_player_first_then_keeps_one_of_the_coins_drawn() -> None:
    game = betting_day(bag=list(BOX))
    start = len(game.events)
    act(game, "Ann bet Ben")
    assert game.waiting() == [0]
    assert [(p.verb, p.choices) for p in game.prompts(0)] == [("keep", ((8,), (7,), (6,)))]
    assert game.bets[0] is None  # the seal is committed, the coin not yet chosen
    act(game, "Ann keep 7")
    assert game.bets[0] == (1, 7)
    assert game.bag == [5, 4, 3, 2, 2, 8, 6]
    told = [(ev.kind, ev.audience, plain(ev.data)) for ev in game.events[start:]]
    assert told == [
        ("bet", None, {"player": 0, "target": 1}),
        ("coins_drawn", frozenset({0}), {"player": 0, "coins": [8, 7, 6]}),
        ("coin_kept", frozenset({0}), {"player": 0, "kept": 7}),
    ]
    assert game.waiting() == [1]  # Ben's turn


def test_no_pass_after_a_bet() -> None:
    game = betting_day(bag=list(BOX))
    act(game, "Ann bet Ben")
    with pytest.raises(IllegalAction, match=re.escape("Ann cannot pass now (possible now: keep)")):
        act(game, "Ann pass")
    with pytest.raises(IllegalAction, match=re.escape("possible now: keep")):
        act(game, "Ann bet Cat")


def test_a_pass_is_told_to_everyone_and_draws_nothing() -> None:
    game = betting_day(bag=list(BOX))
    start = len(game.events)
    act(game, "Ann pass")
    assert [(ev.kind, ev.audience, dict(ev.data)) for ev in game.events[start:]] == [
        ("no_bet", None, {"player": 0})
    ]
    assert game.bag == list(BOX) and game.bets[0] is None


def test_the_leader_closing_a_turn_after_the_bet_picks_the_coin_with_the_seed() -> None:
    picked: set[int] = set()
    for seed in range(16):
        game = betting_day(bag=list(BOX), seed=seed)
        start = len(game.events)
        act(game, "Ann bet Ben")
        act(game, "leader close")
        bet = game.bets[0]
        assert bet is not None and bet[0] == 1 and bet[1] in (8, 7, 6)
        picked.add(bet[1])
        rest = [8, 7, 6]
        rest.remove(bet[1])
        assert game.bag == [5, 4, 3, 2, 2, *rest]
        kinds = [(ev.kind, ev.audience) for ev in game.events[start:]]
        assert kinds == [
            ("bet", None),
            ("coins_drawn", frozenset({0})),
            ("coin_picked", frozenset({0})),
        ]
        assert game.events[-1].data == {"player": 0, "kept": bet[1]}
        assert game.waiting() == [1]
        # Replaying the same actions picks the same coin.
        again = betting_day(bag=list(BOX), seed=seed)
        for action in game.history[len(again.history) :]:
            again.apply(action)
        assert again.bets == game.bets
    assert picked == {8, 7, 6}


def test_the_leader_closing_a_turn_before_the_bet_is_no_bet() -> None:
    game = betting_day(bag=list(BOX))
    act(game, "leader close")
    assert game.events[-1].kind == "no_bet" and game.events[-1].audience is None
    assert game.bets[0] is None and game.bag == list(BOX)


@pytest.mark.parametrize("bag", [None, list(BOX)])
def test_the_others_never_see_a_coin_only_the_bet_and_its_target(
    bag: list[int] | None,
) -> None:
    game = betting_day(bag=bag)
    before = {seat: len(game.view(seat).events) for seat in range(4)}
    act(game, "Ann bet Dan")
    for seat in (1, 2, 3):
        view = game.view(seat)
        assert view.prompts == ()
        new = view.events[before[seat] :]
        assert [(ev.kind, dict(ev.data)) for ev in new] == [("bet", {"player": 0, "target": 3})]
    coins = [int(c[0]) for c in game.view(0).prompts[0].choices]
    act(game, f"Ann keep {coins[0]}")
    act(game, "Ben bet Ann")
    act(game, "leader close")
    for seat in range(4):
        view = game.view(seat)
        coins = [ev for ev in view.events if {"coins", "kept"} & set(ev.data)]
        seen = [ev for ev in coins if ev.kind != "game_starts"]  # (the box's coins)
        mine = {0: ["coins_drawn", "coin_kept"], 1: ["coins_drawn", "coin_picked"]}
        assert [ev.kind for ev in seen] == mine.get(seat, [])
        assert all(ev.audience == frozenset({seat}) for ev in seen)
        lines = narrate(view)
        assert "Ann places a bet on Dan." in lines
        assert "Ben places a bet on Ann." in lines
        assert any("draws the coins" in line for line in lines) == (seat in (0, 1))


def test_fewer_than_three_coins_left_are_all_drawn() -> None:
    game = sc.replay(sc.read(SCENARIOS / "bet-last-coins-drawn.json")).game
    assert isinstance(game, LupusburgGame)
    draws = [list(ev.data["coins"]) for ev in game.events if ev.kind == "coins_drawn"]
    assert [len(c) for c in draws] == [3, 3, 3, 3, 3, 3, 2, 1]
    assert [p.choices for p in game.prompts(7)] == [((4,),)]
    assert game.bag == []


def test_the_scenario_shorthand_is_a_bet_then_a_keep() -> None:
    short = sc.read(SCENARIOS / "bet-coins-return-to-end-of-bag.json")
    lines: list[sc.ScenarioAction] = []
    for step in short.actions:
        if step.do == "bet" and step.coin is not None:
            lines.append(step.model_copy(update={"coin": None}))
            lines.append(sc.ScenarioAction(actor=step.actor, do="keep", coin=step.coin))
        else:
            lines.append(step)
    long = short.model_copy(update={"actions": lines})
    assert len(long.actions) == len(short.actions) + 4
    a, b = sc.replay(short), sc.replay(long)
    assert a.error_index is None and b.error_index is None
    assert a.game.events == b.game.events and a.game.history == b.game.history
    # A refused keep of a shorthand line points at that line of the file.
    refused = sc.replay(sc.read(SCENARIOS / "bet-coin-not-drawn-refused.json"))
    assert refused.error_index == 6
    assert refused.error_message == "Dan cannot keep 6 now (keep one of the coins drawn: 7, 5, 4)"


# ---------------------------------------------------------------------------- the log


def lupusburg_games() -> list[LupusburgGame]:
    """Every scenario's game, and random games whose leader closes some steps."""
    games = []
    for path in sorted(SCENARIOS.glob("*.json")):
        game = sc.replay(sc.read(path)).game
        assert isinstance(game, LupusburgGame)
        games.append(game)
    for seed in range(30):
        rng = random.Random(seed)
        deal = random_deal(rng, 4 + seed % 5, seed % 2 == 0, seed)
        games.append(play(deal, rng, 0.1)[0])
    return games


def test_every_event_is_told_with_a_message_of_its_own() -> None:
    book = load("lupusburg")
    kinds: set[str] = set()
    for game in lupusburg_games():
        narrator = Narrator(book, game.names)
        for ev in game.events:
            kinds.add(ev.kind)
            assert narrator.key(ev) in narrator.text, ev.kind
            line = narrator.event(ev)
            assert "«?»" not in line and "{" not in line, line
    told = {"no_bet", "privilege_declined", "no_privilege", "coins_drawn", "coin_kept"}
    assert told | {"coin_picked", "suspects", "ballots", "game_over"} <= kinds


GENDERED = re.compile(r"\b(he|his|him|himself|she|her|hers|herself)\b", re.IGNORECASE)


def test_no_message_gives_a_player_a_gender() -> None:
    book = load("lupusburg")
    for table in (book.text["en"], book.names["en"]):
        for key, text in table.items():
            assert not GENDERED.search(text), (key, text)


@pytest.mark.parametrize(
    ("name", "line"),
    [
        (
            "suspects-tie-closer-to-burgomaster.json",
            "The suspects, by tokens: Dan.2 (2) and Ann.1 (2); other tokens: Ben.1 (2), "
            "Cat.1 (1) and Ben.2 (1); tie 2-2-2: Dan.2 and Ann.1 are closer to the "
            "Burgomaster, clockwise, than Ben.1.",
        ),
        (
            "suspects-house-1-before-house-2.json",
            "The suspects, by tokens: Ben.2 (4) and Cat.1 (2); other tokens: Cat.2 (2); "
            "tie 2-2: Cat.1 goes before Cat.2, house 1 before house 2.",
        ),
        (
            "suspects-zero-tokens.json",
            "The suspects, by tokens: Cat.2 (8) and Ann.1 (0); tie at 0 among 6: Ann.1 is a "
            "house of the Burgomaster and goes before the 5 others.",
        ),
        (
            "lynch-tie-closer-to-burgomaster.json",
            "The second voting is revealed: Ben.2 2 and Cat.1 2; tie 2-2: Ben.2 is closer to "
            "the Burgomaster, clockwise, than Cat.1.",
        ),
        (
            "winner-tie-clockwise.json",
            "The game is over: Dan wins; tie 6-6: Dan is closer to the Burgomaster, "
            "clockwise, than Ben. Scores: Ann 0 (Werewolf), Ben 6 (characters 4, chest 1, "
            "seal 1), Cat 1 (characters 0, chest 0, seal 1) and Dan 6 (characters 4, chest 1, "
            "seal 1).",
        ),
        (
            "winner-tie-burgomaster-in-office.json",
            "The game is over: Cat wins; tie 6-6: Cat is the Burgomaster and goes before Dan.",
        ),
        (
            "whole-game.json",
            "The suspects, by tokens: Ann.2 (5) and Cat.1 (2); other tokens: Cat.2 (1).",
        ),
        ("whole-game.json", "Ann, the Burgomaster, uses the privilege on Ben.1."),
        ("whole-game.json", "Ben, the Burgomaster, does not use the privilege."),
        (
            "winner-tie-clockwise.json",
            "Cat, the Burgomaster, has no living character: no privilege today.",
        ),
    ],
)
def test_the_log_tells_ties_and_their_reason_suspects_by_tokens_and_scores_by_part(
    name: str, line: str
) -> None:
    game = sc.replay(sc.read(SCENARIOS / name)).game
    line = said(line)
    for seat in (LEADER, *range(game.n)):  # all public
        assert any(told.startswith(line) for told in narrate(game.view(seat))), (seat, line)


def test_the_end_gives_machines_each_score_by_part_and_the_tie_break() -> None:
    over = whole_game().events[-1]
    assert over.kind == "game_over"
    assert plain(over.data["parts"]) == {
        "1": {"characters": 2, "chest": 0, "seal": 8},
        "2": {"characters": 4, "chest": 1, "seal": 0},
        "3": {"characters": 2, "chest": 1, "seal": 1},
    }
    assert "tie_break" not in over.data
    tied = sc.replay(sc.read(SCENARIOS / "winner-tie-clockwise.json")).game.events[-1]
    assert plain(tied.data["tie_break"]) == {
        "of": "player",
        "score": 6,
        "chosen": [3],
        "over": [1],
        "why": "clockwise",
    }
    lynch = sc.replay(sc.read(SCENARIOS / "lynch-tie-closer-to-burgomaster.json")).game
    ballots = next(ev for ev in lynch.events if ev.kind == "ballots")
    assert plain(ballots.data["tie_break"]) == {
        "of": "house",
        "score": 2,
        "chosen": [3],
        "over": [4],
        "why": "clockwise",
    }
    werewolf = sc.replay(sc.read(SCENARIOS / "werewolf-wins-two-two.json")).game.events[-1]
    assert "parts" not in werewolf.data


# ---------------------------------------------------------------------------- property


@dataclass(frozen=True)
class Deal:
    names: tuple[str, ...]
    characters: tuple[tuple[str, str], ...]
    chests: tuple[int, ...]
    burgomaster: int
    bag: tuple[int, ...] | None
    seed: int

    def game(self) -> LupusburgGame:
        return lupusburg(
            self.names,
            [list(p) for p in self.characters],
            list(self.chests),
            self.burgomaster,
            None if self.bag is None else list(self.bag),
            self.seed,
        )


def random_deal(rng: random.Random, n: int, fixed_bag: bool, seed: int) -> Deal:
    """Shuffle the deck and deal two per player, redealing while a player holds both the
    Werewolf and the Thief; the chest goes under a Townsfolk, chosen at random."""
    deck = [W, T] + [F] * (2 * n - 2)
    while True:
        rng.shuffle(deck)
        pairs = [tuple(deck[2 * s : 2 * s + 2]) for s in range(n)]
        if not any(W in p and T in p for p in pairs):
            break
    chests = [rng.choice([k + 1 for k in (0, 1) if p[k] == F]) for p in pairs]
    bag = list(BOX)
    rng.shuffle(bag)
    return Deal(
        NAMES[:n],
        tuple((p[0], p[1]) for p in pairs),
        tuple(chests),
        rng.randrange(n),
        tuple(bag) if fixed_bag else None,
        seed,
    )


@dataclass
class Entitlement:
    """What the rules let each seat know, computed from the deal and the actions only."""

    deal: Deal
    characters: list[dict[int, str]] = field(default_factory=list)
    chests: list[dict[int, bool]] = field(default_factory=list)
    draws: list[list[tuple[tuple[int, ...], int | None]]] = field(default_factory=list)
    either: list[set[int]] = field(default_factory=list)  # a closed privilege's show
    closes: list[int] = field(default_factory=list)
    bag: list[int] = field(default_factory=list)
    bets: dict[int, tuple[int, int]] = field(default_factory=dict)
    pending: tuple[int, int] | None = None  # (Burgomaster, house seen) awaiting the show
    betting: tuple[int, int] | None = None  # (bettor, target) awaiting the coin kept
    drawn: list[int] = field(default_factory=list)  # his coins, with a given bag order

    def __post_init__(self) -> None:
        d = self.deal
        flat = [c for p in d.characters for c in p]
        self.truth = flat
        self.chest_house = [2 * s + d.chests[s] - 1 for s in range(len(d.names))]
        for s in range(len(d.names)):
            self.characters.append({h: flat[h] for h in (2 * s, 2 * s + 1)})
            self.chests.append({h: h == self.chest_house[s] for h in (2 * s, 2 * s + 1)})
            self.draws.append([])
            self.either.append(set())
            self.closes.append(0)
        self.bag = list(d.bag) if d.bag is not None else []

    def record(self, action: Action, alive: Sequence[bool]) -> None:
        """Update before ``action`` is applied (``alive``: living houses at that time)."""
        verb, actor, args = action.verb, action.actor, action.args
        if verb == "peek":
            house = int(args[0])
            self.chests[actor][house] = house == self.chest_house[house // 2]
        elif verb == "privilege":
            house = int(args[0])
            self.characters[actor][house] = self.truth[house]
            self.pending = (actor, house)
        elif verb == "show":
            assert self.pending is not None
            house = int(args[0])
            self.characters[self.pending[1] // 2][house] = self.truth[house]
            self.pending = None
        elif actor == LEADER and self.pending is not None:
            burgomaster, seen = self.pending
            mine = {h for h in (2 * burgomaster, 2 * burgomaster + 1) if alive[h]}
            self.either[seen // 2] |= mine
            self.closes[seen // 2] += 1
            self.pending = None
        elif verb == "bet":
            # The bet commits the seal and draws: the coins are his from now on.
            self.betting = (actor, int(args[0]))
            if self.deal.bag is not None:
                self.drawn = self.bag[:3]
                self.bag = self.bag[len(self.drawn) :]
                self.draws[actor].append((tuple(self.drawn), None))
        elif verb == "keep":
            self.kept(actor, int(args[0]))
        if actor != LEADER and verb in ("pass", "token", "ballot"):
            self.pending = None

    def kept(self, bettor: int, coin: int) -> None:
        """The coin a bettor keeps (his choice, or the game's when the leader closed)."""
        assert self.betting is not None and self.betting[0] == bettor
        self.bets[bettor] = (self.betting[1], coin)
        self.betting = None
        if self.deal.bag is not None:
            rest = list(self.drawn)
            rest.remove(coin)
            self.bag += rest
            self.draws[bettor][-1] = (tuple(self.drawn), coin)

    def picked(self, game: LupusburgGame) -> None:
        """After the leader closed a turn between a bet and its coin: the coin picked,
        read from the bettor's own view (the oracle cannot know the generator's pick,
        only that it is one of the coins drawn)."""
        if self.betting is None:
            return
        bettor = self.betting[0]
        picks = [ev for ev in game.view(bettor).events if ev.kind == "coin_picked"]
        coin = int(str(picks[-1].data["kept"]))
        if self.deal.bag is not None:
            assert coin in self.drawn
        self.kept(bettor, coin)

    def check(self, seat: int, view: View) -> None:
        known = disclosed(view.events)
        entitled = self.characters[seat]
        extra = {h: c for h, c in known.characters.items() if h not in entitled}
        # Only a closed privilege may show a character not in the list (one per close),
        # one of the Burgomaster's living ones at the time.
        assert set(extra) <= self.either[seat] and len(extra) <= self.closes[seat], extra
        for h, c in known.characters.items():
            assert c == self.truth[h]
        assert {h: c for h, c in known.characters.items() if h in entitled} == entitled
        assert known.chests == self.chests[seat]
        if self.deal.bag is not None:
            assert known.draws == self.draws[seat]
        else:
            mine = [self.bets[seat][1]] if seat in self.bets else []
            assert [kept for _, kept in known.draws] == mine
            assert all(kept in coins and len(coins) <= 3 for coins, kept in known.draws)
        assert len(known.draws) == (seat in self.bets)  # once per game, if at all
        assert all(p.actor == seat for p in view.prompts)


def expected_end(deal: Deal, game: LupusburgGame, bets: dict[int, tuple[int, int]]) -> Outcome:
    """The outcome the rules give for the final state, computed here from scratch."""
    n = len(deal.names)
    flat = [c for p in deal.characters for c in p]
    wolf = flat.index(W) // 2
    alive = game.alive_house
    living = [alive[2 * s] + alive[2 * s + 1] for s in range(n)]
    others = sum(living) - living[wolf]
    if living[wolf] >= others:
        return Outcome(W, (wolf,), "werewolf_even", {s: n if s == wolf else 0 for s in range(n)})
    assert living[wolf] == 0
    scores = {}
    for s in range(n):
        chest = 2 * s + deal.chests[s] - 1
        seal = 1
        if s in bets:
            seal = bets[s][1] if bets[s][0] == wolf else 0
        scores[s] = 0 if s == wolf else 2 * living[s] + alive[chest] + seal
    burgomaster = (deal.burgomaster + game.number - 1) % n  # in office on the last day
    order = [(burgomaster + i) % n for i in range(n)]
    best = max(scores.values())
    winner = next(s for s in order if scores[s] == best)
    return Outcome(F, (winner,), "werewolf_lynched", scores)


class Referee:
    """The rules recomputed from scratch: who must act now, with exactly which choices,
    and what each claw and each lynch do. It reads the game's living houses, phase and
    number; everything else comes from the deal and the actions."""

    def __init__(self, deal: Deal, oracle: Entitlement) -> None:
        flat = [c for p in deal.characters for c in p]
        self.n = len(deal.names)
        self.wolf, self.thief = flat.index(W) // 2, flat.index(T) // 2
        self.first = deal.burgomaster
        self.oracle = oracle
        self.key: tuple[str, int] = ("setup", 0)
        self.current: frozenset[str] = frozenset()

    def new_phase(self, key: tuple[str, int], alive: Sequence[bool]) -> None:
        self.key = key
        self.start = [alive[2 * s] + alive[2 * s + 1] for s in range(self.n)]
        self.seen: set[str] = set()
        self.queue: list[int] = []
        self.tokens = Counter[int]()
        self.suspects: list[int] = []
        self.owed: dict[int, int] = {}
        self.ballots = Counter[int]()
        self.claw: int | None = None

    def order(self) -> list[int]:
        """Seats from the Burgomaster clockwise; he passes clockwise every day."""
        b = (self.first + self.key[1] - 1) % self.n
        return [(b + i) % self.n for i in range(self.n)]

    def rank(self, house: int) -> tuple[int, int]:
        return (self.order().index(house // 2), house % 2)

    def check(self, game: LupusburgGame, prompts: Sequence[Prompt]) -> None:
        alive = game.alive_house
        if (game.phase, game.number) != self.key:
            self.new_phase((game.phase, game.number), alive)
        living = [h for h in range(2 * self.n) if alive[h]]
        verbs = frozenset(p.verb for p in prompts)
        self.current = verbs
        choices = {(p.actor, p.verb): set(p.choices) for p in prompts}
        actors = {p.actor for p in prompts}
        b = self.order()[0]
        mine = {2 * b, 2 * b + 1}
        if game.phase == "night":
            self.seen |= verbs
            wolf = {2 * self.wolf, 2 * self.wolf + 1}
            if verbs == {"peek"}:
                assert self.start[self.thief] > 0
                assert choices == {
                    (self.thief, "peek"): {(h,) for h in living if h // 2 != self.thief}
                }
            else:
                assert verbs == {"claw"}
                assert ("peek" in self.seen) == (self.start[self.thief] > 0)
                both = self.start[self.wolf] == 2
                assert choices == {
                    (self.wolf, "claw"): {(h,) for h in living if both or h not in wolf}
                }
            return
        assert game.phase == "day"
        if verbs == {"privilege", "pass"}:
            assert actors == {b} and self.start[b] > 0 and not self.seen
            assert choices[(b, "privilege")] == {(h,) for h in living if h not in mine}
        elif verbs == {"show"}:
            assert choices == {(b, "show"): {(h,) for h in living if h in mine}}
        elif verbs in ({"bet", "pass"}, {"keep"}, {"token"}):
            if "bet" not in self.seen and "token" not in self.seen:
                # The privilege is offered exactly when the Burgomaster has a character.
                assert ("privilege" in self.seen) == (self.start[b] > 0)
                self.queue = [s for s in self.order() if s not in self.oracle.bets]
            if verbs == {"token"} and "token" not in self.seen:
                assert not self.queue  # every betting turn came before
                self.queue = self.order() * 2
            (actor,) = actors
            assert actor == self.queue[0]
            if verbs == {"token"}:
                assert choices[(actor, "token")] == {(h,) for h in living}
            elif verbs == {"bet", "pass"}:
                # A player, never a coin: nobody sees a coin before his bet.
                assert choices[(actor, "bet")] == {(t,) for t in range(self.n) if t != actor}
                assert self.oracle.betting is None
            else:
                # Having bet, he keeps one of the coins drawn; no pass any more.
                assert self.oracle.betting is not None and self.oracle.betting[0] == actor
                coins = {int(c[0]) for c in choices[(actor, "keep")]}
                if self.oracle.deal.bag is not None:
                    assert coins == set(self.oracle.drawn)
                else:
                    left = Counter(BOX) - Counter(c for _, c in self.oracle.bets.values())
                    assert 0 < len(coins) <= 3 and coins <= set(left)
        else:
            assert verbs == {"ballot"}
            if "ballot" not in self.seen:
                assert self.queue == [] and "token" in self.seen
                top = sorted(living, key=lambda h: (-self.tokens[h], self.rank(h)))[:2]
                self.suspects = top
                for s in range(self.n):
                    self.owed[s] = sum(1 for h in (2 * s, 2 * s + 1) if alive[h] and h not in top)
            assert actors == {s for s, owed in self.owed.items() if owed > 0}
            assert all(c == {(h,) for h in self.suspects} for c in choices.values())
        self.seen |= verbs

    def applied(self, game: LupusburgGame, action: Action, deaths: Sequence[Death]) -> None:
        verb, args = action.verb, action.args
        if self.current in ({"keep"}, {"token"}) or (
            self.current == {"bet", "pass"} and verb != "bet"
        ):
            self.queue.pop(0)  # that turn is over: passed, closed, or the coin kept
        if verb == "token":
            self.tokens[int(args[0])] += 1
        elif verb == "ballot":
            self.ballots[int(args[0])] += 1
            self.owed[action.actor] -= 1
        elif verb == "claw":
            self.claw = int(args[0])
        causes = [(d.cause, d.house) for d in deaths]
        if self.key[0] == "night":
            claws = [] if verb != "claw" else [("werewolf", self.claw)]
            assert causes == (claws if game.phase != "night" or game.finished else [])
        elif self.suspects and (action.actor == LEADER or not any(self.owed.values())):
            lynched = min(self.suspects, key=lambda h: (-self.ballots[h], self.rank(h)))
            assert causes == [("vote", lynched)]
        else:
            assert causes == []


def play(deal: Deal, rng: random.Random, close_chance: float) -> tuple[LupusburgGame, Entitlement]:
    game = deal.game()
    oracle = Entitlement(deal)
    referee = Referee(deal, oracle)
    n = len(deal.names)
    wolf = referee.wolf
    for _ in range(4000):
        if game.finished:
            break
        alive = game.alive_house
        living = [alive[2 * s] + alive[2 * s + 1] for s in range(n)]
        assert 0 < living[wolf] < sum(living) - living[wolf]  # else the game would be over
        prompts = [p for p in game.prompts() if p.actor != LEADER]
        referee.check(game, prompts)
        moves = [Action(p.actor, p.verb, args) for p in prompts for args in p.choices]
        if not moves or rng.random() < close_chance:
            action = Action(LEADER, "close")
        else:
            action = rng.choice(moves)
        oracle.record(action, list(alive))
        before = len(game.deaths)
        game.apply(action)
        if action.actor == LEADER:
            oracle.picked(game)
        referee.applied(game, action, game.deaths[before:])
    assert game.finished, "play did not end"
    return game, oracle


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
@given(
    n=st.integers(4, 8),
    seed=st.integers(0, 2**32 - 1),
    fixed_bag=st.booleans(),
    close_chance=st.sampled_from([0.0, 0.0, 0.03, 0.15]),
)
def test_random_legal_play(n: int, seed: int, fixed_bag: bool, close_chance: float) -> None:
    rng = random.Random(seed)
    deal = random_deal(rng, n, fixed_bag, seed)
    game, oracle = play(deal, rng, close_chance)

    outcome = game.outcome
    assert outcome is not None
    wanted = expected_end(deal, game, oracle.bets)
    assert (outcome.winner, outcome.winners, outcome.reason) == (
        wanted.winner,
        wanted.winners,
        wanted.reason,
    )
    assert dict(outcome.scores) == dict(wanted.scores)

    nights = {ev.number for ev in game.events if ev.phase == "night"}
    for night in nights:  # the Thief's step runs every night, living Thief or not
        wakes = [ev for ev in game.events if ev.kind == "wake" and ev.number == night]
        assert [(ev.phase, ev.audience, ev.data["step"]) for ev in wakes] == [
            ("night", None, "thief"),
            ("night", None, "werewolf"),
        ]

    again = deal.game()
    for action in game.history:
        again.apply(action)
    assert again.events == game.events and again.outcome == outcome

    for seat in range(n):
        oracle.check(seat, game.view(seat))
        lines = narrate(game.view(seat))
        names = {said(f"{game.names[h // 2]}.{h % 2 + 1}") for h in oracle.characters[seat]}
        names |= {said(f"{game.names[h // 2]}.{h % 2 + 1}") for h in oracle.either[seat]}
        assert named_characters(lines) <= names
    assert disclosed(game.view(LEADER).events).characters == dict(enumerate(oracle.truth))


def test_the_random_deal_follows_the_rules() -> None:
    for seed in range(200):
        rng = random.Random(seed)
        deal = random_deal(rng, 4 + seed % 5, seed % 2 == 0, seed)
        deal.game()  # check_setup accepts it
        assert all(p[c - 1] == F for p, c in zip(deal.characters, deal.chests, strict=True))


# ---------------------------------------------------------------------------- match


def test_the_first_burgomaster_rotates_from_game_to_game() -> None:
    assert [first_burgomaster(g, 5) for g in range(7)] == [0, 1, 2, 3, 4, 0, 1]
    assert [first_burgomaster(g, 4, first=2) for g in range(4)] == [2, 3, 0, 1]
    with pytest.raises(ValueError):
        first_burgomaster(0, 4, first=4)
    with pytest.raises(ValueError):
        first_burgomaster(-1, 4)


def test_a_winning_werewolf_scores_the_number_of_players() -> None:
    won = Outcome(W, (2,), "werewolf_even", {2: 5, 0: 0})
    assert game_points(won, 5) == {0: 0, 1: 0, 2: 5, 3: 0, 4: 0}
    # Whatever the game's own table says, the match counts n for him and 0 for others.
    assert game_points(Outcome(W, (1,), "werewolf_even", {}), 6)[1] == 6


def test_match_scores_add_up_game_after_game() -> None:
    seed_example = Outcome(F, (2,), "werewolf_lynched", {0: 0, 1: 3, 2: 9, 3: 7, 4: 3})
    werewolf_won = Outcome(W, (4,), "werewolf_even", {4: 5, 0: 0, 1: 0, 2: 0, 3: 0})
    totals = match_totals([seed_example, werewolf_won, seed_example], 5)
    assert totals == {0: 0, 1: 6, 2: 18, 3: 14, 4: 11}
    assert leaders(totals) == [2]
    assert add_game({}, seed_example, 5) == {0: 0, 1: 3, 2: 9, 3: 7, 4: 3}
    start = {0: 1, 1: 1, 2: 1, 3: 1, 4: 1}
    assert add_game(start, werewolf_won, 5)[4] == 6 and start[4] == 1
    assert leaders({0: 4, 1: 7, 2: 7}) == [1, 2]
    assert match_totals([], 4) == {0: 0, 1: 0, 2: 0, 3: 0}
    with pytest.raises(ValueError):
        game_points(Outcome(F, (0,), "werewolf_lynched", {5: 1}), 4)


def test_a_match_of_real_games() -> None:
    whole = whole_game()
    werewolf = sc.replay(sc.read(SCENARIOS / "werewolf-wins-two-two.json")).game
    assert whole.outcome is not None and werewolf.outcome is not None
    assert match_totals([whole.outcome, werewolf.outcome], 4) == {0: 4, 1: 10, 2: 5, 3: 4}
