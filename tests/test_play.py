"""`lupus play` driven through stdin, as a person at the terminal would."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from lupus.cli import app

runner = CliRunner()


@pytest.mark.parametrize(
    ("rules", "players"),
    [("werewolf", 8), ("tit-albert", 7), ("maffia", 8), ("lupusburg", 5)],
)
def test_a_whole_game_through_stdin(rules: str, players: int) -> None:
    result = runner.invoke(
        app,
        ["play", "--rules", rules, "--players", str(players), "--seed", "5", "--seat", "2"],
        input="1\n" * 400,
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "You are P2" in out or "Du är P2" in out
    assert "«?»" not in out
    # The human reads his own view only: no line addressed to somebody else.
    assert "(to " not in out
    # Another player's card dealt privately never shows (only the reveals do).
    dealt = re.findall(r"^(P\d) (?:is dealt|hides)", out, flags=re.MULTILINE)
    assert set(dealt) <= {"P2"}


def test_bad_choices_are_asked_again() -> None:
    result = runner.invoke(
        app,
        ["play", "--players", "8", "--seed", "1", "--seat", "1"],
        input="zero\n99\n" + "1\n" * 400,
    )
    assert result.exit_code == 0
    assert "Please type a number" in result.output


def test_end_of_input_abandons_cleanly() -> None:
    result = runner.invoke(app, ["play", "--players", "8", "--seed", "2"], input="")
    assert result.exit_code == 0
    assert "Game abandoned" in result.output or "The game is over" in result.output


def test_bad_seat_is_refused() -> None:
    result = runner.invoke(app, ["play", "--players", "8", "--seat", "9"])
    assert result.exit_code == 1
