"""A rulebook that loads can be played: a hostile generator of house rulebooks.

Hypothesis mutates the shipped rulebooks field by field, as a designer's typo or a
stranger's file would (step lists emptied, reordered, duplicated or given another
family's step; factions and roles renamed, removed or moved; win rules pointing at
unknown or other factions; counts huge, zero or negative; options with odd defaults or
another type; compositions that cannot be dealt; Lupusburg's bag and rounds; messages
that reach into lupus's objects). For each mutant, either loading it raises
``RulebookError`` with a reason on one line, or seeded games of each size it recommends,
played by random bots through the simulator's self-play, end within the simulator's
bound of actions (finished, or stopped as a stalemate the rules allow), narrate, and
replay from their scenario to the same events.
"""

from __future__ import annotations

import copy
import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

import lupus
from lupus import scenario as sc
from lupus.engine.model import LEADER
from lupus.families import check, family_of
from lupus.rulebooks import from_data
from lupus.sim.config import SimConfig
from lupus.sim.selfplay import Table, play
from lupus.village.family import house_rules
from playout import PROFILE, SCALE

SHIPPED = Path(lupus.__file__).parent / "rulebooks"
MOST_ACTIONS = 3000
"""The bound of a game's actions here (the simulator's is 20,000): a random game of a
shipped rulebook takes at most about a thousand."""
BASES = {
    rid: tomllib.loads((SHIPPED / f"{rid}.toml").read_text("utf-8")) for rid in lupus.available()
}
STEPS = {rid: family_of(lupus.load(rid)).step_ids() for rid in BASES}
ODD = st.sampled_from([0, -1, 1, 2, 3, 7, 10**9, -(10**9), 10**18])
LISTS = [("night", "first"), ("night", "later"), ("night", "preparation"), (None, "day")]


def renamed(data: Any, old: str, new: str) -> Any:
    """``data`` with every key and string equal to ``old`` (or a name key built on it,
    such as ``one.<role>``) renamed: a consistent rename."""
    if isinstance(data, dict):
        return {renamed(k, old, new): renamed(v, old, new) for k, v in data.items()}
    if isinstance(data, list):
        return [renamed(v, old, new) for v in data]
    if isinstance(data, str):
        if data == old:
            return new
        for prefix in ("one.", "many.", "about."):
            if data == prefix + old:
                return prefix + new
    return data


def step_list(draw: st.DrawFn, d: dict[str, Any], rid: str) -> None:
    table, key = draw(st.sampled_from(LISTS))
    holder = d if table is None else d.setdefault(table, {})
    steps = list(holder.get(key, []))
    how = draw(st.sampled_from(["empty", "permute", "duplicate", "drop", "insert", "unknown"]))
    if how == "empty":
        steps = []
    elif how == "permute":
        steps = draw(st.permutations(steps))
    elif how == "duplicate" and steps:
        steps.insert(draw(st.integers(0, len(steps))), draw(st.sampled_from(steps)))
    elif how == "drop" and steps:
        steps.pop(draw(st.integers(0, len(steps) - 1)))
    elif how in ("insert", "unknown"):
        other = draw(st.sampled_from(STEPS[rid])) if how == "insert" else "nap"
        steps.insert(draw(st.integers(0, len(steps))), other)
    holder[key] = steps


def factions(draw: st.DrawFn, d: dict[str, Any], rid: str) -> dict[str, Any]:
    old = draw(st.sampled_from(d["factions"]))
    if draw(st.booleans()):
        return renamed(d, old, old + "s")
    d["factions"] = [f + "s" if f == old else f for f in d["factions"]]  # here only
    return d


def wins(draw: st.DrawFn, d: dict[str, Any], rid: str) -> None:
    rules = d.setdefault("win", [])
    how = draw(st.sampled_from(["unknown", "other", "none", "permute", "when", "count", "add"]))
    sides = d["factions"]
    if how == "none":
        d["win"] = []
    elif how == "permute":
        d["win"] = draw(st.permutations(rules))
    elif how == "add" or not rules:
        rule = {"faction": draw(st.sampled_from(sides)), "when": "none_alive"}
        rule["of"] = draw(st.sampled_from(sides))
        rules.append(rule)
    else:
        rule = draw(st.sampled_from(rules))
        if how == "unknown":
            rule[draw(st.sampled_from(["faction", "of"]))] = "nobody"
        elif how == "other":
            rule[draw(st.sampled_from(["faction", "of"]))] = draw(st.sampled_from(sides))
        elif how == "when":
            rule["when"] = draw(
                st.sampled_from(
                    ["none_alive", "others_at_most", "at_least_half", "mixed_lovers_last_two"]
                )
            )
        else:
            rule["count"] = draw(ODD)


def counts(draw: st.DrawFn, d: dict[str, Any], rid: str) -> None:
    where = draw(st.sampled_from(["min_players", "max_players", "role", "minimum", "comp"]))
    value = draw(ODD)
    if where in ("min_players", "max_players"):
        d[where] = value
    elif where == "role":
        spec = d["roles"][draw(st.sampled_from(sorted(d["roles"])))]
        spec[draw(st.sampled_from(["max", "comes_in"]))] = value
    elif where == "minimum" and "minimum" in d:
        if draw(st.booleans()):
            d["minimum"]["players"] = value
        else:
            d["minimum"].setdefault("cards", {})[draw(st.sampled_from(sorted(d["roles"])))] = value
    elif d.get("compositions"):
        deck = d["compositions"][draw(st.sampled_from(sorted(d["compositions"])))]  # (a card)
        deck[draw(st.sampled_from(sorted(d["roles"])))] = value


def options(draw: st.DrawFn, d: dict[str, Any], rid: str) -> None:
    table = d.get("options") or {}
    if not table:
        d["options"] = {"odd": {"type": "float", "default": -0.0}}
        return
    key = draw(st.sampled_from(sorted(table)))
    spec = table[key]
    how = draw(st.sampled_from(["default", "type", "range", "drop"]))
    if how == "drop":
        del table[key]
    elif how == "type":
        kind = draw(st.sampled_from(["bool", "int", "float", "choice"]))
        table[key] = {
            "type": kind,
            "default": {"bool": True, "int": 2, "float": 0.5}.get(kind, "x"),
        }
        if kind == "choice":
            table[key]["choices"] = ["x", "y"]
    elif how == "range":
        spec["min"], spec["max"] = draw(st.sampled_from([(1.0, 0.0), (-1e9, 1e9), (5.0, 9.0)]))
    else:
        spec["default"] = draw(st.sampled_from([-0.0, 1e308, 1, True, "x", 2.5, -(10**9)]))


def compositions(draw: st.DrawFn, d: dict[str, Any], rid: str) -> None:
    table = d.get("compositions") or {}
    how = draw(st.sampled_from(["card", "unknown", "size", "empty", "short"]))
    if how == "empty" or not table:
        d["compositions"] = {}
        return
    size = draw(st.sampled_from(sorted(table)))
    deck = table[size]
    if how == "card":
        role = draw(st.sampled_from(sorted(d["roles"])))
        deck[role] = deck.get(role, 0) + 1
    elif how == "unknown":
        deck["ghost"] = 1
    elif how == "size":
        table[str(draw(st.sampled_from([1, 2, 99, 10**6])))] = dict(deck)
    elif deck:
        deck.pop(draw(st.sampled_from(sorted(deck))))


def mechanics(draw: st.DrawFn, d: dict[str, Any], rid: str) -> None:
    rules = d.setdefault("mechanics", {})
    key = draw(
        st.sampled_from(
            ["starvation_winner", "pack_tag", "kill_cause", "hunter_triggers", "pack_kills_own"]
        )
    )
    if key == "starvation_winner":
        rules[key] = draw(st.sampled_from(["nobody", *d["factions"]]))
    elif key == "pack_tag":
        rules[key] = draw(st.sampled_from(["nothing", "werewolf", "mafia"]))
    elif key == "kill_cause":
        rules[key] = draw(st.sampled_from(["vote", "hunger", "x"]))
    elif key == "hunter_triggers":
        rules[key] = draw(st.sampled_from([[], ["x"], ["poison", "heartbreak"]]))
    else:
        for flag in ("pack_kills_own", "pack_must_agree", "reveal_on_death"):
            if draw(st.booleans()):
                rules[flag] = not rules.get(flag, True)


def roles(draw: st.DrawFn, d: dict[str, Any], rid: str) -> dict[str, Any]:
    role = draw(st.sampled_from(sorted(d["roles"])))
    how = draw(st.sampled_from(["rename", "remove", "tags", "faction", "immune"]))
    if how == "rename":
        return renamed(d, role, role + "x")
    if how == "remove":
        del d["roles"][role]
        for deck in (d.get("compositions") or {}).values():
            deck.pop(role, None)
        if "minimum" in d:
            d["minimum"].get("cards", {}).pop(role, None)
    elif how == "tags":
        d["roles"][role]["tags"] = draw(st.sampled_from([[], ["werewolf"], ["mafia"]]))
    elif how == "faction":
        d["roles"][role]["faction"] = draw(st.sampled_from(d["factions"]))
    else:
        d["roles"][role]["immune"] = ["werewolves", "mafia", "vote", "shot", "poison"]
    return d


def texts(draw: st.DrawFn, d: dict[str, Any], rid: str) -> None:
    lang = d["languages"][0]
    key = draw(st.sampled_from(["night", "game_over", "death", "wake.werewolves", "bot_name"]))
    d.setdefault("text", {}).setdefault(lang, {})[key] = draw(
        st.sampled_from(
            ["{N.__init__.__globals__}", "{player:>999999999}", "{", "{player!r}", "{player}"]
        )
    )


def box(draw: st.DrawFn, d: dict[str, Any], rid: str) -> None:
    """Lupusburg's box: its bag, draws, rounds and points."""
    numbers = d.setdefault("lupusburg", {})
    key = draw(
        st.sampled_from(["bag", "coins_drawn", "token_rounds", "suspects", "points_per_chest"])
    )
    if key == "bag":
        numbers[key] = draw(st.sampled_from([[], [1], [0] * 8, [10**9] * 8, [-1] * 8, [2] * 3]))
    else:
        numbers[key] = draw(ODD)


@st.composite
def mutants(draw: st.DrawFn, bases: list[str], mutations: list[Any]) -> dict[str, Any]:
    rid = draw(st.sampled_from(bases))
    d = copy.deepcopy(BASES[rid])
    for mutate in draw(st.lists(st.sampled_from(mutations), min_size=1, max_size=4)):
        if not d.get("roles") or not d.get("factions"):
            break
        d = mutate(draw, d, rid) or d
    return d


VILLAGE = [rid for rid in sorted(BASES) if BASES[rid].get("family", "village") == "village"]
KINDS = {
    # How a game ends: its nights, days and win rules.
    "the end": (VILLAGE, [step_list, step_list, wins, wins, mechanics]),
    # Lupusburg's own steps, sides, characters, deck and box.
    "lupusburg": (["lupusburg"], [step_list, factions, roles, compositions, box, box, wins]),
    # Numbers and decks.
    "counts": (VILLAGE, [counts, counts, compositions, roles]),
    # Options: odd defaults, another type, gone.
    "options": (VILLAGE, [options]),
    # Names: factions, roles, tags, messages.
    "names": (sorted(BASES), [factions, roles, mechanics, texts, wins]),
}


def played(book: lupus.Rulebook) -> list[int]:
    """The table sizes to play: those the rulebook recommends (or deals one deck to)."""
    family = family_of(book)
    sizes = sorted(int(n) for n in book.compositions)
    if not sizes and family.fixed_deck(book.min_players) is not None:
        sizes = [book.min_players, book.max_players]
    return sizes


@pytest.mark.parametrize("kind", sorted(KINDS))
@settings(max_examples=30 * SCALE, **PROFILE)
@given(draws=st.data(), seed=st.integers(0, 2**16))
def test_a_rulebook_that_loads_can_be_played(kind: str, draws: st.DataObject, seed: int) -> None:
    bases, mutations = KINDS[kind]
    data = draws.draw(mutants(bases, mutations))
    try:
        book = check(from_data(json.loads(json.dumps(data)), "house.toml"))
    except lupus.RulebookError as exc:
        reason = str(exc)
        assert reason and "\n" not in reason and len(reason) <= 2000, reason
        event("refused")
        return
    event("loaded")
    sizes = played(book)
    finished = 0
    for index, n in enumerate(sizes[:1] + sizes[len(sizes) // 2 :][:1]):
        counts = book.compositions.get(str(n)) or family_of(book).fixed_deck(n) or {}
        # (a table below the rulebook's minimum plays under the house rule that lifts it)
        lift = house_rules(book, n, counts)
        table = Table(SimConfig(book, n, dict(counts), options=lift, seed=seed))
        game, actions = play(table, index, MOST_ACTIONS)
        finished += game.finished
        assert game.finished or actions == MOST_ACTIONS
        assert lupus.narrate(game.view(LEADER))
        again = sc.replay(sc.parse(json.loads(json.dumps(game.to_scenario()))))
        assert again.error_index is None, again.error_message
        assert again.game.events == game.events
    # A game may stop at the bound (a stalemate the rules allow, as in the simulator),
    # but a rulebook none of whose games ends is one that could never end.
    assert finished or not sizes, "no game of this rulebook ended"
    event("every game ended" if finished == min(2, len(sizes)) else "a game stopped")


@pytest.mark.parametrize(
    ("base", "edit", "reason"),
    [
        # The examples of issue 22, refused when loaded.
        ("werewolf", {"night": {"first": ["thief"], "later": ["thief"]}, "day": []}, "never end"),
        ("werewolf", {"mechanics": {"starvation_winner": "nobody"}}, "starvation_winner"),
        ("lupusburg", {"lupusburg": {"bag": []}}, "lupusburg.bag"),
        ("lupusburg", {"lupusburg": {"bag": [8, 7, 6]}}, "lupusburg.bag"),
        ("lupusburg", {"lupusburg": {"token_rounds": 10**9}}, "token_rounds"),
        ("werewolf", {"night": {"later": []}, "day": ["election"]}, "never end"),
        ("maffia", {"win": []}, "win"),
        ("mafia-classic", {"win": [{"faction": "mafia", "when": "at_least_half"}]}, "win"),
        ("werewolf", {"compositions": {"8": {"werewolf": 2, "villager": 5}}}, "compositions.8"),
        ("werewolf", {"compositions": {"8": {"werewolf": 10**18}}}, "compositions.8"),
        ("werewolf", {"compositions": {"2": {"werewolf": 1, "villager": 1}}}, "compositions.2"),
        ("werewolf", {"mechanics": {"pack_tag": "nothing"}}, "pack_tag"),
        ("werewolf", {"max_players": 10**9}, "max_players"),
        ("mafia-classic", {"day": [], "night": {"later": ["banishment"]}}, "night.later"),
        ("werewolf", {"talk": ["vote", "nap"]}, "talk: unknown step"),
        ("tit-albert", {"options": {"little_girl_catch_chance": None}}, "little_girl_catch_chance"),
        ("tit-albert", {"options": {"quick": {"type": "int", "default": 1}}}, "options.quick"),
        ("werewolf", {"text": {"en": {"night": "{N.__init__.__globals__}"}}}, "text.en.night"),
        ("werewolf", {"text": {"en": {"night": "{player:>999999999}"}}}, "text.en.night"),
        ("werewolf", {"table": {"taps": {"vote": 2}}}, "table.taps"),
        ("werewolf", {"table": {"taps": {"witch": 9}}}, "table.taps.witch"),
    ],
)
def test_rulebooks_that_could_not_be_played_are_refused_with_the_reason(
    base: str, edit: dict[str, Any], reason: str
) -> None:
    data = copy.deepcopy(BASES[base])
    for key, value in edit.items():
        if isinstance(value, dict) and isinstance(data.get(key), dict):
            for inner, item in value.items():
                if item is None:
                    data[key].pop(inner, None)
                else:
                    data[key][inner] = item
        else:
            data[key] = value
    with pytest.raises(lupus.RulebookError, match=reason.replace(".", r"\.")) as refused:
        check(from_data(data, "house.toml"))
    assert "\n" not in str(refused.value)


def test_the_shipped_rulebooks_load() -> None:
    for rid in BASES:
        assert check(from_data(copy.deepcopy(BASES[rid]))).digest == lupus.load(rid).digest
