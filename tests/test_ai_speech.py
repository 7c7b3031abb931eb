"""A model seat's talk request: built from its view and the lines it may read only."""

from __future__ import annotations

import pytest

from lupus.ai.llm.prompt import decision
from lupus.ai.llm.speech import MAX_CHARS, cleaned, speech_messages
from lupus.ai.llm.talk import Line
from lupus.engine.game import Game
from lupus.engine.views import View
from lupus.sim.config import SimConfig
from lupus.sim.selfplay import Table, set_up


def first_view() -> tuple[Game, View]:
    table = Table(SimConfig(rules="werewolf", players=8, seed=3))
    game, _ = set_up(table, 0)
    seat = game.first_waiting()
    assert seat is not None
    return game, game.seen(seat)


def test_a_seat_hears_the_open_talk_and_its_own_pack_only() -> None:
    game, view = first_view()
    me = view.seat
    others = [s for s in range(game.n) if s != me]
    lines = [
        Line(others[0], "day", 1, "I trust nobody here."),
        Line(others[1], "pack", 1, "Take the quiet one tonight.", readers=(others[1], others[2])),
        Line(others[3], "pack", 1, "We go for the loud one.", readers=(others[3], me)),
    ]
    for user in (
        speech_messages(view, lines, "day")[1]["content"],
        decision(view, heard=lines).messages[1]["content"],
    ):
        assert f"{game.names[others[0]]}: I trust nobody here." in user
        assert "quiet one" not in user  # (a pack line for others only)
        assert f"{game.names[others[3]]}: We go for the loud one." in user
    silent = speech_messages(view, [], "pack")[1]["content"]
    assert "What the others said" not in silent and "only the pack hears you" in silent


def test_an_answer_is_cleaned_into_one_bounded_line() -> None:
    assert cleaned('  Ann:  "I saw   nothing.\n Really."  ', "Ann") == "I saw nothing. Really."
    assert cleaned("   ", "Ann") is None
    long = cleaned("word " * 200, "Ann")
    assert long is not None and len(long) <= MAX_CHARS + 1 and long.endswith("…")
    assert cleaned("a\x00b\x1bc", "Ann") == "abc"


def test_a_channel_must_be_known() -> None:
    _, view = first_view()
    with pytest.raises(ValueError, match="no channel"):
        speech_messages(view, [], "dead")
