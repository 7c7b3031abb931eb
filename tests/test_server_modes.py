"""Every kind of room holds: a room's mode for every command, and a room of bots alone
finishes in every rulebook, with or without timers.

The bots' tables are driven in-process (a fake clock, as in tests/test_server_rooms.py:
hundreds of games in seconds), then one table per rulebook over the wire against a
real server; the game-leader room's refusals over the wire.
"""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from tests.server_harness import Server, players, running
from tests.test_server_protocol import accepted, refused, sync
from tests.test_server_rooms import Clock, hub_with, settings

from lupus.engine.game import Game
from lupus.families import load
from lupus.rulebooks import available
from lupus.village.family import house_rules


def table_sizes(rules: str) -> list[int]:
    """The smallest, a middle and the largest table the rulebook recommends a deck for,
    up to 20 players (a deck for every size up to 40 would make this test slow, and a
    table of 40 bots tests nothing more here than one of 20)."""
    sizes = sorted(int(size) for size in load(rules).compositions if int(size) <= 20)
    return sorted({sizes[0], sizes[len(sizes) // 2], sizes[-1]})


def lifted(rules: str, players: int) -> dict[str, Any]:
    """The house rule a table this small plays under (werewolf under 8), or none."""
    book = load(rules)
    return house_rules(book, players, book.compositions[str(players)])


def ended(clock: Clock, game: Game) -> None:
    """Run the room's scheduled calls until its game is over or nothing is left to run."""
    clock.run(lambda: game.finished or not clock.calls)


# Timers that leave some steps to the room: none at all, a night timer only (the
# day's open-ended steps have none), a timer of one day step only.
TIMERS: list[dict[str, Any]] = [{}, {"night": 30.0}, {"day": 45.0}]


@pytest.mark.parametrize("rules", available())
def test_a_room_of_bots_alone_finishes_in_every_rulebook(rules: str) -> None:
    """No person is seated: the room closes every step nobody can move on (a maffia
    nominations round everyone has answered, a pack that cannot agree) unless that
    step has a timer, which then closes it. Before the fix, a room without timers had
    an empty ``steps`` table counted as a timer, and a maffia table of bots never left
    its first day."""
    for players_count in table_sizes(rules):
        for timers in TIMERS:
            for seed in range(2):
                hub, clock = hub_with()
                lift = lifted(rules, players_count)
                room, _, seat = hub.create(
                    settings(
                        rules=rules, players=players_count, seed=seed, timers=timers, options=lift
                    )
                )
                assert seat is None  # the host has no seat: bots alone
                room.start("heuristic")
                game = room.game
                assert game is not None
                ended(clock, game)
                assert game.finished, (rules, players_count, timers, seed, game.phase, game.number)
                assert room.status == "finished"


def test_a_step_with_its_own_timer_is_left_to_it() -> None:
    """A maffia day whose nominations have a timer: the room does not close them (the
    timer does, after its full time)."""
    hub, clock = hub_with()
    room, _, _ = hub.create(
        settings(rules="maffia", players=6, seed=1, timers={"steps": {"nominations": 40.0}})
    )
    room.start("heuristic")
    game = room.game
    assert game is not None
    shown = ("nominations", None)
    clock.run(lambda: (getattr(game.step, "id", None), room.pacer.held) == shown)
    opened = clock.now
    step = game.step
    clock.run(lambda: not game.waiting())  # (the bots' nominations come over the day)
    assert game.step is step and clock.now - opened < 40.0
    clock.run(lambda: game.step is not step)
    assert clock.now - opened == pytest.approx(40.0, abs=1.0)


@pytest.fixture(scope="module")
def server(store_kind: str, tmp_path_factory: pytest.TempPathFactory) -> Any:
    with running(tmp_path_factory.mktemp("modes") / "lupus.db") as started:
        yield started


@pytest.mark.parametrize("rules", available())
def test_bots_alone_finish_over_the_wire(server: Server, rules: str) -> None:
    """A host without a seat fills the table with bots and watches: the game ends."""
    size = table_sizes(rules)[0]
    lift = lifted(rules, size)
    created = server.create(rules=rules, players=size, bot_delay=0, pace=0, options=lift)

    async def test() -> None:
        async with players(server, 1) as (host,):
            await host.rejoin(created["room"], created["host_token"])
            await accepted(host, {"type": "start", "fill": "random"})
            while host.view is None or not host.view["finished"]:
                await host.receive(30)
            assert host.events[-1]["kind"] == "game_over"

    asyncio.run(test())


def test_nobody_joins_a_game_leaders_table_even_a_freed_seat(server: Server) -> None:
    """A game leader's seats are named at creation and have no devices: a stranger's
    ``join`` is refused before and after the leader frees a seat with ``kick``."""
    names = ["Ann", "Bob", "Cy", "Dee"]
    created = server.create(rules="maffia", players=4, mode="leader", names=names, pace=0)
    room = created["room"]

    async def test() -> None:
        async with players(server, 2) as (leader, eve):
            await leader.rejoin(room, created["host_token"])
            await refused(eve, {"type": "join", "room": room, "name": "Eve"}, "room_full")
            await accepted(leader, {"type": "kick", "seat": 2})
            await sync(leader)
            assert leader.lobby is not None and leader.lobby["seats"][2] is None
            reply = await refused(eve, {"type": "join", "room": room, "name": "Eve"}, "room_full")
            assert "leader" in reply["message"]
            seats = httpx.get(f"{server.http}/api/rooms/{room}", timeout=10).json()["seats"]
            assert [seat and seat["name"] for seat in seats] == ["Ann", "Bob", None, "Dee"]

    asyncio.run(test())
