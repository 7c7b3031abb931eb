"""The host changes the table itself in the lobby (``settings``, issue 25): the deck
(``composition``, or ``"recommended"``), the rulebook's ``options`` and the number of
``players``, over the wire against a real server.

- Each change is checked as a new room's (``RoomSettings``, ``check_settings``): a
  refusal has the creation's code, reason and words, and changes nothing.
- The seats follow the size: more seats are free ones at the end; fewer move whoever
  sat beyond into a free seat, then a bot's, and only a person with no seat left to
  take loses his (told ``seat_removed``, closed); the host always keeps one.
- The next game deals the new deck under the new options; during a game, and in a game
  leader's room for the size, it is refused; a restarted server's lobby shows it.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
from tests.server_harness import Player, Server, ask, host_of
from tests.test_server_settings import play_out

ROOM: dict[str, Any] = {
    "rules": "mafia-classic",
    "players": 5,
    "host_name": "Ann",
    "pace": 0.0,
    "bot_delay": 0.0,
    "timers": "off",
}


def names(lobby: dict[str, Any]) -> list[str | None]:
    return [None if seat is None else seat["name"] for seat in lobby["seats"]]


async def latest_lobby(player: Player) -> dict[str, Any]:
    """The lobby after everything sent so far (a ping's pong comes after it)."""
    await player.send({"type": "ping"})
    await player.until("pong")
    assert player.lobby is not None
    return player.lobby


def test_the_deck_the_options_and_the_size_change_in_the_lobby(tmp_path: Path) -> None:
    """A smaller table moves the people beyond it into free seats, then bots' seats (the
    bots go); the host, moved to the last seat, keeps his; a bigger one adds free seats;
    the deck and the options are the next game's and survive a restart."""
    server = Server(tmp_path / "lupus.db").start()
    try:
        created = server.create(**ROOM)
        room = created["room"]

        async def arrange() -> None:
            host = await host_of(server, created)
            bob, cy = await Player(server).connect(), await Player(server).connect()
            try:
                await bob.join(room, "Bob")  # seat 1
                await cy.join(room, "Cy")  # seat 2
                # Ann to the last seat, a bot in seat 1: Bob 0, bot 1, Cy 2, free 3, Ann 4
                assert (await ask(host, type="swap", seat=0, other=4))["type"] == "ack"
                assert (await ask(host, type="swap", seat=0, other=1))["type"] == "ack"
                assert (await ask(host, type="add_bot", seat=1, kind="random"))["type"] == "ack"
                lobby = await latest_lobby(host)
                assert names(lobby) == ["Bob", "Bot 2", "Cy", None, "Ann"], names(lobby)
                reply = await ask(host, type="settings", players=3, composition="recommended")
                assert reply["type"] == "ack", reply
                lobby = await latest_lobby(host)
                # Ann (the host) into the free seat 3... which is gone: into the bot's.
                assert names(lobby) == ["Bob", "Ann", "Cy"], names(lobby)
                assert lobby["host_seat"] == 1 and lobby["you"] == 1
                assert lobby["players"] == 3 and lobby["composition"] == {"mafia": 1, "villager": 2}
                assert (await latest_lobby(cy))["you"] == 2
                # Bigger again, with the host's own deck and an option.
                deck = {"mafia": 2, "villager": 4}
                reply = await ask(
                    host,
                    type="settings",
                    players=6,
                    composition=deck,
                    options={"first_phase": "night"},
                )
                assert reply["type"] == "ack", reply
                lobby = await latest_lobby(bob)
                assert names(lobby) == ["Bob", "Ann", "Cy", None, None, None]
                assert lobby["composition"] == deck and lobby["options"] == {"first_phase": "night"}
            finally:
                for player in (host, bob, cy):
                    await player.close()

        asyncio.run(arrange())
        server.kill()
        server.start()
        lobby = httpx.get(f"{server.http}/api/rooms/{room}", timeout=5).json()
        assert lobby["players"] == 6 and len(lobby["seats"]) == 6
        assert lobby["composition"] == {"mafia": 2, "villager": 4}
        assert lobby["options"] == {"first_phase": "night"}
        assert names(lobby) == ["Bob", "Ann", "Cy", None, None, None]

        async def play() -> None:
            host = await host_of(server, created)
            try:
                assert (await ask(host, type="start", fill="random"))["type"] == "ack"
                while host.view is None:
                    await host.receive()
                assert host.view["phase"] == "night"  # (first_phase: night)
                playing = await latest_lobby(host)
                assert len(playing["seats"]) == 6 and None not in playing["seats"]
                # During a game: refused, and nothing changes.
                reply = await ask(host, type="settings", composition="recommended")
                assert (reply["code"], reply["reason"]) == ("started", "change_between_games")
                reply = await ask(host, type="settings", players=4, composition="recommended")
                assert reply["code"] == "started", reply
                # Its end shown: the size changes back in the lobby (``again``) only.
                await play_out(host)
                reply = await ask(host, type="settings", players=4, composition="recommended")
                assert (reply["code"], reply["reason"]) == ("not_allowed", "lobby_first")
                assert (await ask(host, type="again"))["type"] == "ack"
                reply = await ask(host, type="settings", players=4, composition="recommended")
                assert reply["type"] == "ack", reply
                lobby = await latest_lobby(host)
                assert lobby["status"] == "lobby" and lobby["players"] == 4
                assert [seat is not None for seat in lobby["seats"]] == [True] * 4
                assert lobby["composition"] == {"mafia": 1, "villager": 3}
                assert (await ask(host, type="start"))["type"] == "ack"
            finally:
                await host.close()

        asyncio.run(play())
        lobby = httpx.get(f"{server.http}/api/rooms/{room}", timeout=5).json()
        assert lobby["players"] == 4 and lobby["status"] == "playing"
    finally:
        server.stop()


def test_a_person_with_no_seat_left_loses_it_and_is_told(tmp_path: Path) -> None:
    """Every kept seat a person's: the one beyond is freed, told why (``bad_token``,
    reason ``seat_removed``) and closed; his token holds no seat any more."""
    with_server = Server(tmp_path / "lupus.db").start()
    try:
        created = with_server.create(**{**ROOM, "players": 4})
        room = created["room"]

        async def test() -> None:
            host = await host_of(with_server, created)
            people = [await Player(with_server).connect() for _ in range(3)]
            try:
                for person, name in zip(people, ["Bob", "Cy", "Dee"], strict=True):
                    await person.join(room, name)
                reply = await ask(host, type="settings", players=3, composition="recommended")
                assert reply["type"] == "ack", reply
                told = await people[2].until("error")
                assert (told["code"], told["reason"]) == ("bad_token", "seat_removed")
                assert "smaller" in told["message"]
                lobby = await latest_lobby(host)
                assert names(lobby) == ["Ann", "Bob", "Cy"]
                again = await Player(with_server).connect()
                try:
                    assert people[2].token is not None
                    await again.send({"type": "rejoin", "room": room, "token": people[2].token})
                    refused = await again.until("error")
                    assert refused["code"] == "bad_token"
                finally:
                    await again.close()
            finally:
                for player in (host, *people):
                    await player.close()

        asyncio.run(test())
    finally:
        with_server.stop()


def test_a_change_the_rules_refuse_is_refused_as_a_new_room_is(tmp_path: Path) -> None:
    """The same code, reason, fields and words as ``POST /api/rooms`` with those values;
    the lobby as it was. A game leader's table keeps its size (named at creation)."""
    server = Server(tmp_path / "lupus.db").start()
    try:
        created = server.create(**ROOM)

        async def test() -> None:
            host = await host_of(server, created)
            try:
                before = await latest_lobby(host)
                tries: list[tuple[dict[str, Any], str, str]] = [
                    ({"players": 2, "composition": "recommended"}, "not_allowed", "players_range"),
                    ({"composition": {"mafia": 1, "villager": 2}}, "not_allowed", "rules"),
                    ({"options": {"first_phase": "dusk"}}, "not_allowed", "rules"),
                    ({"options": {"nope": True}}, "not_allowed", "rules"),
                    ({"composition": {"mafia": -1}}, "malformed", "malformed"),
                    ({"players": 9999}, "malformed", "malformed"),
                ]
                for fields, code, reason in tries:
                    reply = await ask(host, type="settings", **fields)
                    assert (reply["type"], reply["code"], reply["reason"]) == (
                        "error",
                        code,
                        reason,
                    ), (fields, reply)
                    body = {**ROOM, **fields}
                    if body.get("composition") == "recommended":
                        del body["composition"]
                    opened = httpx.post(f"{server.http}/api/rooms", json=body, timeout=5)
                    said = {key: reply[key] for key in ("message", "reason", "fields")}
                    assert opened.json() == {"error": code, **said}, fields
                    after = await latest_lobby(host)
                    assert after["players"] == before["players"]
                    assert after["composition"] == before["composition"]
                    assert after["options"] == before["options"]
            finally:
                await host.close()

        asyncio.run(test())
        leader = server.create(
            rules="mafia-classic", players=4, mode="leader", names=["A", "B", "C", "D"]
        )

        async def led() -> None:
            host = await host_of(server, leader)
            try:
                reply = await ask(host, type="settings", players=5, composition="recommended")
                assert (reply["code"], reply["reason"]) == ("not_allowed", "leader_no_players")
                deck = {"mafia": 1, "villager": 3}
                reply = await ask(
                    host, type="settings", composition=deck, options={"first_phase": "night"}
                )
                assert reply["type"] == "ack", reply
                lobby = await latest_lobby(host)
                assert lobby["composition"] == deck and lobby["options"] == {"first_phase": "night"}
            finally:
                await host.close()

        asyncio.run(led())
    finally:
        server.stop()
