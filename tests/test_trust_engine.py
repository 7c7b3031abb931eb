"""The engine as a trust boundary: what its public API gives away, and what it takes.

A server puts the engine in front of strangers' phones. These tests check the API from
outside, as an attacker would: a seat's view (its ``state_id``, its events' audiences,
whatever reflection reaches from it, its JSON) holds nothing its seat may not know; every
seat argument is checked; a malformed action of any shape is refused with
``IllegalAction`` and changes nothing; what a view hands out cannot be changed.
"""

from __future__ import annotations

import gc
import json
import random
import re
from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import playout
from lupus.engine import LEADER, Action, IllegalAction
from lupus.engine.game import Game
from lupus.engine.model import Event
from lupus.engine.untrusted import safe_repr
from lupus.engine.views import View
from lupus.families import new_game
from lupus.village.game import VillageGame
from playout import PROFILE, SCALE, Move, RandomPolicy, Setup

ALL_RULEBOOKS = ("werewolf", "tit-albert", "maffia", "mafia-classic")


NAMES = ["Anna", "Bo", "Cilla", "Dan", "Eva", "Filip", "Greta", "Hugo", "Ines"]
ROLES = ["mafia", "godfather", "doctor", "detective", "couple", "couple", "avenger"]


def maffia_game(detective: int = 3) -> VillageGame:
    """Nine players; the Detective is Dan (3) or, swapped with him, Ines (8)."""
    roles = [*ROLES, "villager", "villager"]
    roles[3], roles[detective] = roles[detective], roles[3]
    game = new_game("maffia", NAMES, roles)
    assert isinstance(game, VillageGame)
    return game


def act(game: Game, *moves: tuple[int, str, int | None]) -> None:
    for actor, verb, target in moves:
        game.apply(Action(actor, verb, () if target is None else (target,)))


# ---------------------------------------------------------------------- 1. state_id
def banish(game: Game, nominee: int, voters: list[int]) -> None:
    act(game, (0, "nominate", nominee), (LEADER, "close", None))
    for seat in range(game.n):
        if seat in game.waiting():
            verb, target = ("vote", nominee) if seat in voters else ("abstain", None)
            act(game, (seat, verb, target))


def test_state_id_does_not_tell_a_hidden_action() -> None:
    """The issue's case: Dan is banished. Whether he was the Detective (who then cannot
    inspect) or Ines is (and inspects in secret), Filip's view is the same, and so is
    his ``state_id``."""
    views = []
    for detective in (3, 8):
        game = maffia_game(detective)
        act(game, (0, "kill", 7), (1, "kill", 7), (2, "protect", 2))
        act(game, (detective, "inspect", 0))
        banish(game, 3, [0, 1, 2, 4, 5, 6, 8])
        act(game, (0, "kill", 6), (1, "kill", 6), (2, "protect", 4))
        if detective != 3:
            act(game, (detective, "inspect", 1))  # a secret the dead Dan could not do
        assert game.waiting() == [6]  # the Avenger is due (a murder the night before)
        views.append(game.view(5))  # Filip, a couple member
    one, other = views
    assert [playout.seen_as(ev, 5) for ev in one.events] == [
        playout.seen_as(ev, 5) for ev in other.events
    ]
    assert one.prompts == other.prompts
    assert one.state_id == other.state_id


def test_state_id_counts_what_the_seat_saw_and_did() -> None:
    game = maffia_game()
    before = {seat: game.view(seat).state_id for seat in range(game.n)}
    act(game, (0, "kill", 7))  # a pick only the mafia see
    after = {seat: game.view(seat).state_id for seat in range(game.n)}
    assert after[0] == before[0] + 2  # his own action, and the pick he sees
    assert after[1] == before[1] + 1  # the pick he sees
    assert all(after[s] == before[s] for s in range(2, game.n))


def state_id_observer(game: Game, move: Move | None) -> None:
    for seat in range(game.n):
        view = game.view(seat)
        own = sum(1 for a in game.history if a.actor == seat)
        assert view.state_id == len(view.events) + own


@settings(max_examples=40 * SCALE, **PROFILE)
@given(setup=playout.setups(ALL_RULEBOOKS), seed=st.integers(0, 2**32 - 1))
def test_state_id_is_what_the_seat_saw_plus_what_it_did(setup: Setup, seed: int) -> None:
    playout.play(setup, policy_for(setup, seed), observe=state_id_observer)


def policy_for(setup: Setup, seed: int) -> RandomPolicy:
    if setup.rules in ("maffia", "mafia-classic"):
        return playout.LeaderClosePolicy(seed)
    return RandomPolicy(seed)


# ---------------------------------------------------------------------- 2 and 4. views
def reachable_events(root: object) -> list[Event]:
    """Every event reachable from ``root`` by reflection (attributes, containers)."""
    seen: set[int] = set()
    found: list[Event] = []
    todo: list[object] = [root]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, str | int | float | bool | type(None)):
            continue
        seen.add(id(obj))
        if isinstance(obj, Event):
            found.append(obj)
        if isinstance(obj, type):  # classes and their namespaces are code, not state
            continue
        todo.extend(gc.get_referents(obj))
        for name in getattr(type(obj), "__slots__", ()):
            if hasattr(obj, name):
                todo.append(getattr(obj, name))
    return found


def check_view_holds_only_its_seat(game: Game, seat: int) -> None:
    view = game.view(seat)
    for ev in reachable_events(view):  # public, to this seat, or anonymous: no one else
        assert not (ev.audience or frozenset()) - {seat}, f"view of {seat} reaches {ev}"
    for ev in view.events:
        assert ev.audience is None or ev.audience == frozenset({seat}), ev
    text = json.dumps(view.to_json())
    assert json.loads(text)["seat"] == seat


def view_observer(game: Game, move: Move | None) -> None:
    if move is None or len(game.history) % 7 == 0 or game.finished:
        for seat in range(game.n):
            check_view_holds_only_its_seat(game, seat)
        json.dumps(game.view(LEADER).to_json())


@settings(max_examples=40 * SCALE, **PROFILE)
@given(setup=playout.setups(ALL_RULEBOOKS), seed=st.integers(0, 2**32 - 1))
def test_every_view_holds_only_its_seats_share_and_turns_into_json(setup: Setup, seed: int) -> None:
    playout.play(setup, policy_for(setup, seed), observe=view_observer)


def test_a_caught_little_girl_does_not_learn_the_sleeping_werewolf() -> None:
    names = [f"P{i}" for i in range(8)]
    roles = ["werewolf", "werewolf", "little-girl", "seer", "witch", "villager"]
    game = new_game(
        "werewolf",
        names,
        [*roles, "villager", "villager"],
        options={"little_girl_catch_chance": 1.0},
    )
    act(game, (3, "inspect", 5), (2, "spy", None), (0, "kill", 5), (1, "sleep", None))
    game.apply(Action(LEADER, "close"))  # (a name and sleep: no agreement, a timer closes)
    caught = [ev for ev in game.events if ev.kind == "caught"]
    assert caught and 1 in (caught[0].audience or ())  # the whole pack learns who she is
    mine = [ev for ev in game.view(2).events if ev.kind == "caught"]
    assert [ev.audience for ev in mine] == [frozenset({2})]
    check_view_holds_only_its_seat(game, 2)


# ---------------------------------------------------------------------- 3. seats
@pytest.mark.parametrize("seat", [-3, 9, 10**30, True, 1.0, "1", None])
def test_every_seat_argument_is_checked(seat: Any) -> None:
    game = maffia_game()
    calls = [game.legal_actions, game.view, game.open_prompts]
    if seat is not None:  # (``prompts()`` without a seat lists every open prompt)
        calls.append(game.prompts)
    for call in calls:
        with pytest.raises(ValueError, match="no seat"):
            call(seat)
    assert game.prompts(3) == []  # nothing was cached for a bad seat
    act(game, (0, "kill", 7), (1, "kill", 7), (2, "protect", 2))
    assert game.legal_actions(3) == [Action(3, "inspect", (t,)) for t in (0, 1, 2, 4, 5, 6, 7, 8)]


# ---------------------------------------------------------------------- 7. types
WEIRD = st.one_of(
    st.none(),
    st.booleans(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.text(max_size=60),
    st.binary(max_size=8),
    st.lists(st.integers(0, 9), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.tuples(st.integers(0, 9), st.integers(0, 9)),
    st.just(2.0),
    st.just(10**5000),
    st.just(object()),
)


@st.composite
def malformed(draw: st.DrawFn, game: Game) -> tuple[Any, Any, Any] | Any:
    """The parts of an action no honest client sends, often close to a legal one (or,
    sometimes, something that is not an action at all)."""
    legal = [a for seat in [LEADER, *range(game.n)] for a in game.legal_actions(seat)]
    base = draw(st.sampled_from(legal)) if legal else Action(0, "vote", (0,))
    shape = draw(st.integers(0, 6))
    if shape == 0:
        return (draw(WEIRD), base.verb, base.args)
    if shape == 1:
        return (base.actor, draw(WEIRD), base.args)
    if shape == 2:
        return (base.actor, base.verb, draw(WEIRD))
    if shape == 3:  # one argument replaced by something equal-looking or odd
        args = list(base.args) or [0]
        args[draw(st.integers(0, len(args) - 1))] = draw(WEIRD)
        return (base.actor, base.verb, tuple(args))
    if shape == 4:  # the same numbers as floats or booleans
        kind = draw(st.sampled_from([float, bool]))
        return (base.actor, base.verb, tuple(kind(a) if type(a) is int else a for a in base.args))
    if shape == 5:
        return (True if base.actor == 1 else float(base.actor), base.verb, base.args)
    return draw(WEIRD)  # not an action at all


def built(parts: Any) -> Any:
    """An action of these parts, as a careless client would build it: compiled, the
    constructor itself refuses a part of the wrong type (TypeError); the untrusted way
    in, ``Action.of``, then refuses it too (IllegalAction: None here), or builds the
    action it means (a list of arguments is a tuple)."""
    if not isinstance(parts, tuple) or len(parts) != 3:
        return parts  # not an action at all: for apply to refuse
    try:
        return Action(*parts)
    except TypeError:
        try:
            return Action.of(*parts)  # (it takes a list of arguments as a tuple)
        except IllegalAction:
            return None


@settings(max_examples=60 * SCALE, **PROFILE)
@given(setup=playout.setups(ALL_RULEBOOKS), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_malformed_actions_are_refused_and_change_nothing(
    setup: Setup, seed: int, data: st.DataObject
) -> None:
    rng = random.Random(seed)

    def attack(game: Game, move: Move | None) -> None:
        if game.finished or rng.random() > 0.3:
            return
        before = state(game)
        legal = {exact(a) for seat in [LEADER, *range(game.n)] for a in game.legal_actions(seat)}
        for _ in range(3):
            bad = built(data.draw(malformed(game)))
            if bad is None or exact(bad) in legal:
                continue  # refused when built, or it came out legal after all
            with pytest.raises(IllegalAction) as refused:
                game.apply(bad)
            message = str(refused.value)
            assert message and "\n" not in message and len(message) < 400, message
        assert state(game) == before, "a refused action changed the game"

    result = playout.play(setup, policy_for(setup, seed), observe=attack)
    assert not result.refused  # and the game played on to its end
    assert result.game.finished


def exact(action: object) -> object:
    """An action with the types of its parts, to tell 2 from 2.0 and True."""
    if type(action) is not Action or type(action.args) is not tuple:
        return ("not an action", id(action))
    parts = (action.actor, action.verb, *action.args)
    return tuple((type(part).__name__, safe_repr(part)[:50]) for part in parts)


def state(game: Game) -> tuple[object, ...]:
    """``playout.snapshot``, and the random generator and every seat's ``state_id``."""
    assert isinstance(game, VillageGame)
    return (
        *playout.snapshot(game, game.roles, game.alive),
        game.rng.getstate(),
        [game.view(s).state_id for s in range(game.n)],
    )


def test_the_issues_examples_are_refused() -> None:
    game = maffia_game()
    act(game, (0, "kill", 7), (1, "kill", 7), (2, "protect", 2))
    for parts in (
        (3, "inspect", (2.0,)),
        (True, "inspect", (2,)),
        (3, "inspect", (None,)),
        (3, "inspect", ([2],)),
        (3, "inspect", ((2,),)),
        (3, "inspect", (b"2",)),
        (3, "inspect", (10**5000,)),
        (3, "inspect", [2.0]),
        (3, b"inspect", (2,)),
        (3.0, "inspect", (2,)),
        {"actor": 3, "verb": "inspect", "args": (2,)},
    ):
        bad = built(parts)
        if bad is not None:
            with pytest.raises(IllegalAction):
                game.apply(bad)
        if isinstance(parts, tuple) and parts[2] != (10**5000,):
            with pytest.raises(IllegalAction):
                Action.of(*parts)
    assert Action.of(3, "inspect", [2]) == Action(3, "inspect", (2,))  # JSON's list
    act(game, (3, "inspect", 2))  # the game is not bricked
    assert game.phase == "day"


# ---------------------------------------------------------------------- 10. read-only
def test_what_a_view_hands_out_cannot_be_changed() -> None:
    game = maffia_game()
    act(game, (0, "kill", 7), (1, "kill", 7), (2, "protect", 2), (3, "inspect", 0))
    view = game.view(0)
    pack = next(ev for ev in view.events if ev.kind == "pack")
    assert isinstance(pack.data, MappingProxyType)
    with pytest.raises(TypeError):
        pack.data["roles"] = {}  # type: ignore[index]
    roles = pack.data["roles"]
    with pytest.raises(TypeError):
        roles[7] = "villager"  # type: ignore[index]
    starts = next(ev for ev in view.events if ev.kind == "game_starts")
    assert isinstance(starts.data["players"], tuple)
    # The game's own record is untouched, and every view hands out the same object.
    assert game.view(4).events[0] is game.view(5).events[0]


def test_the_outcome_is_not_the_game_over_events_data() -> None:
    from lupus import scenario as sc

    path = "tests/scenarios/lupusburg/whole-game.json"
    game = sc.replay(sc.read(__import__("pathlib").Path(path))).game
    assert game.outcome is not None
    over = game.events[-1]
    scores = game.outcome.scores
    assert dict(scores) == dict(over.data["scores"])  # type: ignore[call-overload]
    assert scores is not over.data["scores"]


def test_a_view_made_directly_is_a_plain_value() -> None:
    game = maffia_game()
    view = game.view(0)
    copy = View(0, view.setup, view.phase, view.number, view.events, view.prompts, False, 0)
    assert copy.events == view.events


def test_a_rulebook_whose_phases_wait_on_nobody_is_refused(tmp_path: Any) -> None:
    """Its games would lay out nights and days forever: refused, not looping."""
    from lupus.engine.errors import RulebookError
    from lupus.rulebooks import load

    text = __import__("pathlib").Path("src/lupus/rulebooks/werewolf.toml").read_text("utf-8")
    text = re.sub(r"(?m)^day = \[.*$", 'day = ["lovers"]', text)  # (not the day's timer)
    text = re.sub(r"(?m)^(first|later) = .*$", r'\1 = ["lovers"]', text)
    text = re.sub(r"(?m)^preparation = .*$", "preparation = []", text)
    path = tmp_path / "idle.toml"
    path.write_text(text, "utf-8")
    book = load(str(path))
    names = [f"P{i}" for i in range(8)]
    roles = ["werewolf", "werewolf", "seer", *["villager"] * 5]
    with pytest.raises(RulebookError, match="could never end"):  # (refused as it loads)
        new_game(book, names, roles)
