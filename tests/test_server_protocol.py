"""The protocol and the HTTP API over the wire, everything but whole games: a real
server (``lupus serve`` in a subprocess, on a loopback port) and real clients (httpx
and websockets). Every refusal is an ``error`` with its code and the message's ``id``,
and changes nothing; a client acts only for its seat and reads only what its seat may.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import socket
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import httpx
import pytest
from tests.server_harness import Player, Server, players, running

from lupus import scenario as sc
from lupus.engine.errors import LupusError
from lupus.engine.event_json import to_json
from lupus.engine.model import LEADER
from lupus.families import deal, load
from lupus.rulebooks import available
from lupus.server.app import MAX_BODY
from lupus.server.clients import CHAT, MESSAGES
from lupus.server.protocol import MAX_CHAT, MAX_FRAME, VERSION
from lupus.server.seats import CODE_LETTERS

Frame = dict[str, Any]


@pytest.fixture(scope="module")
def server(store_kind: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(tmp_path_factory.mktemp("protocol") / "lupus.db") as started:
        yield started


def run(test: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(test())


# ---------------------------------------------------------------------- helpers
def small_room(server: Server, **settings: Any) -> dict[str, Any]:
    """A mafia-classic room (3 seats unless told), the host seated as Ann; no waiting
    (bots move at once, night steps are not paced)."""
    defaults = {"rules": "mafia-classic", "players": 3, "host_name": "Ann"}
    return server.create(**(defaults | {"bot_delay": 0, "pace": 0} | settings))


def lobby_of(server: Server, room: str) -> Frame:
    answer = httpx.get(f"{server.http}/api/rooms/{room}", timeout=10)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


async def refused(player: Player, message: Frame, code: str) -> Frame:
    """Send ``message``: the answer is an error with ``code`` and the message's id."""
    ref = await player.send(message)
    reply = await player.answer(ref)
    assert reply["type"] == "error", (message, reply)
    assert reply["code"] == code, (message, reply)
    assert reply["id"] == ref
    assert isinstance(reply["message"], str) and reply["message"]
    return reply


async def accepted(player: Player, message: Frame) -> Frame:
    ref = await player.send(message)
    reply = await player.answer(ref)
    assert reply["type"] == "ack", (message, reply)
    return reply


async def raw_error(player: Player, text: str | bytes) -> Frame:
    """Send a frame as it is: the error that answers it."""
    await player.socket.send(text)
    while True:
        frame = await player.receive()
        if frame["type"] == "error":
            return frame


async def sync(player: Player) -> list[Frame]:
    """Every frame the server had queued for ``player`` (a ping's pong closes them)."""
    ref = await player.send({"type": "ping"})
    got = []
    while True:
        frame = await player.receive()
        if frame["type"] == "pong" and frame["id"] == ref:
            return got
        got.append(frame)


async def voted(player: Player, *seats: int) -> None:
    """Frames until ``player`` saw each of ``seats`` cast a ballot (the bots' votes)."""
    while not set(seats) <= {e["data"]["player"] for e in player.events if e["kind"] == "ballot"}:
        await player.receive()


async def prompted(player: Player, timeout: float = 20.0) -> Frame:
    """Frames until a view that waits for this player; that view."""
    deadline = time.monotonic() + timeout
    while not (player.view and player.view["waiting"] and player.view["prompts"]):
        await player.receive(deadline - time.monotonic())
    return player.view


async def started_game(server: Server, **settings: Any) -> tuple[dict[str, Any], Player]:
    """A 3-seat mafia-classic game under way: Ann (the host) and two bots."""
    created = small_room(server, **settings)
    ann = await Player(server, random.Random(1)).connect()
    await ann.rejoin(created["room"], created["host_token"])
    await accepted(ann, {"type": "start", "fill": "heuristic"})
    return created, ann


# ---------------------------------------------------------------------- HTTP
def test_healthz(server: Server) -> None:
    answer = httpx.get(f"{server.http}/healthz", timeout=10)
    assert answer.status_code == 200
    assert answer.json()["status"] == "ok"
    assert answer.json()["protocol"] == VERSION


def test_rulebooks(server: Server) -> None:
    found = httpx.get(f"{server.http}/api/rulebooks", timeout=10).json()
    assert [book["id"] for book in found] == list(available())
    for book in found:
        rules = load(book["id"])
        assert (book["min_players"], book["max_players"]) == (rules.min_players, rules.max_players)
        assert book["languages"] == list(rules.languages)
        assert set(book["options"]) == set(rules.options)


def test_a_room_is_created(server: Server) -> None:
    created = server.create(rules="werewolf", players=8)
    code = created["room"]
    assert re.fullmatch(f"[{CODE_LETTERS}]{{5}}", code)
    assert not set("IO01L") & set(CODE_LETTERS)
    assert code in created["join_url"]
    assert isinstance(created["host_token"], str) and len(created["host_token"]) >= 32
    assert created["host_seat"] is None  # a host who does not play
    lobby = lobby_of(server, code.lower())  # codes are read in any case
    assert lobby["room"] == code and lobby["status"] == "lobby" and lobby["players"] == 8
    assert lobby["seats"] == [None] * 8
    assert created["host_token"] not in json.dumps(lobby)
    seated = server.create(rules="werewolf", players=8, host_name="Ann")
    assert seated["host_seat"] == 0
    assert lobby_of(server, seated["room"])["seats"][0]["name"] == "Ann"
    assert seated["host_token"] != created["host_token"]


def engine_refusal(rules: str, players: int, counts: dict[str, int]) -> str:
    """The engine's own sentence for a composition it cannot deal."""
    try:
        deal(rules, players, counts, random.Random(0))
    except LupusError as exc:
        return str(exc)
    raise AssertionError("the engine deals it")


REFUSED = [
    ({"rules": "nope", "players": 5}, 400, "not_allowed", "there is no rulebook 'nope'"),
    ({"rules": "werewolf", "players": 31}, 400, "not_allowed", "played by 3 to 30 players"),
    ({"rules": "werewolf", "players": 41}, 400, "malformed", "players"),
    (
        {"rules": "mafia-classic", "players": 3, "mode": "leader", "names": ["A", "B", "C"]}
        | {"table": True},
        400,
        "not_allowed",
        "not an at-the-table room",
    ),
    ({"rules": "werewolf", "players": 8.0}, 400, "malformed", "players"),
    ({"rules": "werewolf", "players": True}, 400, "malformed", "players"),
    ({"rules": "werewolf", "players": "8"}, 400, "malformed", "players"),
    ({"players": 8}, 400, "malformed", "rules"),
    ({"rules": "werewolf", "players": 8, "admin": True}, 400, "malformed", "admin"),
    (
        {"rules": "werewolf", "players": 5, "composition": {"werewolf": 5}},
        400,
        "not_allowed",
        engine_refusal("werewolf", 5, {"werewolf": 5}),
    ),
    (
        {"rules": "werewolf", "players": 5, "composition": {"werewolf": 1, "villager": 3}},
        400,
        "not_allowed",
        engine_refusal("werewolf", 5, {"werewolf": 1, "villager": 3}),
    ),
    (
        {"rules": "werewolf", "players": 5, "composition": {"werewolf": 1, "ghost": 4}},
        400,
        "not_allowed",
        "unknown role 'ghost' in werewolf",
    ),
    (
        {"rules": "werewolf", "players": 8, "options": {"nope": True}},
        400,
        "not_allowed",
        "unknown option 'nope' for werewolf",
    ),
    (
        {"rules": "werewolf", "players": 8, "options": {"captain": 3}},
        400,
        "not_allowed",
        "option captain must be true or false",
    ),
    ({"rules": "maffia", "players": 8, "lang": "fr"}, 400, "not_allowed", "not 'fr'"),
    (
        {"rules": "werewolf", "players": 8, "mode": "leader"},
        400,
        "not_allowed",
        "a game-leader room names its 8 players at creation",
    ),
    (
        {"rules": "werewolf", "players": 3, "mode": "leader", "names": ["Ann", "Bob"]},
        400,
        "not_allowed",
        "names its 3 players",
    ),
    (
        {
            "rules": "mafia-classic",
            "players": 3,
            "mode": "leader",
            "names": ["Ann", "ann", "Cy"],
        },
        400,
        "not_allowed",
        "",
    ),
    (
        {"rules": "werewolf", "players": 8, "names": list("ABCDEFGH")},
        400,
        "not_allowed",
        "only a game-leader room names its players",
    ),
    ({"rules": "werewolf", "players": 8, "host_name": "leader"}, 400, "not_allowed", "reserved"),
    ({"rules": "werewolf", "players": 8, "host_name": ""}, 400, "not_allowed", "the host's name"),
    ({"rules": "werewolf", "players": 8, "host_name": "x" * 30}, 400, "not_allowed", "at most 24"),
    ({"rules": "werewolf", "players": 8, "host_name": "A\nB"}, 400, "not_allowed", "line breaks"),
    ({"rules": "werewolf", "players": 8, "timers": {"night": -1}}, 400, "malformed", "timers"),
    ({"rules": "werewolf", "players": 8, "bot_delay": 60}, 400, "malformed", "bot_delay"),
]


@pytest.mark.parametrize(("settings", "status", "code", "says"), REFUSED)
def test_a_room_is_refused(
    server: Server, settings: dict[str, Any], status: int, code: str, says: str
) -> None:
    answer = httpx.post(f"{server.http}/api/rooms", json=settings, timeout=10)
    assert answer.status_code == status, answer.text
    assert answer.json()["error"] == code
    assert says in answer.json()["message"]


def test_a_body_that_is_not_settings_is_refused(server: Server) -> None:
    json_body = {"content-type": "application/json"}
    for body in (b"{not json", b"[1, 2]", b'"werewolf"', b"", b"\xff\xfe"):
        answer = httpx.post(f"{server.http}/api/rooms", content=body, headers=json_body, timeout=10)
        assert answer.status_code == 400, (body, answer.text)
        assert answer.json()["error"] == "malformed"


def test_an_oversized_body_is_refused(server: Server) -> None:
    big = {"rules": "werewolf", "players": 8, "host_name": "x" * MAX_BODY}
    answer = httpx.post(f"{server.http}/api/rooms", json=big, timeout=10)
    assert answer.status_code == 413
    assert answer.json()["error"] == "too_long"


def test_an_announced_oversized_body_is_refused_unread(server: Server) -> None:
    """A body announced (Content-Length) larger than the limit is refused at once, not
    read into memory first: the server answers 413 though the body never comes."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as raw:
        raw.sendall(
            b"POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nContent-Length: 1000000000\r\n\r\n{"
        )
        answer = raw.recv(4096)
    assert answer.startswith(b"HTTP/1.1 413"), answer


def test_unknown_rooms_and_games_are_404(server: Server) -> None:
    answer = httpx.get(f"{server.http}/api/rooms/ZZZZZ", timeout=10)
    assert answer.status_code == 404 and answer.json()["error"] == "unknown_room"
    answer = httpx.get(f"{server.http}/api/games/ZZZZZ-1-00000000/scenario", timeout=10)
    assert answer.status_code == 404 and answer.json()["error"] == "unknown_game"


def test_scenario_only_once_finished_then_play_again(server: Server) -> None:
    """A running game's scenario is refused (it holds every card); once over it is
    given and replays; ``again`` starts game 2 with the same seats."""

    async def test() -> None:
        created, ann = await started_game(server)
        room = created["room"]
        try:
            await prompted(ann)
            lobby = lobby_of(server, room)
            assert lobby["status"] == "playing" and lobby["number"] == 1
            first = lobby["game"]
            running = httpx.get(f"{server.http}/api/games/{first}/scenario", timeout=10)
            assert running.status_code == 404
            assert "role" not in running.text and "seed" not in running.text
            await refused(ann, {"type": "again"}, "not_allowed")  # not over yet
            await ann.play()
            names = [seat["name"] for seat in lobby_of(server, room)["seats"]]

            download = httpx.get(f"{server.http}/api/games/{first}/scenario", timeout=10)
            assert download.status_code == 200
            replayed = sc.replay(sc.parse(download.json())).game
            assert replayed.finished
            assert list(replayed.names) == names
            mine = [to_json(event) for event in replayed.view(ann.seat).events]
            assert mine == ann.events  # the very game Ann played
            # The lobby keeps how it ended, as its public game-over event said it.
            over = next(e for e in ann.events if e["kind"] == "game_over")["data"]
            (ended,) = lobby_of(server, room)["results"]
            assert ended["game"] == first
            assert (ended["winner"], ended["winners"]) == (over["winner"], over["winners"])

            # "Play again" goes back to the lobby with the same seats, bots and results
            # (issue 25): the host may change seats there; ``start`` plays the next.
            sent = len(ann.frames)
            await accepted(ann, {"type": "again"})
            assert not [frame for frame in ann.frames[sent:] if frame["type"] == "view"]
            between = lobby_of(server, room)
            assert (between["status"], between["number"], between["game"]) == ("lobby", 1, None)
            assert [seat["name"] for seat in between["seats"]] == names
            assert [ended["game"] for ended in between["results"]] == [first]
            await refused(ann, {"type": "again"}, "not_allowed")  # (no game is over now)
            await accepted(ann, {"type": "swap", "seat": 1, "other": 2})  # seats move
            await accepted(ann, {"type": "swap", "seat": 1, "other": 2})  # (and back)
            sent = len(ann.frames)
            await accepted(ann, {"type": "start"})
            view = next(frame for frame in ann.frames[sent:] if frame["type"] == "view")
            assert view["from"] == 0 and view["game"] != first and not view["finished"]
            again = lobby_of(server, room)
            assert again["number"] == 2 and again["status"] == "playing"
            assert again["game"] == view["game"] != first
            assert [seat["name"] for seat in again["seats"]] == names
            assert [seat["bot"] for seat in again["seats"]] == [None, "heuristic", "heuristic"]
            assert [ended["game"] for ended in again["results"]] == [first]
            # The first game stays downloadable; the second is refused while it runs.
            assert httpx.get(f"{server.http}/api/games/{first}/scenario").status_code == 200
            second = httpx.get(f"{server.http}/api/games/{again['game']}/scenario")
            assert second.status_code == 404
        finally:
            await ann.close()

    run(test)


# ---------------------------------------------------------------------- malformed frames
MALFORMED = [
    ('{"type": "ping", "id": 3', "malformed", None),
    ("[1, 2, 3]", "malformed", None),
    ('"ping"', "malformed", None),
    ("null", "malformed", None),
    ('{"type": "fly", "id": 4}', "malformed", 4),
    ('{"id": 5}', "malformed", 5),
    ('{"type": "chat", "id": 6}', "malformed", 6),  # text missing
    ('{"type": "ping", "id": 7, "extra": 1}', "malformed", 7),
    ('{"type": "kick", "seat": true, "id": 8}', "malformed", 8),  # a bool is no seat
    ('{"type": "kick", "seat": 1.0, "id": 9}', "malformed", 9),
    ('{"type": "kick", "seat": "1", "id": 10}', "malformed", 10),
    ('{"type": "swap", "seat": 1, "id": 11}', "malformed", 11),  # other missing
    ('{"type": "add_bot", "kind": "genius", "id": 12}', "malformed", 12),
    ('{"type": "act", "verb": "vote", "args": [1], "state_id": true, "id": 13}', "malformed", 13),
    ('{"type": "act", "verb": "vote", "args": [[1]], "state_id": 1, "id": 14}', "malformed", 14),
    ('{"type": "act", "verb": "vote", "args": [1], "id": 15}', "malformed", 15),
    (
        json.dumps({"type": "act", "verb": "v", "args": [0] * 9, "state_id": 1, "id": 16}),
        "malformed",
        16,
    ),
    ('{"type": "chat", "text": "", "id": 17}', "malformed", 17),
    ('{"type": "ping", "id": true}', "malformed", None),  # an id is an int
    ('{"type": "ping", "id": "18"}', "malformed", None),
    (json.dumps({"type": "chat", "text": "x" * (MAX_CHAT + 1), "id": 19}), "malformed", 19),
    (json.dumps({"type": "chat", "text": "x" * MAX_FRAME, "id": 20}), "too_long", 20),
    # Longer than MAX_FRAME in bytes, not in characters.
    (
        json.dumps({"type": "chat", "text": "€" * 1400, "id": 21}, ensure_ascii=False),
        "too_long",
        21,
    ),
    (b'{"type": "ping", "id": 22, "x": 0}', "malformed", 22),  # a binary frame
    ("[" * 2000 + "]" * 2000, "malformed", None),  # deeper than the JSON reader goes
    ('{"type": "join", "room": "' + "A" * 17 + '", "name": "Eve", "id": 23}', "malformed", 23),
]


def test_malformed_frames_are_refused_and_change_nothing(server: Server) -> None:
    """Each refusal names its code and echoes the id (when the frame has one); the
    lobby is the same after, and the other client heard nothing."""
    created = small_room(server, players=4)
    room = created["room"]

    async def test() -> None:
        async with players(server, 2) as (ann, bob):
            await ann.rejoin(room, created["host_token"])
            await bob.join(room, "Bob")
            await sync(ann)
            await sync(bob)
            before = lobby_of(server, room)
            for text, code, ref in MALFORMED:
                error = await raw_error(ann, text)
                assert (error["code"], error["id"]) == (code, ref), (text, error)
                assert error["message"]
            assert lobby_of(server, room) == before
            assert await sync(bob) == []
            assert await sync(ann) == []  # one error per frame, nothing else
            await accepted(ann, {"type": "chat", "text": "still here"})

    run(test)


def test_a_frame_uvicorn_cuts_off_closes_the_connection(server: Server) -> None:
    """A frame far beyond the limit (more than uvicorn reads) ends the connection; the
    server lives on."""

    async def test() -> None:
        async with players(server, 1) as (eve,):
            await eve.socket.send("x" * (64 * MAX_FRAME))
            with pytest.raises(Exception):  # noqa: B017 (closed: the exact class varies)
                while True:
                    await eve.receive(5)
        assert httpx.get(f"{server.http}/healthz").status_code == 200

    run(test)


# ---------------------------------------------------------------------- entering a room
def test_before_joining(server: Server) -> None:
    async def test() -> None:
        async with players(server, 1) as (eve,):
            ref = await eve.send({"type": "ping"})
            assert (await eve.until("pong"))["id"] == ref
            for message in (
                {"type": "chat", "text": "hello"},
                {"type": "act", "verb": "vote", "args": [1], "state_id": 1},
                {"type": "start"},
                {"type": "kick", "seat": 0},
                {"type": "close", "state_id": 0},
                {"type": "again"},
            ):
                await refused(eve, message, "not_joined")

    run(test)


def test_unknown_rooms_and_bad_tokens(server: Server) -> None:
    created = small_room(server)
    other = small_room(server)
    room = created["room"]

    async def test() -> None:
        async with players(server, 2) as (eve, ann):
            await refused(eve, {"type": "join", "room": "ZZZZZ", "name": "Eve"}, "unknown_room")
            await refused(eve, {"type": "watch", "room": "ZZZZZ"}, "unknown_room")
            await refused(eve, {"type": "rejoin", "room": "ZZZZZ", "token": "abc"}, "unknown_room")
            for token in ("", "abc", created["host_token"][:-1] + "x", other["host_token"]):
                message = {"type": "rejoin", "room": room, "token": token}
                await refused(eve, message, "bad_token")
            # A connection in a room stays in it.
            welcome = await ann.rejoin(room.lower(), created["host_token"])
            assert (welcome["seat"], welcome["host"], welcome["token"]) == (0, True, None)
            await refused(ann, {"type": "join", "room": room, "name": "Zed"}, "not_allowed")
            await refused(ann, {"type": "watch", "room": other["room"]}, "not_allowed")
        assert [seat is None for seat in lobby_of(server, room)["seats"]] == [False, True, True]

    run(test)


def test_names(server: Server) -> None:
    """A name the rules refuse, or one read like a taken one, is ``bad_name``."""
    created = small_room(server)
    room = created["room"]

    async def test() -> None:
        async with players(server, 1) as (eve,):
            before = lobby_of(server, room)
            for name in (
                "Ann",
                "ann",
                "ANN",
                "A\u200bnn",  # an invisible character
                "Ａnn",  # a full-width A: the same name in NFKC
                "",
                " ",
                " Eve",
                "Eve ",
                "x" * 25,
                "Ev\x07e",
                "Eve\n",
                "Eve\u202e",
                "leader",
                "Leader",
            ):
                await refused(eve, {"type": "join", "room": room, "name": name}, "bad_name")
            await refused(eve, {"type": "join", "room": room, "name": "x" * 65}, "malformed")
            assert lobby_of(server, room) == before
            welcome = await eve.join(room, "Eve")
            assert welcome["seat"] == 1 and welcome["host"] is False
            assert isinstance(welcome["token"], str) and len(welcome["token"]) >= 32
            assert welcome["version"] == VERSION

    run(test)


def test_a_full_room(server: Server) -> None:
    created = small_room(server, spectators=True)
    room = created["room"]

    async def test() -> None:
        async with players(server, 4) as (ann, bob, cy, dee):
            await ann.rejoin(room, created["host_token"])
            assert (await bob.join(room, "Bob"))["seat"] == 1
            assert (await cy.join(room, "Cy"))["seat"] == 2
            await refused(dee, {"type": "join", "room": room, "name": "Dee"}, "room_full")
            await refused(ann, {"type": "add_bot"}, "room_full")
            welcome = await dee.send({"type": "watch", "room": room})
            assert (await dee.until("welcome"))["id"] == welcome  # watching is open

    run(test)


def test_host_commands(server: Server) -> None:
    """Only the host kicks, swaps, adds bots and starts; a kicked player's token stops
    working; a start with an empty seat and no fill is refused."""
    created = small_room(server, players=4)
    room = created["room"]

    async def test() -> None:
        async with players(server, 4) as (ann, bob, cy, bob_again):
            await ann.rejoin(room, created["host_token"])
            await bob.join(room, "Bob")
            await cy.join(room, "Cy")
            before = lobby_of(server, room)
            for message in (
                {"type": "start", "fill": "random"},
                {"type": "kick", "seat": 2},
                {"type": "swap", "seat": 1, "other": 2},
                {"type": "add_bot"},
                {"type": "hand_over", "seat": 2},
                {"type": "again"},
                {"type": "close", "state_id": 0},
            ):
                await refused(bob, message, "not_host")
            assert lobby_of(server, room) == before

            await refused(ann, {"type": "start"}, "not_allowed")  # seat 4 is empty
            await refused(ann, {"type": "kick", "seat": 0}, "not_allowed")  # his own
            await refused(ann, {"type": "kick", "seat": 9}, "not_allowed")
            await refused(ann, {"type": "swap", "seat": 0, "other": -1}, "not_allowed")
            await refused(ann, {"type": "add_bot", "seat": 1}, "not_allowed")  # Bob's
            await refused(ann, {"type": "add_bot", "seat": 4}, "not_allowed")
            assert lobby_of(server, room) == before

            await accepted(ann, {"type": "swap", "seat": 1, "other": 2})
            seats = lobby_of(server, room)["seats"]
            assert [seats[1]["name"], seats[2]["name"]] == ["Cy", "Bob"]
            assert bob.token is not None
            assert (await bob_again.rejoin(room, bob.token))["seat"] == 2  # his token follows
            await bob_again.close()

            await accepted(ann, {"type": "add_bot", "kind": "random", "seat": 3})
            assert lobby_of(server, room)["seats"][3]["bot"] == "random"

            await accepted(ann, {"type": "kick", "seat": 2})  # Bob
            with pytest.raises(Exception):  # noqa: B017 (his connection is closed)
                while True:
                    await bob.receive(5)
            assert lobby_of(server, room)["seats"][2] is None
            async with players(server, 1) as (again,):
                message = {"type": "rejoin", "room": room, "token": bob.token}
                await refused(again, message, "bad_token")
                assert (await again.join(room, "Dee"))["seat"] == 2

            await accepted(ann, {"type": "start"})
            assert lobby_of(server, room)["status"] == "playing"
            for message in (
                {"type": "start"},
                {"type": "kick", "seat": 2},
                {"type": "swap", "seat": 1, "other": 2},
                {"type": "add_bot", "seat": 1},
            ):
                await refused(ann, message, "started")

    run(test)


def test_a_kicked_player_is_told(server: Server) -> None:
    created = small_room(server)
    room = created["room"]

    async def test() -> None:
        async with players(server, 2) as (ann, bob):
            await ann.rejoin(room, created["host_token"])
            await bob.join(room, "Bob")
            await accepted(ann, {"type": "kick", "seat": 1})
            error = await bob.until("error")
            assert (error["code"], error["id"]) == ("bad_token", None)

    run(test)


# ---------------------------------------------------------------------- acting
def test_join_after_the_start(server: Server) -> None:
    async def test() -> None:
        created, ann = await started_game(server)
        try:
            async with players(server, 1) as (eve,):
                message = {"type": "join", "room": created["room"], "name": "Eve"}
                await refused(eve, message, "started")
        finally:
            await ann.close()

    run(test)


def test_stale_and_illegal_actions_change_nothing(server: Server) -> None:
    async def test() -> None:
        _, ann = await started_game(server)
        try:
            await prompted(ann)
            await voted(ann, 1, 2)  # the bots; now the day waits for Ann alone
            view = ann.view
            assert view is not None and view["waiting"]
            prompt = view["prompts"][0]
            good = {"type": "act", "verb": prompt["verb"], "args": prompt["choices"][0]["args"]}
            # A view from before her ballot was shown is stale (the night's, here).
            reply = await refused(ann, {**good, "state_id": 0}, "stale")
            assert reply["message"] == "the game moved on: look again and choose again"
            await refused(ann, {**good, "state_id": view["state_id"] + 1}, "stale")
            fly = {"type": "act", "verb": "fly", "args": [], "state_id": view["state_id"]}
            reply = await refused(ann, fly, "illegal")
            assert reply["message"].startswith("Ann cannot fly now"), reply  # the engine's
            chosen = [choice["args"] for choice in prompt["choices"]]
            bad_args = next(args for args in ([0], [99], ["x"], [1, 2]) if args not in chosen)
            reply = await refused(
                ann, {**good, "args": bad_args, "state_id": view["state_id"]}, "illegal"
            )
            assert reply["message"].startswith(f"Ann cannot {prompt['verb']} "), reply
            # As a game leader would: a player may not name a seat, not even his own.
            for seat in (0, 1, LEADER):
                message = {**good, "state_id": view["state_id"], "seat": seat}
                await refused(ann, message, "not_allowed")
            assert await sync(ann) == []  # no new view: nothing happened
            # The bots' votes came after her ballot was shown, and changed nothing of it:
            # an answer to the view before them is still hers to give.
            await accepted(ann, {**good, "state_id": view["state_id"] - 1})
            ref = await ann.send({**good, "state_id": view["state_id"]})  # twice
            reply = await ann.answer(ref)
            assert reply["type"] == "error" and reply["code"] in ("stale", "not_allowed")
        finally:
            await ann.close()

    run(test)


def test_a_token_acts_only_for_its_seat(server: Server) -> None:
    """Bob sends exactly Ann's action (her verb, her choice, her state id): it is his
    own vote at most, never hers; there is no field that names another seat."""
    created = small_room(server, players=3)
    room = created["room"]

    async def test() -> None:
        async with players(server, 2) as (ann, bob):
            await ann.rejoin(room, created["host_token"])
            await bob.join(room, "Bob")
            await accepted(ann, {"type": "start", "fill": "heuristic"})
            await prompted(ann)
            await voted(ann, 2)  # the bot; now the day waits for Ann and Bob
            await sync(bob)
            mine = ann.view
            assert mine is not None
            prompt = mine["prompts"][0]
            choice = prompt["choices"][0]["args"]
            hers = {"type": "act", "verb": prompt["verb"], "args": choice}
            for extra, code in (
                ({"seat": 0}, "not_allowed"),
                ({"token": created["host_token"]}, "malformed"),
                ({"actor": 0}, "malformed"),
                ({"player": 0}, "malformed"),
            ):
                await refused(bob, {**hers, "state_id": mine["state_id"], **extra}, code)
            ref = await bob.send({**hers, "state_id": mine["state_id"]})
            await bob.answer(ref)  # whatever it is (his own vote, stale, illegal)...
            await sync(ann)
            assert ann.view is not None and ann.view["waiting"]  # ...Ann still decides
            assert ann.view["prompts"] == mine["prompts"]
            assert [
                e for e in ann.events if e["kind"] == "ballot" and e["data"]["player"] == 0
            ] == []
            # Ann's own vote is hers.
            await accepted(ann, {**hers, "state_id": ann.view["state_id"]})
            assert [
                e["data"]["target"]
                for e in ann.events
                if e["kind"] == "ballot" and e["data"]["player"] == 0
            ] == choice

    run(test)


def test_rejoin_mid_night_resends_the_whole_view(server: Server) -> None:
    """Three people, no bots, the game opens on a night: it waits for the mafia while
    each comes back with his token on a new connection; the first view then starts
    "from" 0 and holds the very events (and lines, prompts) the player had."""
    created = small_room(server, options={"first_phase": "night"})
    room = created["room"]

    async def test() -> None:
        async with players(server, 6) as (ann, bob, cy, *back):
            await ann.rejoin(room, created["host_token"])
            await bob.join(room, "Bob")
            await cy.join(room, "Cy")
            await accepted(ann, {"type": "start"})
            table = (ann, bob, cy)
            for player in table:
                await sync(player)
                assert player.view is not None and player.view["phase"] == "night"
            assert sum(bool(player.view and player.view["waiting"]) for player in table) == 1
            for player, again in zip(table, back, strict=True):
                assert player.token is not None and player.view is not None
                welcome = await again.rejoin(room, player.token)
                assert welcome["seat"] == player.seat and welcome["token"] is None
                assert welcome["host"] is (player is ann)
                view = await again.until("view")
                assert view["from"] == 0 and view["seat"] == player.seat
                assert view["events"] == player.events and view["lines"] == player.lines
                assert view["prompts"] == player.view["prompts"]
                assert view["waiting"] == player.view["waiting"]
                assert view["state_id"] == player.view["state_id"]
                assert await sync(player) == []  # the old connection was told nothing

            # The host closes the night as a timer would (nobody killed): only his
            # current view's state id does it.
            assert ann.view is not None
            state = ann.view["state_id"]
            await refused(bob, {"type": "close", "state_id": state}, "not_host")
            await refused(ann, {"type": "close", "state_id": state - 1}, "stale")
            await accepted(ann, {"type": "close", "state_id": state})
            for player in table:
                while not (player.view and player.view["phase"] == "day"):
                    await player.receive()
                assert [e for e in player.events if e["kind"] == "death"] == []

    run(test)


def test_a_spectator_sees_the_public_view(server: Server) -> None:
    async def test() -> None:
        created, ann = await started_game(server, spectators=True)
        try:
            async with players(server, 1) as (sam,):
                await sam.send({"type": "watch", "room": created["room"]})
                welcome = await sam.until("welcome")
                assert (welcome["seat"], welcome["host"], welcome["token"]) == (None, False, None)
                await sam.until("view")
                # A spectator may be anyone, a living player in a second tab too: he
                # does not talk during a game (he would speak to the dead).
                await refused(sam, {"type": "chat", "text": "hi all"}, "muted")
                await ann.play()
                while not (sam.view and sam.view["finished"]):
                    await sam.receive()
                views = [frame for frame in sam.frames if frame["type"] == "view"]
                for view in views:
                    assert view["seat"] is None and view["prompts"] == []
                    assert view["waiting"] is False
                assert all(event["audience"] is None for event in sam.events)
                public = [event for event in ann.events if event["audience"] is None]
                assert sam.events == public
                assert all(event["audience"] in (None, [0]) for event in ann.events)
                assert "hi all" not in [frame.get("text") for frame in ann.frames]
                act = {"type": "act", "verb": "vote", "args": [1], "state_id": 0}
                await refused(sam, act, "not_allowed")
                await refused(sam, {"type": "start"}, "not_host")
        finally:
            await ann.close()

    run(test)


def test_a_room_may_refuse_spectators_but_not_its_host(server: Server) -> None:
    async def test() -> None:
        created, ann = await started_game(server, spectators=False, table=True, seed=3)
        lobby = lobby_of(server, created["room"])
        assert (lobby["spectators"], lobby["table"], lobby["seeded"]) == (False, True, True)
        try:
            async with players(server, 2) as (sam, host):
                await refused(sam, {"type": "watch", "room": created["room"]}, "not_allowed")
                wrong = {"type": "watch", "room": created["room"], "token": "x" * 32}
                await refused(sam, wrong, "not_allowed")
                # The host's own device may watch (an at-the-table narrator), and his
                # watching connection is a spectator's, with no host powers.
                token = created["host_token"]
                await host.send({"type": "watch", "room": created["room"], "token": token})
                welcome = await host.until("welcome")
                assert (welcome["seat"], welcome["host"]) == (None, False)
                view = await host.until("view")
                assert view["seat"] is None and view["prompts"] == []
                assert all(event["audience"] is None for event in view["events"])
                await refused(host, {"type": "start"}, "not_host")
        finally:
            await ann.close()

    run(test)


# ---------------------------------------------------------------------- chat
def chats(frames: list[Frame]) -> list[tuple[str, str]]:
    return [(frame["channel"], frame["text"]) for frame in frames if frame["type"] == "chat"]


def test_chat_channels(server: Server) -> None:
    """All in the lobby; the pack at night among the awake pack; the day for everyone;
    the dead among themselves, spectators reading neither them nor the pack, and
    silent during the game; a sleeping villager is muted."""
    created = small_room(
        server,
        players=6,
        composition={"mafia": 2, "villager": 4},
        options={"first_phase": "night"},
        spectators=True,
    )
    room = created["room"]

    async def test() -> None:
        async with players(server, 7) as table:
            *seats, sam = table
            await seats[0].rejoin(room, created["host_token"])
            for number, player in enumerate(seats[1:], 1):
                await player.join(room, f"P{number}")
            await sam.send({"type": "watch", "room": room})
            await sam.until("welcome")

            async def heard(speaker: Player, text: str, channel: str | None) -> list[Player]:
                """``speaker`` says ``text``: who read it (None: refused, muted)."""
                sent = {player: len(player.frames) for player in table}
                if channel is None:
                    await refused(speaker, {"type": "chat", "text": text}, "muted")
                else:
                    await accepted(speaker, {"type": "chat", "text": text})
                readers = []
                for player in table:
                    await sync(player)
                    frames = player.frames[sent[player] :]
                    got = [line for line in chats(frames) if line[1] == text]
                    assert got in ([], [(channel, text)]), got
                    if got:
                        readers.append(player)
                return readers

            assert await heard(seats[1], "lobby", "all") == table
            await accepted(seats[0], {"type": "start"})
            for player in seats:
                while player.view is None:
                    await player.receive()
            roles = {
                player.seat: next(
                    e["data"]["role"] for e in player.events if e["kind"] == "role_dealt"
                )
                for player in seats
            }
            pack = [player for player in seats if roles[player.seat] == "mafia"]
            town = [player for player in seats if roles[player.seat] != "mafia"]
            assert len(pack) == 2 and len(town) == 4
            assert (await prompted(pack[0]))["phase"] == "night"

            assert await heard(pack[0], "night pack", "pack") == pack
            assert "seats" not in next(f for f in pack[1].frames if f.get("text") == "night pack")
            await heard(town[0], "a sleeper", None)
            await heard(sam, "spectating", None)

            victim = town[0]
            for wolf in pack:
                await sync(wolf)
                view = await prompted(wolf)
                kill = {"type": "act", "verb": view["prompts"][0]["verb"], "args": [victim.seat]}
                await accepted(wolf, {**kill, "state_id": view["state_id"]})
            for player in seats:
                while not (player.view and player.view["phase"] == "day"):
                    await player.receive()

            assert await heard(town[1], "daytime", "day") == table
            assert await heard(pack[0], "daytime too", "day") == table
            assert await heard(victim, "from beyond", "dead") == [victim]
            await heard(sam, "spectating again", None)

            # Lines are kept and resent on rejoin, each to whoever may read it.
            async with players(server, 2) as (wolf_back, town_back):
                assert pack[1].token is not None and town[2].token is not None
                await wolf_back.rejoin(room, pack[1].token)
                await town_back.rejoin(room, town[2].token)
                await wolf_back.until("view")
                await town_back.until("view")
                wolf_lines = [text for _, text in chats(await sync(wolf_back))]
                town_lines = [text for _, text in chats(await sync(town_back))]
            assert wolf_lines == ["night pack", "daytime", "daytime too"]
            assert town_lines == ["daytime", "daytime too"]

            # The length limit, then the rate limit (a burst, then one a second).
            long = {"type": "chat", "text": "x" * (MAX_CHAT + 1)}
            await refused(town[3], long, "malformed")
            burst = int(CHAT[0])
            refs = [
                await town[3].send({"type": "chat", "text": f"line {n}"}) for n in range(burst + 2)
            ]
            answers = [await town[3].answer(ref) for ref in refs]
            kinds = [(answer["type"], answer.get("code")) for answer in answers]
            assert kinds[:burst] == [("ack", None)] * burst, kinds
            assert ("error", "slow_down") in kinds[burst:], kinds

    run(test)


def test_the_message_rate_limit(server: Server) -> None:
    """A flood is refused (``slow_down``, its id echoed), junk frames included; after a
    pause the client is heard again."""

    async def test() -> None:
        async with players(server, 2) as (eve, flo):
            count = int(MESSAGES[0]) * 2
            refs = [await eve.send({"type": "ping"}) for _ in range(count)]
            answers = {}
            while len(answers) < count:
                frame = await eve.receive()
                if frame["type"] in ("pong", "error"):
                    answers[frame["id"]] = frame
            assert set(answers) == set(refs)
            slowed = [frame for frame in answers.values() if frame["type"] == "error"]
            assert slowed and all(frame["code"] == "slow_down" for frame in slowed)
            assert len(slowed) <= count - MESSAGES[0]
            for _ in range(count):
                await flo.socket.send("not json")
            codes = [(await flo.until("error"))["code"] for _ in range(count)]
            assert "slow_down" in codes and "malformed" in codes
            await asyncio.sleep(1.0)
            ref = await eve.send({"type": "ping"})
            assert (await eve.until("pong"))["id"] == ref

    run(test)


# ---------------------------------------------------------------------- game-leader rooms
LEADER_ROOM = {
    "rules": "mafia-classic",
    "players": 3,
    "mode": "leader",
    "names": ["Ann", "Bob", "Cy"],
    "bot_delay": 0,
}


def test_a_game_leader_deals_by_hand(server: Server) -> None:
    """A leader who shuffled his own cards tells the server who got which: a deal of
    the room's deck is played as dealt; any other deck, or a deal from anyone but a
    game leader, is refused and changes nothing."""
    names = ["Ann", "Bob", "Cy", "Dee", "Eve"]
    created = server.create(rules="maffia", players=5, mode="leader", names=names, pace=0)
    others = small_room(server)

    async def test() -> None:
        async with players(server, 2) as (leader, host):
            await leader.rejoin(created["room"], created["host_token"])
            not_the_deck = ["mafia", "mafia", "doctor", "detective", "villager"]
            refusal = await refused(
                leader, {"type": "start", "deal": {"roles": not_the_deck}}, "not_allowed"
            )
            assert "not the room's deck" in refusal["message"]
            assert lobby_of(server, created["room"])["status"] == "lobby"
            roles = ["villager", "avenger", "detective", "doctor", "mafia"]
            await accepted(leader, {"type": "start", "deal": {"roles": roles}})
            await sync(leader)
            dealt = {
                e["data"]["player"]: e["data"]["role"]
                for e in leader.events
                if e["kind"] == "role_dealt"
            }
            assert dealt == dict(enumerate(roles))
            await host.rejoin(others["room"], others["host_token"])
            hand = {"type": "start", "deal": {"roles": ["mafia", "villager", "villager"]}}
            await refused(host, hand, "not_allowed")

    run(test)


def test_a_game_leader_room(server: Server) -> None:
    """The leader's device is the only one: it sees every event (seat -1, each event
    with its whole audience) and submits each player's choice with ``seat``, answering
    its own view's state id; nobody joins a named table, a spectator may not talk."""
    created = server.create(**LEADER_ROOM, spectators=True)
    room = created["room"]
    assert created["host_seat"] is None
    seats = lobby_of(server, room)["seats"]
    assert [(seat["name"], seat["bot"]) for seat in seats] == [
        ("Ann", None),
        ("Bob", None),
        ("Cy", None),
    ]

    async def test() -> None:
        async with players(server, 3) as (leader, eve, back):
            await refused(eve, {"type": "join", "room": room, "name": "Eve"}, "room_full")
            welcome = await leader.rejoin(room, created["host_token"])
            assert (welcome["seat"], welcome["host"]) == (LEADER, True)
            await accepted(leader, {"type": "start"})
            await sync(leader)
            view = leader.view
            assert view is not None and view["seat"] == LEADER and view["phase"] == "day"
            dealt = {e["data"]["player"]: e for e in leader.events if e["kind"] == "role_dealt"}
            assert sorted(dealt) == [0, 1, 2]
            assert [dealt[seat]["audience"] for seat in range(3)] == [[0], [1], [2]]
            mafia = next(seat for seat, e in dealt.items() if e["data"]["role"] == "mafia")

            await eve.send({"type": "watch", "room": room})
            await eve.until("welcome")
            await refused(eve, {"type": "chat", "text": "psst"}, "muted")

            # The leader rejoins on another device: seat -1, the whole log again.
            await back.rejoin(room, created["host_token"])
            again = await back.until("view")
            assert (again["seat"], again["from"]) == (LEADER, 0)
            assert again["events"] == leader.events

            vote = {"type": "act", "verb": "vote", "args": [mafia], "state_id": view["state_id"]}
            stale = {**vote, "state_id": view["state_id"] - 1, "seat": 0}
            await refused(leader, stale, "stale")
            await refused(leader, {**vote, "seat": 7}, "not_allowed")
            await refused(leader, {**vote, "seat": -2}, "not_allowed")
            await refused(leader, {**vote, "seat": mafia}, "illegal")  # not himself
            # The table points: everyone votes the mafia (who votes another).
            for seat in range(3):
                target = mafia if seat != mafia else (mafia + 1) % 3
                state = leader.view["state_id"]
                act = {**vote, "args": [target], "state_id": state, "seat": seat}
                await accepted(leader, act)
                ballots = [e["data"] for e in leader.events if e["kind"] == "ballot"]
                assert {"player": seat, "target": target, "vote": "vote"} in ballots
            await sync(leader)
            assert leader.view["finished"]

        game = lobby_of(server, room)["game"]
        download = httpx.get(f"{server.http}/api/games/{game}/scenario", timeout=10)
        replayed = sc.replay(sc.parse(download.json())).game
        assert [to_json(event) for event in replayed.view(LEADER).events] == leader.events

    run(test)


def test_a_game_leader_sees_each_seats_prompts(server: Server) -> None:
    created = server.create(**LEADER_ROOM)
    room = created["room"]

    async def test() -> None:
        async with players(server, 1) as (leader,):
            await leader.rejoin(room, created["host_token"])
            await accepted(leader, {"type": "start"})
            await sync(leader)
            view = leader.view
            assert view is not None and view["phase"] == "day"  # every seat votes
            assert [prompt["verb"] for prompt in view["prompts"]] == ["close"]
            table = {entry["seat"]: entry["prompts"] for entry in view["table"]}
            assert {0, 1, 2} <= set(table), view["table"]
            assert all(prompts and prompts[0]["choices"] for prompts in table.values())

    run(test)
