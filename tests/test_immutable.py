"""Nothing the engine hands out can be changed, in either build.

A hostile caller holds what the API gives him: views (his own, another seat's, the
leader's, a spectator's), their events and prompts, the game's prompts, outcome and
deal. He walks everything reachable from them by reflection (private slots included)
and tries to change each thing he finds: reassign or delete a slot, append to, set or
clear a container. Every attempt must fail, and afterwards every view of the game and
the rest of the game must be exactly what a fresh replay of the same actions gives.

The suite runs against the installed build: compiled (CI) and as pure Python
(``LUPUS_COMPILE=0``), whose value classes are sealed by ``lupus.engine.sealed.seal``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from contextlib import suppress
from types import MappingProxyType
from typing import Any

import pytest

from lupus import Action, IllegalAction, deal, load, new_game
from lupus.engine.game import Game
from lupus.engine.model import LEADER, Event, Outcome, Prompt
from lupus.engine.views import View
from lupus.sim.config import SimConfig
from lupus.sim.selfplay import Table, play

MUTABLE = (list, dict, set, bytearray)
# The one slot a view sets after it is made: the memo of its merged events (its own,
# built from its immutable chains; tested apart below).
MEMO = {(View, "_events")}


def slot_names(obj: object) -> list[str]:
    """Every instance attribute of ``obj``'s class and bases, private ones included:
    the slots of a pure-Python class, the native attributes of a compiled one (not its
    properties, which compute a fresh value at each read)."""
    names: list[str] = []
    for klass in type(obj).__mro__:
        declared = vars(klass).get("__mypyc_attrs__", vars(klass).get("__slots__", ()))
        names += [name for name in declared if not name.startswith("__")]
    return names + list(getattr(obj, "__dict__", {}))


def reachable(*roots: object) -> Iterator[tuple[str, object]]:
    """Every object reachable from ``roots`` (with a path), by attributes and items."""
    seen: set[int] = set()
    todo: list[tuple[str, object]] = [(f"root{i}", root) for i, root in enumerate(roots)]
    while todo:
        path, obj = todo.pop()
        if id(obj) in seen or obj is None or isinstance(obj, int | float | str | bytes | type):
            continue
        seen.add(id(obj))
        yield path, obj
        if isinstance(obj, Mapping):
            for key, value in obj.items():
                todo.append((f"{path}[{key!r}]", value))
        elif isinstance(obj, tuple | list | set | frozenset):
            for i, item in enumerate(obj):
                todo.append((f"{path}[{i}]", item))
        elif type(obj).__module__.startswith("lupus"):
            for name in slot_names(obj):
                with suppress(AttributeError):  # (a slot not set)
                    todo.append((f"{path}.{name}", getattr(obj, name)))


def attack(path: str, obj: object) -> list[str]:
    """Try to change ``obj``: what succeeded (nothing, for a sound engine)."""
    changed: list[str] = []
    if isinstance(obj, MUTABLE):
        return [f"{path} is a mutable {type(obj).__name__}"]
    if isinstance(obj, MappingProxyType):
        try:
            obj["forged"] = 1  # type: ignore[index]
            changed.append(f"{path}: item set")
        except TypeError:
            pass
        return changed
    if not type(obj).__module__.startswith("lupus"):
        return changed
    for name in slot_names(obj):
        if (type(obj), name) in MEMO:
            continue
        try:
            value = getattr(obj, name)
        except AttributeError:
            value = None
        for how in ("set", "delete"):
            try:
                if how == "set":
                    setattr(obj, name, value)
                else:
                    delattr(obj, name)
                changed.append(f"{path}.{name}: {how}")
            except (AttributeError, TypeError):
                pass
    return changed


def handed_out(game: Game) -> list[object]:
    """Everything the public API hands a caller about ``game``."""
    out: list[object] = [game.view(LEADER), game.public_view(), game.outcome]
    for seat in range(len(game.names)):
        view = game.view(seat)
        assert view.events is view.events  # (merged: the memo is set too)
        out += [view, game.view(seat), *game.prompts(seat), *game.legal_actions(seat)]
    # (the lists these calls return are fresh, the caller's own: their items are not)
    out += [*game.prompts(), *game.events, *game.history, *game.deaths]
    return out


def snapshot(game: Game) -> list[object]:
    """Every view of the game, as JSON data."""
    seats = [LEADER, *range(len(game.names))]
    return [game.view(seat).to_json() for seat in seats] + [game.public_view().to_json()]


def games() -> Iterator[Game]:
    """Games of every rulebook, finished and halfway, with random bots."""
    for rules, players in [
        ("werewolf", 8),
        ("tit-albert", 8),
        ("maffia", 8),
        ("mafia-classic", 8),
        ("lupusburg", 6),
    ]:
        table = Table(SimConfig(rules, players))
        for index in range(2):
            game, _ = play(table, index)
            yield game
            yield halfway(game)


def halfway(game: Game) -> Game:
    """The same game replayed to half of its actions (so that prompts are open)."""
    again = replayed(game, len(game.history) // 2)
    assert again.prompts(), "halfway, someone has something to do"
    return again


def replayed(game: Game, actions: int | None = None) -> Game:
    from lupus import scenario

    data = game.to_scenario()
    lines = data["actions"]
    assert isinstance(lines, list)
    data["actions"] = lines if actions is None else lines[:actions]
    return scenario.replay(scenario.parse(data)).game


@pytest.mark.parametrize("game", list(games()), ids=lambda g: f"{g.rulebook.id}-{g.state_id}")
def test_nothing_handed_out_can_be_changed(game: Game) -> None:
    before = snapshot(game)
    history = list(game.history)
    changed: list[str] = []
    for path, obj in reachable(*handed_out(game)):
        changed += attack(path, obj)
    assert changed == []
    assert snapshot(game) == before
    assert game.history == history
    if not game.finished:  # the game goes on as a fresh replay of the same actions does
        fresh = replayed(game)
        bot = random.Random(7)
        for _ in range(30):
            seat = game.first_waiting()
            if seat is None:
                break
            action = bot.choice(game.legal_actions(seat))
            game.apply(action)
            fresh.apply(action)
        assert snapshot(game) == snapshot(fresh)


def test_the_lists_a_call_returns_are_the_callers_own() -> None:
    game = started()
    mine = game.prompts(1)
    mine.clear()
    assert game.prompts(1) != []
    actions = game.legal_actions(1)
    actions.clear()
    assert game.legal_actions(1) != []
    options = game.view(1).options
    options["forged"] = True
    assert "forged" not in game.view(1).options


def test_a_views_memo_is_its_own() -> None:
    """A view's one late slot, the memo of its events, reaches no other view."""
    game = started()
    game.apply(Action(1, "inspect", (0,)))
    mine = game.view(1)
    honest = mine.events
    forged = (*honest, Event("death", None, {"player": 2, "cause": "vote"}, "night", 1, 99))
    with suppress(AttributeError):  # (pure Python: set once, and it was)
        mine._events = forged  # type: ignore[misc]
    for seat in (LEADER, 0, 1, 2):
        assert all(ev.kind != "death" for ev in game.view(seat).events)
    assert game.view(1).events == honest


def test_the_classic_attacks_fail() -> None:
    """The examples of the review: a view's lists, a shared public event, a prompt, an
    action kept in the history, the outcome's scores."""
    game = started()
    view = game.view(1)
    with pytest.raises(AttributeError):
        view._private.append(view.events[-1])  # type: ignore[union-attr]
    public = next(ev for ev in view.events if ev.audience is None)
    for name, value in [("seq", 5), ("kind", "death"), ("data", {})]:
        with pytest.raises(AttributeError):
            setattr(public, name, value)
    with pytest.raises(TypeError):
        public.data["forged"] = 1  # type: ignore[index]
    prompt = game.prompts(1)[0]
    with pytest.raises(AttributeError):
        prompt.choices = ((2,),)  # type: ignore[misc]
    action = Action(1, "inspect", (0,))
    game.apply(action)
    with pytest.raises(AttributeError):
        action.args = (3,)  # type: ignore[misc]
    assert game.history[-1].args == (0,)
    with pytest.raises(TypeError):
        Outcome("town", (0,), "why", {0: 1}).scores[0] = 9  # type: ignore[index]
    dealt = deal(load("werewolf"), 8, {"werewolf": 2, "seer": 1, "villager": 5}, random.Random(1))
    with pytest.raises(AttributeError):
        dealt.roles = ()  # type: ignore[misc]
    with pytest.raises(AttributeError):
        Prompt(0, "x", ((),)).verb = "y"  # type: ignore[misc]


def test_a_bool_is_no_seat_in_either_build() -> None:
    with pytest.raises(TypeError, match="seat number"):
        Action(True, "inspect", (0,))
    with pytest.raises(IllegalAction):
        Action.of(True, "inspect", [0])
    game = started()
    with pytest.raises(ValueError):
        game.view(True)


def started() -> Game:
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
    roles = ["werewolf", "seer", "werewolf", "villager", *["villager"] * 4]
    return new_game("werewolf", names, roles, seed=1)


def test_the_attack_finds_what_it_should() -> None:
    """The walk and the attack themselves: a mutable list is found, a sealed event's
    slots are tried and refused."""

    class Leaky:
        __module__ = "lupus.test"

        def __init__(self) -> None:
            self.items: list[int] = [1]

    found = [line for path, obj in reachable(Leaky()) for line in attack(path, obj)]
    assert "root0.items: set" in found  # (and, had it been kept, a mutable list)
    event = Event("x", None, {"a": [1]}, "day", 1)
    assert [line for path, obj in reachable(event) for line in attack(path, obj)] == []
    assert isinstance(event.data["a"], tuple)


def slots_of_view() -> list[str]:
    return slot_names(started().view(0))


def test_views_keep_no_live_list() -> None:
    assert {"_public", "_private"} <= set(slots_of_view())
    view: Any = started().view(0)
    for name in ("_public", "_private"):
        assert not isinstance(getattr(view, name), MUTABLE)
