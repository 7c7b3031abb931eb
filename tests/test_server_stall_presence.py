"""Presence in-process, on a clock the test moves: host powers pass on exactly when
their holder has been gone for ``host_grace``, and a person's absence follows only
what everyone may know.

- The holder gone: nothing changes before the grace, the next connected person in
  seat order holds the powers at the grace; a holder who comes back in time keeps
  them.
- Absence never tells a role: a person who lets public steps run out is away at the
  second; a night step that runs out without him counts for nothing, and his
  decision (or chat line) in a night step does not give his seat back (the table
  would learn he had one), while his decision by day does, at once.
- What the room stores keeps who holds the powers and who is away (a restart).
"""

from __future__ import annotations

from typing import Any

from tests.fake_clock import Clock
from tests.test_server_pacing import Conn, hub_with

from lupus.server.hub import Hub
from lupus.server.limits import ServerLimits
from lupus.server.rooms import Room
from lupus.server.settings import RoomSettings
from lupus.server.store_sqlite import SQLiteStore

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus")


def advance(clock: Clock, seconds: float) -> None:
    """Run everything due in the next ``seconds``, and no more."""
    target = clock.now + seconds
    clock.schedule(seconds, lambda: None)
    clock.run(lambda: clock.now >= target)


TOKENS: dict[Conn, str] = {}
"""Each connection's token (as its client keeps it)."""


def people_room(hub: Hub, players: int, **given: Any) -> tuple[Room, list[Conn]]:
    """A room of people, a connection each (its token in ``TOKENS``)."""
    base: dict[str, Any] = {"rules": "mafia-classic", "players": players, "host_name": "Ann"}
    room, token, _ = hub.create(RoomSettings.model_validate({**base, **given}))
    host = Conn(hub)
    assert host.answer({"type": "rejoin", "room": room.code, "token": token})["type"] == "welcome"
    TOKENS[host] = token
    conns = [host]
    for name in NAMES[1:players]:
        conn = Conn(hub)
        welcome = conn.answer({"type": "join", "room": room.code, "name": name})
        TOKENS[conn] = welcome["token"]
        conns.append(conn)
    return room, conns


def rejoin(hub: Hub, room: Room, token: str) -> Conn:
    conn = Conn(hub)
    assert conn.answer({"type": "rejoin", "room": room.code, "token": token})["type"] == "welcome"
    return conn


def test_host_powers_pass_exactly_at_the_grace() -> None:
    clock = Clock()
    hub = hub_with(clock)
    grace = ServerLimits().host_grace
    room, (ann, bob, cy, dee) = people_room(hub, 4)
    hub.leave(bob.client)  # (Bob is gone: the powers skip his seat)
    hub.leave(ann.client)
    advance(clock, grace - 0.01)
    assert room.host_seat == 0
    cy.read()
    advance(clock, 0.01)
    assert room.host_seat == 2 and cy.client.host and not dee.client.host
    assert [f["host_seat"] for f in cy.read() if f["type"] == "lobby"] == [2]
    # Cy goes, and comes back before the grace: she keeps them.
    hub.leave(cy.client)
    advance(clock, grace - 0.01)
    again = rejoin(hub, room, TOKENS[cy])
    assert again.client.host
    advance(clock, grace)
    assert room.host_seat == 2
    # Ann is back: not the holder any more; and when Cy goes for good, the next one
    # after Cy's seat holds them (Dee), not the first host.
    ann = rejoin(hub, room, TOKENS[ann])
    assert not ann.client.host
    hub.leave(again.client)
    advance(clock, grace)
    assert room.host_seat == 3 and dee.client.host and not ann.client.host


def test_absence_follows_public_steps_only() -> None:
    clock = Clock()
    hub = hub_with(clock)
    room, conns = people_room(
        hub,
        5,
        seed=3,
        bot_delay=1.0,
        timers={"night": 5.0, "day": 5.0},
        options={"first_phase": "day"},
    )
    host = conns[0]
    assert host.answer({"type": "start"})["type"] == "ack"
    game = room.game
    assert game is not None
    mafia = next(seat for seat, role in enumerate(game.roles) if role == "mafia")
    # Day 1's lynch runs out: one public step missed, nobody away yet.
    clock.run(lambda: game.phase == "night")
    assert not any(seat is not None and seat.away for seat in room.seats)
    # Night 1's mafia step runs out without the mafia's decision: it counts for nothing.
    clock.run(lambda: game.phase == "day" and game.number == 2)
    assert room.presence.missed.get(mafia) == 1
    # Day 2's lynch runs out: everyone is away, a bot plays each seat.
    clock.run(lambda: game.phase == "night")
    assert all(seat is not None and seat.away and seat.bot for seat in room.seats)
    # Night 2: the mafia decides before his bot does; his seat stays away, and nobody
    # is told anything of his decision (no lobby, no seat back).
    me = conns[mafia]
    clock.run(lambda: bool(me.read() or True) and bool(me.view and me.view["waiting"]))
    for conn in conns:
        conn.read()
    view = me.view
    assert view is not None
    kill = next(p for p in view["prompts"] if p["verb"] == "kill")
    act = {"type": "act", "verb": "kill", "args": kill["choices"][0]["args"]}
    assert me.answer({**act, "state_id": view["state_id"]})["type"] == "ack"
    me.answer({"type": "chat", "text": "the pack says hi"})
    seat = room.seats[mafia]
    assert seat is not None and seat.away and seat.bot == "heuristic"
    for conn in conns:
        assert not [f for f in conn.read() if f["type"] == "lobby"]

    # Day 3: his own vote gives his seat back at once, and everyone's lobby says so.
    def day_three() -> bool:
        me.read()
        shown = me.view
        return shown is not None and (shown["phase"], shown["number"]) == ("day", 3)

    clock.run(day_three)
    view = me.view
    assert view is not None and view["waiting"], view
    vote = next(p for p in view["prompts"] if p["verb"] in ("vote", "lynch"))
    act = {"type": "act", "verb": vote["verb"], "args": vote["choices"][0]["args"]}
    assert me.answer({**act, "state_id": view["state_id"]})["type"] == "ack"
    seat = room.seats[mafia]
    assert seat is not None and not seat.away and seat.bot is None
    other = conns[(mafia + 1) % 5]
    lobbies = [f for f in other.read() if f["type"] == "lobby"]
    assert lobbies and lobbies[-1]["seats"][mafia]["away"] is False


def test_the_hosts_hand_over_decides_an_away_seat() -> None:
    clock = Clock()
    hub = hub_with(clock)
    room, conns = people_room(hub, 3, bot_delay=1.0, timers={"night": 60.0, "day": 60.0})
    assert conns[0].answer({"type": "start"})["type"] == "ack"
    hub.leave(conns[2].client)
    advance(clock, ServerLimits().absent_grace)
    seat = room.seats[2]
    assert seat is not None and seat.away and seat.bot == "heuristic"
    assert conns[0].answer({"type": "hand_over", "seat": 2, "kind": "random"})["type"] == "ack"
    assert not seat.away and seat.bot == "random"
    rejoin(hub, room, TOKENS[conns[2]])
    assert not seat.away and seat.bot == "random"  # (his return does not undo it)
    assert conns[0].answer({"type": "hand_over", "seat": 2, "kind": None})["type"] == "ack"
    assert not seat.away and seat.bot is None


def test_a_restart_keeps_the_holder_and_the_absent() -> None:
    clock = Clock()
    store = SQLiteStore(":memory:")
    hub = hub_with(clock, store)
    room, conns = people_room(hub, 3, bot_delay=1.0, timers={"night": 60.0, "day": 60.0})
    assert conns[0].answer({"type": "pass_host", "seat": 1})["type"] == "ack"
    assert conns[0].answer({"type": "start"})["code"] == "not_host"
    assert conns[1].answer({"type": "start"})["type"] == "ack"
    hub.leave(conns[2].client)
    advance(clock, ServerLimits().absent_grace)
    again = hub_with(clock, store)
    assert again.restore() == 1
    restored = again.rooms[room.code]
    assert restored.host_seat == 1 and restored.host_token == room.host_token
    seat = restored.seats[2]
    assert seat is not None and seat.away and seat.bot == "heuristic"
