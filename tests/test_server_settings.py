"""The host changes a room's settings in the lobby (``settings``, issue 24): its timers
(its own, none, or the rulebook's again), absent players' bots, the bots' delay and
spectators, over the wire against a real server.

- A change is shown at once in every client's ``lobby`` frame, and the next game plays
  with it: its first view's ``deadline`` is the new timer's (none with ``"off"``).
- ``"default"`` gives the rulebook's timers back, times ``timer_scale``.
- It is refused during a game (``started``), from anyone but the host (``not_host``),
  in a game leader's room for timers (``not_allowed``), and for a value a new room
  would be refused (the same code and words as ``POST /api/rooms``): nothing changes.
- It is kept: the store holds it, and a restarted server's lobby shows it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server_harness import RELAXED, Player, Server, ask, host_of

from lupus.families import load

ROOM: dict[str, Any] = {
    "rules": "mafia-classic",
    "players": 3,
    "host_name": "Ann",
    "pace": 0.0,
    "bot_delay": 0.0,
}
"""A small table (a day first, then the mafia's night) the host fills with bots that
wait for nothing."""

NAMES = ["Ann", "Bob", "Cy"]


@pytest.fixture(scope="module")
def server(store_kind: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    started = Server(tmp_path_factory.mktemp("settings") / "lupus.db").start()
    try:
        yield started
    finally:
        started.stop()


async def settings(player: Player, **fields: Any) -> dict[str, Any]:
    """A ``settings`` and its answer (the lobby it changed comes before it)."""
    return await ask(player, type="settings", **fields)


async def started(player: Player, **message: Any) -> dict[str, Any]:
    """A ``start`` or ``again`` acknowledged, and the new game's first view (its first
    step's): the first of another game than the one the player saw last."""
    seen = None if player.view is None else player.view["game"]
    reply = await ask(player, **message)
    assert reply["type"] == "ack", reply
    while player.view is None or player.view["game"] == seen:
        await player.receive()
    return player.view


def rulebook(rules: str, scale: float = 1.0) -> dict[str, Any]:
    spec = load(rules).timers
    return {
        "night": None if spec.night is None else round(spec.night * scale, 3),
        "day": None if spec.day is None else round(spec.day * scale, 3),
        "steps": {step: round(s * scale, 3) for step, s in spec.steps.items()},
    }


def test_the_hosts_timers_are_shown_and_time_the_next_game(server: Server) -> None:
    """Timers set in the lobby are in every client's ``lobby`` at once, and the game
    started then gives its first (day) step that timer's deadline; ``"off"`` shows
    none in the lobby (``timers: null``) and gives the next game (``again``) none."""

    async def test() -> None:
        created = server.create(**ROOM)
        host = await host_of(server, created)
        bob = await Player(server).connect()
        try:
            await bob.join(created["room"], "Bob")
            await bob.until("lobby")
            assert host.lobby is not None and host.lobby["timers"] is None  # (UNTIMED)
            reply = await settings(host, timers={"day": 90.0, "steps": {"lynch": 95.0}})
            assert reply["type"] == "ack", reply
            timers = {"night": None, "day": 90.0, "steps": {"lynch": 95.0}}
            assert host.lobby["timers"] == timers
            lobby = await bob.until("lobby")
            assert lobby["timers"] == timers
            before = time.time()
            view = await started(host, type="start", fill="random")
            assert view["phase"] == "day" and view["deadline"] is not None
            assert before + 85 < view["deadline"] <= time.time() + 95, view["deadline"] - before
            # Bob leaves: Ann ends the game at once by closing every step (no bot waits
            # for anything but the steps).
            await bob.close()
            await play_out(host)
            assert (await settings(host, timers="off"))["type"] == "ack"
            assert host.lobby["timers"] is None
            # "Play again" goes back to the lobby (issue 25); the host starts from there.
            assert (await ask(host, type="again"))["type"] == "ack"
            view = await started(host, type="start")
            assert not view["finished"] and view["deadline"] is None
        finally:
            await host.close()
            await bob.close()

    asyncio.run(test())


async def play_out(host: Player) -> None:
    """The host closes every step and acts at random until the game is over (its end
    shown: ``again`` is allowed)."""
    deadline = time.monotonic() + 60
    while host.view is None or not host.view["finished"]:
        assert time.monotonic() < deadline, "the game did not end"
        view = host.view
        if view is not None and view["waiting"] and view["prompts"]:
            await host.act_randomly(view)
        elif view is not None:
            await ask(host, type="close", state_id=view["state_id"])
        else:
            await host.receive()


def test_default_gives_the_rulebooks_timers_back_times_the_scale(server: Server) -> None:
    """``"default"`` is the rulebook's timers again; ``timer_scale`` alone scales
    them; with ``"default"`` after it, the room keeps that scale; ``absent_bots``,
    ``spectators`` and ``bot_delay`` change alone."""

    async def test() -> None:
        created = server.create(**ROOM, spectators=False)
        host = await host_of(server, created)
        try:
            assert host.lobby is not None
            assert (await settings(host, timers="default"))["type"] == "ack"
            assert host.lobby["timers"] == rulebook("mafia-classic")
            assert (await settings(host, timer_scale=0.5))["type"] == "ack"
            assert host.lobby["timers"] == rulebook("mafia-classic", 0.5)
            assert (await settings(host, timers={"day": 5.0}))["type"] == "ack"
            assert host.lobby["timers"] == {"night": None, "day": 5.0, "steps": {}}
            assert (await settings(host, timers="default"))["type"] == "ack"
            assert host.lobby["timers"] == rulebook("mafia-classic", 0.5)
            reply = await settings(host, timers="default", timer_scale=1.0)
            assert reply["type"] == "ack" and host.lobby["timers"] == rulebook("mafia-classic")
            assert host.lobby["absent_bots"] is False and host.lobby["spectators"] is False
            reply = await settings(host, absent_bots=True, spectators=True, bot_delay=0.5)
            assert reply["type"] == "ack"
            assert host.lobby["absent_bots"] is True and host.lobby["spectators"] is True
            watcher = await Player(server).connect()
            try:  # (spectators allowed now)
                await watcher.send({"type": "watch", "room": created["room"]})
                assert (await watcher.until("welcome"))["seat"] is None
            finally:
                await watcher.close()
            assert host.lobby["timers"] == rulebook("mafia-classic")  # (unchanged)
        finally:
            await host.close()

    asyncio.run(test())


def test_refusals_change_nothing(server: Server) -> None:
    """A value a new room would be refused is refused with the creation's code and
    words (``malformed`` for the model's bounds and types, ``not_allowed`` for an
    unknown step or a bot delay under the server's floor); a seat that is not the
    host's gets ``not_host``; a game being played, ``started``; a game leader's room
    changes no timers (``not_allowed``). After each, the room's lobby is as it was."""

    async def test() -> None:
        created = server.create(**ROOM)
        host = await host_of(server, created)
        bob = await Player(server).connect()
        try:
            await bob.join(created["room"], "Bob")
            await bob.until("lobby")
            assert (await settings(host, timers={"night": 30.0}))["type"] == "ack"
            shown = httpx.get(f"{server.http}/api/rooms/{created['room']}", timeout=5).json()
            # (the value, its code, words of its refusal, whether a new room's is the same:
            # a JSON type the message's own model refuses names the message)
            refusals: list[tuple[dict[str, Any], str, str, bool]] = [
                ({"timers": {"night": 5000.0}}, "malformed", "less than or equal to 3600", True),
                ({"timers": {"night": 0.0}}, "malformed", "greater than 0", True),
                ({"timers": {"dusk": 5.0}}, "malformed", "Extra inputs", True),
                ({"timers": "soon"}, "malformed", "timers", True),
                ({"timers": {"steps": {"nope": 5.0}}}, "not_allowed", "no step 'nope'", True),
                ({"timer_scale": 20.0}, "malformed", "less than or equal to 10", True),
                ({"bot_delay": 31.0}, "malformed", "less than or equal to 30", True),
                ({"absent_bots": "yes"}, "malformed", "absent_bots", False),
                ({"colour": "red"}, "malformed", "Extra inputs", False),
            ]
            for fields, code, words, same in refusals:
                reply = await settings(host, **fields)
                assert (reply["type"], reply.get("code")) == ("error", code), (fields, reply)
                assert words in reply["message"], (fields, reply)
                if same:
                    url = f"{server.http}/api/rooms"
                    opened = httpx.post(url, json={**ROOM, **fields}, timeout=5)
                    assert opened.status_code == 400, opened.text
                    said = {key: reply[key] for key in ("message", "reason", "fields")}
                    assert opened.json() == {"error": code, **said}
            reply = await settings(bob, timers="off")
            assert (reply["type"], reply.get("code")) == ("error", "not_host"), reply
            await started(host, type="start", fill="random")
            reply = await settings(host, timers="off")
            assert (reply["type"], reply.get("code")) == ("error", "started"), reply
            after = httpx.get(f"{server.http}/api/rooms/{created['room']}", timeout=5).json()
            assert after["timers"] == shown["timers"] == {"night": 30.0, "day": None, "steps": {}}
            assert after["absent_bots"] == shown["absent_bots"]
        finally:
            await host.close()
            await bob.close()
        leader = server.create(rules="mafia-classic", players=3, mode="leader", names=NAMES)
        host = await host_of(server, leader)
        try:
            reply = await settings(host, timers={"day": 60.0})
            assert (reply["type"], reply.get("code")) == ("error", "not_allowed"), reply
            assert (await settings(host, spectators=True))["type"] == "ack"
            assert host.lobby is not None and host.lobby["spectators"] is True
        finally:
            await host.close()

    asyncio.run(test())


def test_a_change_survives_a_restart(tmp_path: Path) -> None:
    """The store keeps the changed settings with the room, and a server started again
    on the database shows them and times the game with them. (This server's bots wait
    at least 0.05 s: a lower ``bot_delay`` is refused as a new room's is.)"""
    server = Server(tmp_path / "lupus.db", limits={**RELAXED, "min_bot_delay": 0.05}).start()
    try:
        created = server.create(**{**ROOM, "bot_delay": 0.05})

        async def change() -> None:
            host = await host_of(server, created)
            try:
                reply = await settings(host, bot_delay=0.01)
                assert (reply["type"], reply.get("code")) == ("error", "not_allowed"), reply
                url = f"{server.http}/api/rooms"
                opened = httpx.post(url, json={**ROOM, "bot_delay": 0.01}, timeout=5)
                said = {key: reply[key] for key in ("message", "reason", "fields")}
                assert opened.json() == {"error": "not_allowed", **said}
                assert "at least 0.05 s" in reply["message"]
                reply = await settings(host, timers={"day": 77.0}, absent_bots=True)
                assert reply["type"] == "ack", reply
            finally:
                await host.close()

        asyncio.run(change())
        server.kill()
        store = server.store()
        try:
            (record,) = [r for r in store.open_rooms() if r.code == created["room"]]
            kept = record.state["settings"]
            assert isinstance(kept, dict)
            assert kept["timers"] == {"night": None, "day": 77.0, "steps": {}}
            assert kept["absent_bots"] is True and kept["bot_delay"] == 0.05
        finally:
            store.close()
        server.start()
        lobby = httpx.get(f"{server.http}/api/rooms/{created['room']}", timeout=5).json()
        assert lobby["timers"] == {"night": None, "day": 77.0, "steps": {}}
        assert lobby["absent_bots"] is True

        async def play() -> None:
            host = await host_of(server, created)
            try:
                before = time.time()
                view = await started(host, type="start", fill="random")
                assert before + 70 < view["deadline"] <= time.time() + 77
            finally:
                await host.close()

        asyncio.run(play())
    finally:
        server.stop()
