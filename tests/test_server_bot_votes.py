"""Bots that feel like players (issue 24): in a room, bots spread a day's ballots over
the discussion and do not vote as one block.

Rooms of heuristic bots, in-process on a clock the test moves (``tests/fake_clock.py``),
at the room's default ``bot_delay`` (1.5 s), watched by a spectator: each ballot and
nomination is public the moment it is cast, so the spectator's frames time it (a
frame's ``time`` is when its public events were shown).

- Most of a day's bot ballots come later than 5 s after dawn, and every day's are
  spread over 10 s at least (today's: all 1.5 s after dawn).
- On most days that leave a choice (three candidates or more), the bots do not cast
  80% or more of a round's ballots on one player.
- With a short ``bot_delay`` the same spread shrinks with it: a room of bots still plays
  its days in a moment.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest
from tests.fake_clock import Clock
from tests.test_server_pacing import Conn, hub_with

from lupus.server.settings import RoomSettings

Frame = dict[str, Any]
OPENS = ("vote_opens", "nominations_open", "banishment_opens")
CAST = ("ballot", "nomination")
TOGETHER = ("banishment_opens",)  # (maffia's banishment ballots are shown at its close)


@dataclass
class Round:
    """One public round of ballots, as a spectator saw it."""

    day: int
    dawn: float  # when the day's first event was shown
    opened: float  # when the round was
    candidates: int | None
    timed: bool  # its ballots are shown as they are cast
    cast: list[tuple[float, int | None]] = field(default_factory=list)  # (time, target)


def bots_room(seed: int, rules: str, players: int, bot_delay: float = 1.5) -> Conn:
    """A room of heuristic bots played to its end, watched by its host from no seat."""
    clock = Clock()
    hub = hub_with(clock)
    given = {"rules": rules, "players": players, "bot_delay": bot_delay, "seed": seed}
    room, token, _ = hub.create(RoomSettings.model_validate(given))
    host = Conn(hub)
    host.answer({"type": "rejoin", "room": room.code, "token": token})
    assert host.answer({"type": "start", "fill": "heuristic"})["type"] == "ack"
    game = room.game
    assert game is not None

    def over() -> bool:
        host.read()
        return game.finished and room.pacer.held is None

    clock.run(over, limit=1_000_000)
    return host


def rounds(host: Conn) -> list[Round]:
    found: list[Round] = []
    dawn: dict[int, float] = {}
    for frame in host.frames:
        if frame["type"] != "view":
            continue
        for event in frame["events"]:
            number = event["number"]
            if event["phase"] != "day":
                continue
            dawn.setdefault(number, frame["time"])
            if event["kind"] in OPENS:
                candidates = event["data"].get("candidates")
                count = None if candidates is None else len(candidates)
                timed = event["kind"] not in TOGETHER
                found.append(Round(number, dawn[number], frame["time"], count, timed))
            elif event["kind"] in CAST and found and found[-1].day == number:
                found[-1].cast.append((frame["time"], event["data"].get("target")))
    return [r for r in found if r.cast]


GAMES = [("werewolf", 8), ("tit-albert", 8), ("mafia-classic", 8), ("maffia", 8)]


@pytest.mark.parametrize(("rules", "players"), GAMES)
def test_bots_spread_their_ballots_and_do_not_vote_as_one_block(rules: str, players: int) -> None:
    later = total = 0
    spreads: list[float] = []
    blocks = chosen = 0
    for seed in range(8):
        played = rounds(bots_room(seed, rules, players))
        by_day: dict[tuple[int, int], list[float]] = {}
        for rnd in played:
            if rnd.timed:
                times = [t - rnd.dawn for t, _ in rnd.cast]
                by_day.setdefault((seed, rnd.day), []).extend(times)
            named = Counter(target for _, target in rnd.cast if target is not None)
            if named and (rnd.candidates is None or rnd.candidates >= 3):
                chosen += 1
                blocks += max(named.values()) >= 0.8 * len(rnd.cast)
        for times in by_day.values():
            later += sum(t > 5.0 for t in times)
            total += len(times)
            if len(times) >= 2:
                spreads.append(max(times) - min(times))
                assert sum(t > 5.0 for t in times) > len(times) / 2, (rules, times)
    assert total > 40 and later / total > 0.5, (later, total)
    assert spreads and min(spreads) >= 10.0, sorted(spreads)[:5]
    assert chosen > 10 and blocks < chosen / 2, (rules, blocks, chosen)


def test_a_short_bot_delay_shrinks_the_spread() -> None:
    """``bot_delay`` 0.05: every ballot within a second of its round's opening, and
    the ballots still one by one (never two at the same moment)."""
    for seed in range(4):
        for rnd in rounds(bots_room(seed, "werewolf", 8, bot_delay=0.05)):
            assert rnd.timed
            times = [t - rnd.opened for t, _ in rnd.cast]
            assert max(times) < 1.0, times
            assert len(set(times)) == len(times), times
