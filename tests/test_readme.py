"""The README stays true: its two commands and its Python example."""

from __future__ import annotations

import re
from pathlib import Path

README = (Path(__file__).resolve().parents[1] / "README.md").read_text("utf-8")
CI = (Path(__file__).resolve().parents[1] / ".ci" / "run").read_text("utf-8")


def test_readme_starts_with_exactly_two_commands() -> None:
    block = re.search(r"```sh\n(.*?)```", README, re.S)
    assert block is not None
    commands = [line for line in block.group(1).splitlines() if line.strip()]
    assert commands == [
        "pip install . && lupus serve",
        "pip install -e '.[test]' && python -m pytest",
    ]


def test_serve_explains_every_flag() -> None:
    """The main job's command: ``lupus serve --help`` names and explains each flag."""
    from typer.testing import CliRunner

    from lupus.cli import app

    shown = CliRunner().invoke(app, ["serve", "--help"], env={"COLUMNS": "200"}).output
    for flag in ("--host", "--port", "--database", "--log-level"):
        assert flag in shown
    assert "SQLite file" in shown and "Address to listen on" in shown


def test_ci_runs_the_readme_test_command() -> None:
    assert "pip install -e '.[test]' && python -m pytest" in CI


def test_python_example_runs() -> None:
    block = re.search(r"```python\n(.*?)```", README, re.S)
    assert block is not None
    namespace: dict[str, object] = {}
    exec(compile(block.group(1), "README.md", "exec"), namespace)
    game = namespace["game"]
    view = game.view(1)  # type: ignore[attr-defined]
    assert view.known_roles() == {1: "seer", 0: "werewolf"}


def test_the_scenario_example_of_the_docs_replays_as_told() -> None:
    """docs/scenarios.md's small example is a real scenario: Eve's shot wins the game."""
    import json

    from lupus import scenario as sc

    docs = (Path(__file__).resolve().parents[1] / "docs" / "scenarios.md").read_text("utf-8")
    example = docs[docs.index("## A small example") :]
    block = re.search(r"```json\n(.*?)```", example, re.S)
    assert block is not None
    result = sc.summary(sc.replay(sc.parse(json.loads(block.group(1)))))
    assert result["error"] is None
    assert result["winner"] == "villagers" and result["alive"] == ["Bob", "Cid", "Dee"]
