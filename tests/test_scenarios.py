"""Every scenario file under tests/scenarios replays to exactly what its `expect` says.

`expect` holds any subset of the `lupus replay --json` keys; each given key must match.
Two more keys check what a player was told (docs/scenarios.md): `seen` maps a viewer
(a player's name, or `leader` for everything) to events that his view must show, in
that order (other events may come between), and `unseen` to events it must not show.
An event is given by its `kind` and any of its fields, players by name (Lupusburg's
houses as `Ann.1`), and `without`: fields it must not have. These files are the rule
tests: one (or more) per rule of the seeds.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from lupus import scenario as sc
from lupus.engine.game import Game
from lupus.engine.model import LEADER, Event
from lupus.families import event_specs

ROOT = Path(__file__).parent / "scenarios"
FILES = sorted(ROOT.rglob("*.json"))
TOLD = ("seen", "unseen")


def test_there_are_scenarios() -> None:
    assert len(FILES) > 0


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_scenario(path: Path) -> None:
    scenario = sc.read(path)
    assert scenario.expect, f"{path.name} has no expect block"
    replayed = sc.replay(scenario)
    result = sc.summary(replayed)
    for key, wanted in scenario.expect.items():
        if key == "error_message_contains":
            error = result["error"]
            assert isinstance(error, dict), f"{path.name}: expected an error, got none"
            assert wanted in error["message"], error["message"]
            continue
        if key in TOLD:
            check_told(path.name, replayed.game, key, wanted)
            continue
        assert key in result, f"{path.name}: unknown expect key {key!r}"
        assert result[key] == wanted, (
            f"{path.name}: {key} is {json.dumps(result[key])}, expected {json.dumps(wanted)}"
        )


def check_told(name: str, game: Game, key: str, wanted: Mapping[str, Any]) -> None:
    """``seen``: each viewer's view shows these events, in this order; ``unseen``: none
    of them."""
    for viewer, matchers in wanted.items():
        seat = LEADER if viewer == "leader" else game.names.index(viewer)
        told = [named(game, ev) for ev in game.view(seat).events]
        if key == "seen":
            missing = first_missing(told, matchers)
            assert missing is None, (
                f"{name}: {viewer} was not told {json.dumps(missing)} (in this order); "
                f"told: {json.dumps(told)}"
            )
        else:
            for matcher in matchers:
                shown = [t for t in told if matches(t, matcher)]
                assert not shown, f"{name}: {viewer} was told {json.dumps(shown[0])}"


def first_missing(
    told: Sequence[dict[str, Any]], matchers: Sequence[dict[str, Any]]
) -> dict[str, Any] | None:
    """The first matcher not found after the events the earlier ones matched."""
    at = 0
    for matcher in matchers:
        while at < len(told) and not matches(told[at], matcher):
            at += 1
        if at == len(told):
            return matcher
        at += 1
    return None


def matches(told: Mapping[str, Any], matcher: Mapping[str, Any]) -> bool:
    """The event has the matcher's fields with these values, and none of the fields
    its ``without`` lists."""
    return all(
        all(field not in told for field in value)
        if key == "without"
        else key in told and told[key] == value
        for key, value in matcher.items()
    )


def named(game: Game, ev: Event) -> dict[str, Any]:
    """An event as a scenario names it: its kind and fields, seats as players' names
    and houses as ``Ann.1``, mappings' keys too (as JSON has them)."""
    tags = event_specs(game.rulebook)[ev.kind].fields
    out: dict[str, Any] = {"kind": ev.kind}
    for field, value in ev.data.items():
        out[field] = by_name(game, tags.get(field, ""), value)
    return out


def by_name(game: Game, tag: str, value: Any) -> Any:
    def seat(s: Any) -> Any:
        return game.names[s] if isinstance(s, int) and not isinstance(s, bool) else s

    def house(h: Any) -> Any:
        return game.house_name(h) if isinstance(h, int) and not isinstance(h, bool) else h

    if value is None:
        return None
    if tag in ("seat", "seat_or_none"):
        return seat(value)
    if tag in ("seats", "seats_or_none"):
        return [seat(s) for s in value]
    if tag == "house":
        return house(value)
    if tag == "houses":
        return [house(h) for h in value]
    if tag.startswith("seat_"):
        return {seat(k): plain(v) for k, v in value.items()}
    if tag.startswith("house_"):
        return {house(k): plain(v) for k, v in value.items()}
    return plain(value)


def plain(value: Any) -> Any:
    """Tuples as lists and read-only mappings as dicts, as JSON reads them."""
    if isinstance(value, Mapping):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value
