"""The rooms' logic in-process: a fake clock and a scheduler the test runs by hand.

The wire is tested elsewhere (tests/test_server_*.py against a real server); here the
decisions a room takes are driven step by step: expiry, a seat handed to a bot and
back, a store that fails, a room restored from its store, a game leader's table.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from tests.fake_clock import Clock

from lupus.engine.model import LEADER
from lupus.server.app import write
from lupus.server.clients import Client
from lupus.server.hub import Hub
from lupus.server.protocol import ProtocolError
from lupus.server.settings import RoomSettings
from lupus.server.store_sqlite import SQLiteStore


def hub_with(store: SQLiteStore | None = None) -> tuple[Hub, Clock]:
    clock = Clock()
    return Hub(store or SQLiteStore(":memory:"), clock.schedule, clock, clock), clock


def settings(**given: Any) -> RoomSettings:
    base: dict[str, Any] = {
        "rules": "werewolf",
        "players": 8,
        "bot_delay": 0.5,
        "pace": 1.0,
        "timers": "off",
    }
    return RoomSettings.model_validate({**base, **given})


def test_an_unused_room_expires_and_a_used_one_stays() -> None:
    hub, clock = hub_with()
    idle, _, _ = hub.create(settings(expire_after=60))
    busy, _, _ = hub.create(settings(expire_after=60))
    busy.clients.add(Client())
    clock.now += 61
    hub.sweep()
    assert idle.code not in hub.rooms and busy.code in hub.rooms
    assert idle.code not in {r.code for r in hub.store.open_rooms()}


def test_a_seat_handed_to_a_bot_plays_on_and_comes_back() -> None:
    hub, clock = hub_with()
    room, _, seat = hub.create(settings(host_name="Ann", seed=3))
    assert seat == 0
    room.start("heuristic")
    game = room.game
    assert game is not None
    clock.run(lambda: (room.pacer.held is None and 0 in game.waiting()) or game.finished)
    if game.finished:
        pytest.skip("the game ended before Ann was asked anything")
    room.hand_over(0, "random")  # Ann's phone died: a bot plays for her
    clock.run(lambda: game.finished or len(game.history) > 40)
    assert any(action.actor == 0 for action in game.history)
    room.hand_over(0, None)  # she is back
    assert room.seats[0] is not None and room.seats[0].bot is None


def test_a_store_that_fails_changes_nothing() -> None:
    class Failing(SQLiteStore):
        fail = False

        def append_action(
            self, game_id: str, index: int, action: list[object], by: str | None = None
        ) -> None:
            if self.fail:
                raise OSError("disk full")
            super().append_action(game_id, index, action, by)

    store = Failing(":memory:")
    hub, clock = hub_with(store)
    room, _, _ = hub.create(settings(host_name="Ann", seed=5))
    room.start("heuristic")
    game = room.game
    assert game is not None
    clock.run(lambda: room.pacer.held is None and 0 in game.waiting())
    before = [*game.history]
    view = game.view(0)
    store.fail = True
    prompt = view.prompts[0]
    with pytest.raises(ProtocolError) as refused:
        room.submit(0, prompt.verb, list(prompt.choices[0]), view.state_id)
    assert refused.value.code == "internal"
    assert room.game is not None and room.game.history == before
    assert room.game.view(0).state_id == view.state_id


def test_a_room_restored_from_its_store_is_the_same_game() -> None:
    store = SQLiteStore(":memory:")
    hub, clock = hub_with(store)
    room, _, _ = hub.create(settings(host_name="Ann", seed=11))
    room.start("heuristic")
    game = room.game
    assert game is not None
    clock.run(lambda: len(game.history) >= 10 or game.finished)
    again, _ = hub_with(store)
    assert again.restore() == 1
    restored = again.rooms[room.code]
    assert restored.game is not None
    assert restored.game.history == game.history
    assert restored.game.view(LEADER).events == game.view(LEADER).events
    assert [s and s.name for s in restored.seats] == [s and s.name for s in room.seats]


def test_a_game_leader_submits_the_tables_choices() -> None:
    hub, _ = hub_with()
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
    room, token, seat = hub.create(settings(mode="leader", names=names, seed=2))
    assert seat is None and room.seat_of(token) == LEADER
    room.start()
    game = room.game
    assert game is not None
    while not game.finished and len(game.history) < 30:
        waiting = game.first_waiting()
        if waiting is None:
            room.close_step()
            continue
        prompt = game.view(waiting).prompts[0]
        room.submit(waiting, prompt.verb, list(prompt.choices[0]), game.view(waiting).state_id)
    assert game.history and all(0 <= a.actor < 8 or a.actor == LEADER for a in game.history)
    assert room.pacer.pace == 0.0  # a leader with cards keeps his own time


def test_moves_owed_in_the_last_game_come_to_nothing() -> None:
    """ "Play again" before the bots' moves of the last game were due: those moves and
    closes do nothing in the new game (each bot moves once, for the game it is in)."""
    hub, clock = hub_with()
    room, _, _ = hub.create(settings(seed=5, pace=0))
    room.start("random")
    first = room.game
    assert first is not None
    clock.run(lambda: first.finished)
    stale = room.bots.game  # (the first game's bots)
    room.again()  # (back to the lobby: issue 25)
    assert room.game is None and room.status == "lobby"
    room.start()
    second = room.game
    assert second is not None and second is not first
    # A move and a close scheduled for the first game, due now.
    before = len(second.history)
    room.bots.move(next(iter(second.waiting()), 0), stale)
    room.bots.close(second.state_id, stale)
    assert len(second.history) == before
    clock.run(lambda: second.finished)
    assert second.finished


def test_a_client_that_falls_behind_is_dropped_with_what_it_was_not_sent() -> None:
    """The outbox holds every frame not sent yet; over its limit, the client is closed
    and none of them is sent (it will rejoin and be sent its whole view)."""
    client = Client()
    client.outbox.limit = 3
    for n in range(3):
        client.push(f'{{"n": {n}}}')
    assert list(client.outbox.frames) == ['{"n": 0}', '{"n": 1}', '{"n": 2}']
    client.push('{"n": 3}')  # one too many
    assert client.closed and not client.outbox.frames and client.outbox.ended
    client.push('{"n": 4}')  # after the close: nothing
    assert not client.outbox.frames


def test_a_writer_sends_its_outbox_in_order_then_closes() -> None:
    """``app.write``: every frame in the order pushed, several at a wake-up, then the
    socket closed once the client is."""

    class Socket:
        closed = False

        async def close(self) -> None:
            self.closed = True

    async def play() -> tuple[list[object], bool]:
        client, socket, sent = Client(), Socket(), []

        async def send(message: dict[str, object]) -> None:
            sent.append(message["text"])
            await asyncio.sleep(0)  # (a write that lets the loop run)

        task = asyncio.create_task(write(socket, send, client))
        for n in range(5):
            client.push(str(n))
            if n == 2:
                await asyncio.sleep(0)
        client.close()  # the writer sends what is left, then closes
        await asyncio.wait_for(task, 1.0)
        return sent, socket.closed

    assert asyncio.run(play()) == (["0", "1", "2", "3", "4"], True)
