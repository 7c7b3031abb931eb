"""What a narrator says aloud (``EventSpec.told``, issue 25 item 2): one mark
per line of the story, public events only, every kind named one a family emits, and
the kinds a table hears in every rulebook (a phase, a card's wake, the deaths, the
end) said while each ballot is not."""

from __future__ import annotations

import pytest

from lupus.families import event_specs, load, told_kinds_of
from lupus.narration import SAY, STEP, Narrator
from lupus.sim.config import SimConfig
from lupus.sim.selfplay import play_one

TABLES = [("werewolf", 8), ("tit-albert", 8), ("maffia", 8), ("mafia-classic", 7), ("lupusburg", 6)]


SPOKEN = {**told_kinds_of(load("werewolf")), **told_kinds_of(load("lupusburg"))}


def test_every_spoken_kind_is_an_event_a_family_emits() -> None:
    known = set(event_specs(load("werewolf"))) | set(event_specs(load("lupusburg")))
    assert set(SPOKEN) <= known, sorted(set(SPOKEN) - known)
    assert set(SPOKEN.values()) == {SAY, STEP}
    # Never a single voter's choice: only what the table is told as a whole.
    for kind in ("ballot", "nomination", "withdrawal", "token", "ballot_cast", "bet"):
        assert kind not in SPOKEN
    # A role's own kinds are said as the role declares them (the Hunter's aim opens
    # a step of its own).
    assert SPOKEN["hunter_aims"] == STEP


@pytest.mark.parametrize(("rules", "players"), TABLES)
def test_one_mark_per_line_and_only_public_events_are_said(rules: str, players: int) -> None:
    heard: set[str] = set()
    for index in range(4):
        game, _ = play_one(SimConfig(rules, players, bots={"*": "heuristic"}, seed=index), index)
        for seat in (-1, 0):  # the leader's story (every event) and a seat's
            view = game.view(seat)
            narrator = Narrator(game.rulebook, game.names)
            marks: list[str | None] = []
            lines = narrator.story(view.events, view.seat, None, marks)
            assert len(marks) == len(lines)
            plain = Narrator(game.rulebook, game.names).story(view.events, view.seat)
            assert lines == plain  # (marking changes no line)
        view = game.public_view()
        marks = []
        lines = Narrator(game.rulebook, game.names).story(view.events, view.seat, None, marks)
        events = iter(view.events)
        for line, mark in zip(lines, marks, strict=True):
            if not line or line.startswith("== "):
                assert mark is None
                continue
            event = next(events)
            while event.kind == "pack":  # (told once: not in a spectator's view anyway)
                event = next(events)
            assert mark == SPOKEN.get(event.kind), (event.kind, line)
            if mark is not None:
                heard.add(event.kind)
        # The leader's story holds every private event too: none of them is said.
        leader = game.view(-1)
        every: list[str | None] = []
        Narrator(game.rulebook, game.names).story(leader.events, leader.seat, None, every)
        assert any(ev.audience is not None for ev in leader.events)
        public = [ev for ev in leader.events if ev.audience is None and ev.kind in SPOKEN]
        assert sum(mark is not None for mark in every) == len(public)
    expected = {"game_starts", "night", "wake", "dawn", "game_over"}
    assert expected <= heard, sorted(expected - heard)
    assert heard & {"death", "character_dies"}
