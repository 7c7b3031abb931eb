"""The public API: every name of ``lupus.__all__`` imports from ``lupus`` itself, and
docs/architecture.md lists each one in "The public API"."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import lupus

ARCHITECTURE = Path(__file__).resolve().parents[1] / "docs" / "architecture.md"


def api_section() -> str:
    text = ARCHITECTURE.read_text("utf-8")
    found = re.search(r"^## The public API\n(.*?)(?=^## )", text, re.S | re.M)
    assert found is not None, "docs/architecture.md has no section 'The public API'"
    return found.group(1)


@pytest.mark.parametrize("name", lupus.__all__)
def test_every_name_imports_from_lupus(name: str) -> None:
    namespace: dict[str, object] = {}
    exec(f"from lupus import {name}", namespace)
    assert namespace[name] is getattr(lupus, name)


def test_star_import_gives_all_and_names_are_unique() -> None:
    assert len(set(lupus.__all__)) == len(lupus.__all__)
    namespace: dict[str, object] = {}
    exec("from lupus import *", namespace)
    assert set(lupus.__all__) <= set(namespace)


@pytest.mark.parametrize("name", lupus.__all__)
def test_the_docs_list_every_name(name: str) -> None:
    assert re.search(rf"`{re.escape(name)}[`(]", api_section()), f"{name} is not documented"


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError):
        lupus.no_such_thing  # noqa: B018


def test_import_lupus_loads_the_engine_only() -> None:
    """Narration and scenario files load on first use, not with ``import lupus``."""
    code = (
        "import sys, lupus; "
        "print(' '.join(m for m in ('lupus.narration', 'lupus.scenario', 'lupus.cli') "
        "if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_the_api_plays_a_game() -> None:
    """The README's example, through ``lupus`` alone, down to the scenario record."""
    from lupus import LEADER, Action, IllegalAction, new_game, scenario

    players = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]
    roles = ["werewolf", "seer", "werewolf"] + ["villager"] * 5
    game = new_game("werewolf", players, roles, seed=1)
    with pytest.raises(IllegalAction):
        game.apply(Action(0, "inspect", (1,)))
    game.apply(Action(1, "inspect", (0,)))
    assert game.view(1).known_roles() == {1: "seer", 0: "werewolf"}
    assert len(game.view(LEADER).events) == len(game.events)
    again = scenario.replay(scenario.parse(game.to_scenario())).game
    assert again.events == game.events
