"""The server's limits over the wire, as a hostile client meets them: every cap, rate
limit and time-out of ``lupus.server.limits`` is refused at once, changes nothing, and
holds per connection, per seat (token) and per client (address), while another
room's ping round trip stays short.

The server runs with its shipped limits (``limits={}``), or with one of them changed
where reaching it with the defaults would take minutes. Each test is a client of its
own: it connects from loopback addresses of its own (127.0.x.y), so that the tests
of one server do not share a client's allowance.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import socket
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from tests.server_harness import RELAXED, Player, Server

from lupus.server.limits import ServerLimits

DEFAULT = ServerLimits()
_addresses = itertools.count(1)


def new_address() -> str:
    """A loopback address no other test of this module connects from."""
    n = next(_addresses)
    return f"127.0.{1 + n // 250}.{1 + n % 250}"


def http(server: Server, address: str | None = None) -> httpx.Client:
    transport = httpx.HTTPTransport(local_address=address or new_address())
    return httpx.Client(base_url=server.http, transport=transport, timeout=10)


def rooms_open(server: Server) -> int:
    return int(httpx.get(f"{server.http}/healthz", timeout=10).json()["rooms"])


def open_room(client: httpx.Client, **settings: Any) -> httpx.Response:
    body = {"rules": "mafia-classic", "players": 3, "host_name": "Ann", "pace": 0.0}
    # (spectators allowed: several tests watch from a second client)
    body["spectators"] = True
    return client.post("/api/rooms", json=body | {"bot_delay": 0.1} | settings)


def problem(answer: httpx.Response, status: int, code: str) -> None:
    assert answer.status_code == status, answer.text
    assert answer.json()["error"] == code, answer.text
    assert answer.json()["message"]


@pytest.fixture(scope="module")
def server(store_kind: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The server as shipped: no ``--limit``."""
    started = Server(tmp_path_factory.mktemp("limits") / "lupus.db", limits={}).start()
    try:
        yield started
    finally:
        started.stop()


def start(path: Path, limits: dict[str, object], *options: str) -> Server:
    return Server(path, limits=limits, options=options).start()


async def player(server: Server, address: str) -> Player:
    return await Player(server, address=address).connect()


async def answers(player: Player, refs: set[int], timeout: float = 20) -> dict[int, dict[str, Any]]:
    """The answers (by id) to the messages ``refs`` (pong, ack, welcome or error)."""
    got: dict[int, dict[str, Any]] = {}
    deadline = time.monotonic() + timeout
    while set(got) != refs:
        frame = await player.receive(deadline - time.monotonic())
        ref = frame.get("id")
        if ref in refs and frame["type"] in ("pong", "ack", "error", "welcome"):
            got[ref] = frame
    return got


# ---------------------------------------------------------------------- guesses
def test_wrong_codes_are_limited_per_client_over_http_and_the_websocket(server: Server) -> None:
    """10 wrong codes at once, then one every 2 s: past them every look-up is refused
    unread (a right code too, so that a refusal tells nothing), over HTTP and the
    WebSocket alike; another client is not slowed."""
    with http(server) as host:
        room = open_room(host).json()["room"]
    guesser = new_address()
    with http(server, guesser) as wrong:
        for n in range(DEFAULT.guess_burst):
            problem(wrong.get(f"/api/rooms/ZZZZ{n}"), 404, "unknown_room")
        problem(wrong.get(f"/api/rooms/{room}"), 429, "slow_down")
        problem(wrong.get(f"/api/rooms/{room}/qr.svg"), 429, "slow_down")
        problem(wrong.get(f"/api/games/{room}-1-00000000/scenario"), 429, "slow_down")

        async def watch() -> None:
            spy = await player(server, guesser)
            ref = await spy.send({"type": "watch", "room": room})
            reply = (await answers(spy, {ref}))[ref]
            assert (reply["type"], reply["code"]) == ("error", "slow_down")
            await spy.close()

        asyncio.run(watch())
        with http(server) as other:
            assert other.get(f"/api/rooms/{room}").status_code == 200
            problem(other.get("/api/rooms/ZZZZZ"), 404, "unknown_room")
        time.sleep(1 / DEFAULT.guess_rate + 0.3)  # one guess back
        assert wrong.get(f"/api/rooms/{room}").status_code == 200


def test_wrong_tokens_are_limited_per_client(server: Server) -> None:
    with http(server) as host:
        created = open_room(host).json()
    room, token = created["room"], created["host_token"]
    address = new_address()

    async def test() -> None:
        guesser = await player(server, address)
        refs = set()
        for n in range(DEFAULT.guess_burst):
            refs.add(await guesser.send({"type": "rejoin", "room": room, "token": f"x{n}"}))
        got = await answers(guesser, refs)
        assert {reply["code"] for reply in got.values()} == {"bad_token"}
        ref = await guesser.send({"type": "rejoin", "room": room, "token": token})
        reply = (await answers(guesser, {ref}))[ref]
        assert (reply["type"], reply["code"]) == ("error", "slow_down")  # the right one too
        # The room is unchanged and its host enters from his own address.
        host = await player(server, new_address())
        assert (await host.rejoin(room, token))["host"] is True
        await guesser.close()
        await host.close()

    asyncio.run(test())


def test_entering_rooms_is_rate_limited_per_client(server: Server) -> None:
    """Each ``join``, ``rejoin`` or ``watch`` is sent a room's whole view: a client has
    40 of them at once (every try counts), then 2 a second."""
    with http(server) as host:
        room = open_room(host).json()["room"]
    address = new_address()

    async def test() -> None:
        first = await player(server, address)
        refs = [await first.send({"type": "watch", "room": room}) for _ in range(50)]
        got = await answers(first, set(refs))
        kinds = [
            got[ref]["type"] if got[ref]["type"] != "error" else got[ref]["code"] for ref in refs
        ]
        assert kinds[0] == "welcome"
        assert set(kinds[1 : DEFAULT.entry_burst]) == {"not_allowed"}  # (in the room already)
        assert kinds[-1] == "slow_down"
        second = await player(server, address)  # the client's other connections too
        ref = await second.send({"type": "watch", "room": room})
        assert (await answers(second, {ref}))[ref]["code"] == "slow_down"
        other = await player(server, new_address())
        assert (await other.send({"type": "watch", "room": room})) and (
            await other.until("welcome")
        )
        for connection in (first, second, other):
            await connection.close()

    asyncio.run(test())


# ---------------------------------------------------------------------- rooms
def test_opening_rooms_is_rate_limited_per_client(server: Server) -> None:
    with http(server) as opener:
        for _ in range(DEFAULT.room_burst):
            assert open_room(opener).status_code == 201
        before = rooms_open(server)
        problem(open_room(opener), 429, "slow_down")
        assert rooms_open(server) == before  # nothing opened
        with http(server) as other:
            assert open_room(other).status_code == 201


def test_open_rooms_are_capped_per_client_and_in_all(tmp_path: Path) -> None:
    """20 open rooms per client (``too_many``), ``max_rooms`` in all (``server_full``),
    on a server that lets rooms be opened as fast as asked."""
    limits: dict[str, object] = {"room_burst": 1000, "room_rate": 1000.0, "max_rooms": 30}
    server = start(tmp_path / "lupus.db", limits)
    try:
        with http(server) as first, http(server) as second, http(server) as third:
            for _ in range(DEFAULT.rooms_per_client):
                assert open_room(first).status_code == 201
            problem(open_room(first), 429, "too_many")
            for _ in range(30 - DEFAULT.rooms_per_client):
                assert open_room(second).status_code == 201
            problem(open_room(second), 503, "server_full")
            problem(open_room(third), 503, "server_full")
            assert rooms_open(server) == 30
    finally:
        server.stop()


def test_room_creation_refuses_cross_site_requests(server: Server) -> None:
    """A page of another site may post a form or a ``text/plain`` body without asking:
    only a JSON body is read, and an ``Origin`` must be this server's."""
    body = json.dumps({"rules": "mafia-classic", "players": 3, "bot_delay": 0.1})
    before = rooms_open(server)
    with http(server) as client:
        for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data"):
            answer = client.post("/api/rooms", content=body, headers={"content-type": kind})
            problem(answer, 415, "not_json")
        problem(client.post("/api/rooms", content=body), 415, "not_json")  # no type at all
        evil = {"content-type": "application/json", "origin": "http://evil.example"}
        problem(client.post("/api/rooms", content=body, headers=evil), 403, "cross_site")
        assert rooms_open(server) == before
        ours = {"content-type": "application/json", "origin": server.http}
        assert client.post("/api/rooms", content=body, headers=ours).status_code == 201


def test_bots_wait_at_least_the_floor(server: Server) -> None:
    with http(server) as client:
        answer = open_room(client, bot_delay=DEFAULT.min_bot_delay / 2)
        problem(answer, 400, "not_allowed")
        assert "bot_delay" in answer.json()["message"]
        assert open_room(client, bot_delay=DEFAULT.min_bot_delay).status_code == 201


# ---------------------------------------------------------------------- messages
def test_a_seats_allowance_is_shared_by_all_its_connections(server: Server) -> None:
    """Twenty connections of one seat have one connection's allowance between them: of
    120 pings (6 a connection, far within each one's 60), at most 60 and what comes
    back at 20 a second are answered; the rest are ``slow_down``."""
    address = new_address()
    with http(server, address) as client:
        created = open_room(client).json()

    async def test() -> None:
        seat = [await player(server, address) for _ in range(20)]
        for connection in seat:
            await connection.rejoin(created["room"], created["host_token"])
        began = time.monotonic()
        sent = [[await c.send({"type": "ping"}) for _ in range(6)] for c in seat]
        got = [await answers(c, set(refs)) for c, refs in zip(seat, sent, strict=True)]
        elapsed = time.monotonic() - began
        replies = [reply for each in got for reply in each.values()]
        pongs = sum(reply["type"] == "pong" for reply in replies)
        slowed = sum(reply.get("code") == "slow_down" for reply in replies)
        assert pongs + slowed == 120
        allowed = DEFAULT.seat_message_burst + DEFAULT.seat_message_rate * elapsed + 1
        assert pongs <= allowed, (pongs, elapsed)
        assert pongs >= DEFAULT.seat_message_burst - 20  # (the rejoins took none of it)
        if allowed < 118:
            assert slowed
        for connection in seat:
            await connection.close()

    asyncio.run(test())


def test_a_seats_chat_allowance_is_shared_by_all_its_connections(server: Server) -> None:
    address = new_address()
    with http(server, address) as client:
        created = open_room(client).json()

    async def test() -> None:
        seat = [await player(server, address) for _ in range(5)]
        for connection in seat:
            await connection.rejoin(created["room"], created["host_token"])
        reader = await player(server, new_address())
        await reader.send({"type": "watch", "room": created["room"]})
        await reader.until("welcome")
        began = time.monotonic()
        sent = [[await c.send({"type": "chat", "text": "hi"}) for _ in range(3)] for c in seat]
        got = [await answers(c, set(refs)) for c, refs in zip(seat, sent, strict=True)]
        elapsed = time.monotonic() - began
        replies = [reply for each in got for reply in each.values()]
        acks = sum(reply["type"] == "ack" for reply in replies)
        assert acks <= DEFAULT.seat_chat_burst + DEFAULT.seat_chat_rate * elapsed + 1
        assert acks < 15 and acks >= DEFAULT.seat_chat_burst - 1
        # Nothing refused was said: the reader hears exactly the lines acknowledged.
        ref = await reader.send({"type": "ping"})
        heard = []
        while True:
            frame = await reader.receive()
            if frame["type"] == "pong" and frame["id"] == ref:
                break
            heard += [frame] if frame["type"] == "chat" else []
        assert len(heard) == acks
        for connection in [*seat, reader]:
            await connection.close()

    asyncio.run(test())


def test_a_clients_allowance_is_shared_by_all_its_connections(server: Server) -> None:
    """Thirty spectators' connections from one address: 600 pings, 20 a connection,
    share the client's 300 at once and 100 a second."""
    with http(server) as client:
        room = open_room(client).json()["room"]
    address = new_address()

    async def test() -> None:
        crowd = [await player(server, address) for _ in range(30)]
        for connection in crowd:
            await connection.send({"type": "watch", "room": room})
            await connection.until("welcome")
        began = time.monotonic()
        sent = [[await c.send({"type": "ping"}) for _ in range(20)] for c in crowd]
        got = [await answers(c, set(refs)) for c, refs in zip(crowd, sent, strict=True)]
        elapsed = time.monotonic() - began
        pongs = sum(r["type"] == "pong" for each in got for r in each.values())
        allowed = DEFAULT.client_message_burst + DEFAULT.client_message_rate * elapsed + 1
        assert pongs <= allowed, (pongs, elapsed)
        if allowed < 590:
            assert pongs < 600
        # Another client is answered at once.
        other = await player(server, new_address())
        ref = await other.send({"type": "ping"})
        assert (await answers(other, {ref}))[ref]["type"] == "pong"
        for connection in [*crowd, other]:
            await connection.close()

    asyncio.run(test())


def test_connections_are_capped_per_client(server: Server) -> None:
    address = new_address()

    async def test() -> None:
        held = [await player(server, address) for _ in range(DEFAULT.connections_per_client)]
        extra = await player(server, address)
        refused = await extra.receive()
        assert (refused["type"], refused["code"]) == ("error", "too_many")
        with pytest.raises(websockets.ConnectionClosed):
            await extra.receive()
        other = await player(server, new_address())  # another client connects
        ref = await other.send({"type": "ping"})
        assert (await answers(other, {ref}))[ref]["type"] == "pong"
        await held[0].close()
        await asyncio.sleep(0.2)
        again = await player(server, address)  # a place is free again
        ref = await again.send({"type": "ping"})
        assert (await answers(again, {ref}))[ref]["type"] == "pong"
        for connection in [*held[1:], other, again]:
            await connection.close()

    asyncio.run(test())


def test_a_frame_nested_too_deep_is_answered_with_its_id(server: Server) -> None:
    """1,900 levels of nesting (the JSON reader gives up at a thousand) in a frame of
    less than 4 KiB: ``malformed``, with the frame's id read without parsing it."""
    deep = '{"type": "ping", "id": 7, "x": ' + "[" * 1900 + "]" * 1900 + "}"
    deep_after = '{"x": ' + "[" * 1900 + "]" * 1900 + ', "type": "ping", "id": 8}'

    async def test() -> None:
        client = await player(server, new_address())
        for text, ref in ((deep, 7), (deep_after, 8)):
            await client.socket.send(text)
            reply = await client.until("error")
            assert (reply["code"], reply["id"]) == ("malformed", ref), reply
            assert "deep" in reply["message"]
        await client.close()

    asyncio.run(test())


# ---------------------------------------------------------------------- links
def test_join_links_are_never_made_from_an_unchecked_host(server: Server) -> None:
    """A long or odd ``Host`` (2,400 characters gave a 500 and cost each QR code 220 ms)
    gives the link of the address the connection reached; a host name is used."""
    ours = f"http://127.0.0.1:{server.port}/?room="
    with http(server) as client:
        for host in ("x" * 2400, "a" * 101, "evil.example/<script>", "a b", "[::1"):
            created = client.post(
                "/api/rooms",
                json={"rules": "mafia-classic", "players": 3, "bot_delay": 0.1},
                headers={"host": host},
            )
            assert created.status_code == 201, created.text
            assert created.json()["join_url"] == ours + created.json()["room"]
            began = time.perf_counter()
            image = client.get(
                f"/api/rooms/{created.json()['room']}/qr.svg", headers={"host": host}
            )
            assert image.status_code == 200
            assert f"<title>{ours}{created.json()['room']}</title>" in image.text
            assert time.perf_counter() - began < 2.0
        named = client.post(
            "/api/rooms",
            json={"rules": "mafia-classic", "players": 3, "bot_delay": 0.1},
            headers={"host": "lupus.example:8000"},
        ).json()
        assert named["join_url"] == f"http://lupus.example:8000/?room={named['room']}"


def test_new_qr_codes_are_rate_limited_per_client(server: Server) -> None:
    """A QR code is drawn once per link and kept; a client that asks for new ones (each
    with another host name) has 10 at once, then 2 a second."""
    with http(server) as client:
        room = open_room(client).json()["room"]
    with http(server) as asker:
        hosts = [f"h{n}.example" for n in range(DEFAULT.render_burst + 3)]
        codes = [
            asker.get(f"/api/rooms/{room}/qr.svg", headers={"host": host}).status_code
            for host in hosts
        ]
        assert codes[: DEFAULT.render_burst] == [200] * DEFAULT.render_burst
        assert 429 in codes[DEFAULT.render_burst :]
        kept = asker.get(f"/api/rooms/{room}/qr.svg", headers={"host": hosts[0]})
        assert kept.status_code == 200  # made already: served as it is


# ---------------------------------------------------------------------- time-outs
@pytest.fixture(scope="module")
def impatient(store_kind: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server with one-second time-outs and a public URL."""
    limits: dict[str, object] = {"header_timeout": 1.0, "body_timeout": 1.0, "frame_timeout": 1.0}
    path = tmp_path_factory.mktemp("impatient") / "lupus.db"
    started = start(path, limits, "--public-url", "http://game.example:9000/")
    try:
        yield started
    finally:
        started.stop()


def raw(server: Server, address: str | None = None) -> socket.socket:
    connection = socket.create_connection(
        ("127.0.0.1", server.port), timeout=10, source_address=(address or new_address(), 0)
    )
    return connection


def closed_after(connection: socket.socket) -> float:
    """Seconds until the server closes ``connection`` (whatever it sent before)."""
    began = time.monotonic()
    while connection.recv(4096):
        pass
    return time.monotonic() - began


def test_stalled_headers_are_cut_off(impatient: Server) -> None:
    with raw(impatient) as stalled:
        stalled.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        assert 0.5 < closed_after(stalled) < 5
    # A byte at a time keeps nothing open for longer.
    with raw(impatient) as dribbling:
        began = time.monotonic()
        dribbling.settimeout(0.3)
        with pytest.raises(OSError):  # (closed, or reset, once the time is up)
            for byte in b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 100:
                dribbling.sendall(bytes([byte]))
                time.sleep(0.1)
                try:
                    if dribbling.recv(1) == b"":
                        raise ConnectionResetError("closed")
                except TimeoutError:
                    pass
        assert time.monotonic() - began < 5


def test_a_stalled_body_is_refused(impatient: Server) -> None:
    with raw(impatient) as slow:
        slow.sendall(
            b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100\r\n\r\n{"
        )
        began = time.monotonic()
        answer = slow.recv(4096)
        assert answer.startswith(b"HTTP/1.1 408"), answer
        assert time.monotonic() - began < 5


def test_a_table_of_phones_behind_one_router_fits(server: Server) -> None:
    """Sixteen phones behind one home router are one client: each holds six HTTP
    connections open (as a browser does for a page's files) and its WebSocket, and all
    of them are served under the shipped limits (a trial at eight phones found the
    sixth phone's page blank when HTTP shared the WebSockets' cap)."""
    address = new_address()
    phones = 16
    held = [raw(server, address) for _ in range(6 * phones)]
    try:
        for connection in held:
            connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        for connection in held:
            assert connection.recv(4096).startswith(b"HTTP/1.1 200")

        async def test() -> None:
            sockets = [await player(server, address) for _ in range(phones)]
            for phone in sockets:
                ref = await phone.send({"type": "ping"})
                assert (await answers(phone, {ref}))[ref]["type"] == "pong"
            for phone in sockets:
                await phone.close()

        asyncio.run(test())
    finally:
        for connection in held:
            connection.close()


def test_http_connections_are_capped_per_client(impatient: Server) -> None:
    address = new_address()
    held = [raw(impatient, address) for _ in range(DEFAULT.http_connections_per_client)]
    try:
        with raw(impatient, address) as extra:
            assert closed_after(extra) < 0.5  # at once, not at the header time-out
        with raw(impatient) as other:
            other.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            assert other.recv(4096).startswith(b"HTTP/1.1 200")
    finally:
        for connection in held:
            connection.close()


def test_a_stalled_frame_is_cut_off_and_an_idle_connection_is_not(impatient: Server) -> None:
    async def test() -> None:
        idle = await player(impatient, new_address())
        stalled = await player(impatient, new_address())
        stalled.socket.transport.write(b"\x81\x85\x00\x00")  # a frame's first bytes
        began = time.monotonic()
        await asyncio.wait_for(stalled.socket.wait_closed(), 5)
        assert time.monotonic() - began > 0.5
        await asyncio.sleep(max(0.0, 1.5 - (time.monotonic() - began)))
        ref = await idle.send({"type": "ping"})
        assert (await answers(idle, {ref}))[ref]["type"] == "pong"
        await idle.close()

    asyncio.run(test())


def test_links_begin_with_the_public_url(impatient: Server) -> None:
    with http(impatient) as client:
        created = open_room(client).json()
        assert created["join_url"] == f"http://game.example:9000/?room={created['room']}"


# ---------------------------------------------------------------------- fairness
def test_a_flood_of_bots_does_not_slow_another_room(server: Server) -> None:
    """One client opens ten rooms of forty bots at the shortest delay and plays them
    again and again (each ``again`` sent as soon as a game ends); meanwhile a player
    of another room pings. Before the bots' work was sliced, such rooms pushed another
    room's ping to 180-280 ms. The bound is generous (a busy machine of two cores runs
    this server, the flood and the pings)."""
    flooder = new_address()
    rooms = []
    with http(server, flooder) as client:
        for _ in range(DEFAULT.room_burst):
            settings = {
                "players": 40,
                "host_name": None,
                "composition": {"mafia": 10, "villager": 30},
            }
            answer = open_room(client, **settings)
            assert answer.status_code == 201, answer.text
            rooms.append(answer.json())
    with http(server) as client:
        mine = open_room(client).json()

    async def flood(until: float) -> None:
        """Start every room, then keep sending ``again`` to each, reading nothing."""
        while time.monotonic() < until:
            for created in rooms:
                try:
                    async with websockets.connect(server.ws, local_addr=(flooder, 0)) as host:
                        await host.send(
                            json.dumps(
                                {
                                    "type": "rejoin",
                                    "room": created["room"],
                                    "token": created["host_token"],
                                }
                            )
                        )
                        await host.send(json.dumps({"type": "start", "fill": "heuristic"}))
                        await host.send(json.dumps({"type": "again"}))
                except (OSError, websockets.WebSocketException):
                    pass
            await asyncio.sleep(0.2)

    async def pings(count: int) -> list[float]:
        me = await player(server, new_address())
        await me.rejoin(mine["room"], mine["host_token"])
        times = []
        for _ in range(count):
            began = time.perf_counter()
            ref = await me.send({"type": "ping"})
            await answers(me, {ref})
            times.append(time.perf_counter() - began)
            await asyncio.sleep(0.03)
        await me.close()
        return times

    async def test() -> tuple[list[float], list[float]]:
        quiet = await pings(30)
        until = time.monotonic() + 6
        flooding = asyncio.create_task(flood(until))
        await asyncio.sleep(1.0)  # (the games are under way)
        loaded = await pings(100)
        await flooding
        return quiet, loaded

    quiet, loaded = asyncio.run(test())
    played = [httpx.get(f"{server.http}/api/rooms/{r['room']}", timeout=10).json() for r in rooms]
    assert all(lobby["number"] >= 1 for lobby in played)  # the flood was real
    median = statistics.median(loaded)
    worst = sorted(loaded)[int(len(loaded) * 0.95)]
    print(
        f"ping quiet median {statistics.median(quiet) * 1000:.1f} ms; flooded "
        f"median {median * 1000:.1f} ms, 95th percentile {worst * 1000:.1f} ms"
    )
    # Measured on two busy cores: 12 to 28 ms at the median, 23 to 70 ms at the 95th
    # percentile; without the slices, 400 to 800 ms at the 95th percentile.
    assert median < 0.06 and worst < 0.2, (median, worst)


def test_every_server_limit_is_documented() -> None:
    """docs/protocol.md names every ``--limit`` with its default."""
    doc = (Path(__file__).resolve().parents[1] / "docs" / "protocol.md").read_text("utf-8")
    for name in ServerLimits.model_fields:
        assert f"`{name}`" in doc, name


def test_the_gate_counts_each_connection_once() -> None:
    """In-process: a connection counted at its opening is uncounted once, however often
    it is let go; one the gate never counted (a test's) uncounts nothing."""
    from lupus.server.clients import Client
    from lupus.server.gate import Gate

    gate = Gate(ServerLimits(connections_per_client=2))
    first, second, third, stranger = Client(), Client(), Client(), Client()
    assert gate.connect(first, "10.0.0.1") is None
    assert gate.connect(second, "10.0.0.1") is None
    assert gate.connect(third, "10.0.0.1") == "too_many"
    gate.peer_of(stranger)
    for _ in range(2):
        gate.disconnect(first)
        gate.disconnect(stranger)
    assert (gate.connections, gate.peers["10.0.0.1"].connections) == (1, 1)
    assert gate.connect(third, "10.0.0.1") is None


# ---------------------------------------------------------------------- finished games
FLOOD = """
import asyncio, sys, httpx
async def main():
    transport = httpx.AsyncHTTPTransport(local_address=sys.argv[2])
    async with httpx.AsyncClient(base_url=sys.argv[1], transport=transport, timeout=60) as c:
        print("ready", flush=True)
        sys.stdin.readline()
        answers = await asyncio.gather(*(c.get(path) for path in sys.argv[3:]))
    print(" ".join(str(a.status_code) for a in answers))
asyncio.run(main())
"""


def test_a_burst_of_finished_games_does_not_slow_another_room(tmp_path: Path) -> None:
    """One client asks at once for as many finished games' stories and scenarios as
    its renders allow (``render_burst``): each replays a long game of thirty bots
    (tens of milliseconds). Made in one go on the event loop, they held another
    room's ping back for nearly all of them; made in slices, for a slice or two. The
    flood comes from a process of its own (started, and ready, before the pings
    begin), so that this one only pings; the bound is a share of the flood's own
    length (a busy machine of two cores runs the server, the flood and the pings)."""
    relaxed = {**RELAXED, "render_burst": DEFAULT.render_burst, "render_rate": 0.01}
    server = start(tmp_path / "lupus.db", relaxed)
    try:

        async def finished_game() -> str:
            created = server.create(
                rules="maffia", players=30, host_name=None, pace=0.01, bot_delay=0.0
            )
            host = await Player(server).connect()
            await host.rejoin(created["room"], created["host_token"])
            await host.send({"type": "start", "fill": "random"})
            await host.play(120)
            assert host.view is not None
            await host.close()
            return str(host.view["game"])

        async def test() -> tuple[str, list[float]]:
            games = await asyncio.gather(*(finished_game() for _ in range(3)))
            paths = [
                f"/api/games/{game}/{what}"
                for game in games
                for what in ("story", "story?lang=sv", "story?lang=en", "scenario")
            ][: DEFAULT.render_burst]
            me = await player(server, new_address())
            flood = await asyncio.create_subprocess_exec(
                sys.executable,
                "-c",
                FLOOD,
                server.http,
                new_address(),
                *paths,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
            )
            assert flood.stdin is not None and flood.stdout is not None
            assert await flood.stdout.readline() == b"ready\n"
            flood.stdin.write(b"go\n")
            began_flood = time.perf_counter()
            times = []
            while flood.returncode is None:
                began = time.perf_counter()
                await answers(me, {await me.send({"type": "ping"})})
                times.append(time.perf_counter() - began)
                await asyncio.sleep(0.002)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(flood.wait(), 0.001)
            lasted = time.perf_counter() - began_flood
            out, _ = await flood.communicate()
            await me.close()
            return out.decode(), times, lasted

        codes, times, lasted = asyncio.run(test())
    finally:
        server.stop()
    assert codes.split() == ["200"] * DEFAULT.render_burst, codes  # (the flood was real)
    worst = max(times)
    print(f"flood {lasted * 1000:.0f} ms: {len(times)} pings, worst {worst * 1000:.1f} ms")
    # Measured on two busy cores: the flood lasts 0.4 to 1 s, the worst ping 50 to 180
    # ms; made in one go, the worst ping waited for nearly the whole flood (520 of
    # 550 ms). A share of the flood's own length holds on a slower machine too.
    assert worst < lasted / 2, (worst, lasted)


def server_cpu(server: Server) -> float:
    """The server process's CPU time so far, in seconds (user and system)."""
    assert server.process is not None
    fields = Path(f"/proc/{server.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_a_newcomer_costs_the_same_in_a_crowded_room(tmp_path: Path) -> None:
    """Each connection that enters (or leaves) a room changes its lobby and nobody's
    view: the lobby goes to everyone, the whole view to the newcomer alone. Looking
    at every client's view again made each newcomer cost as many views as the room
    had clients (a spectator entering a room of 400 cost twice one entering a room of
    none, and a room of 2000 twenty times). Measured as the server's CPU time per
    spectator, which the machine's load does not stretch as it does a clock."""
    server = start(tmp_path / "lupus.db", RELAXED)
    try:
        created = server.create(
            rules="mafia-classic",
            players=8,
            host_name=None,
            spectators=True,
            bot_delay=0.0,
            pace=0.01,
        )

        async def test() -> tuple[float, float]:
            host = await Player(server).connect()
            await host.rejoin(created["room"], created["host_token"])
            await host.send({"type": "start", "fill": "random"})
            await host.play(60)
            sockets = []

            async def enter(count: int) -> float:
                before = server_cpu(server)
                for _ in range(count):
                    watcher = await websockets.connect(server.ws, max_queue=None)
                    sockets.append(watcher)
                    await watcher.send(json.dumps({"type": "watch", "room": created["room"]}))
                    assert json.loads(await watcher.recv())["type"] == "welcome"
                await asyncio.sleep(0.3)  # (the last frames written)
                return (server_cpu(server) - before) / count

            first, crowded = await enter(100), await enter(400)
            for watcher in sockets:
                await watcher.close()
            await host.close()
            return first, crowded

        first, crowded = asyncio.run(test())
    finally:
        server.stop()
    print(f"CPU per spectator: {first * 1000:.2f} ms, then {crowded * 1000:.2f} ms")
    # Measured: 0.9 and 1.0 ms; looking at every view again, 1.3 and 3.5 ms.
    assert crowded < 1.6 * first, (first, crowded)


def test_a_hosts_settings_cost_no_more_than_his_other_lobby_moves(tmp_path: Path) -> None:
    """A host's ``settings`` may come as fast as his messages may (20 a second, a
    client's 100): each was checked with a trial deal and set-up of the whole table,
    as a new room is (which comes once every five seconds), for a change that keeps
    the table as it is; it cost twice a lobby move that also changes, stores
    and shows the lobby (``add_bot``, ``kick``). Measured as the server's CPU time."""
    relaxed = {**RELAXED, "seat_message_burst": 10_000, "seat_message_rate": 10_000.0}
    server = start(tmp_path / "lupus.db", relaxed)
    try:
        created = server.create(rules="werewolf", players=30, host_name="Ann")
        count = 300

        async def cost(hosts: list[Player], messages: list[dict[str, Any]]) -> float:
            """CPU time per message, the host's connections sending them in turn (a
            connection's own rate: 60 at once)."""
            before = server_cpu(server)
            for number, message in enumerate(messages):
                host = hosts[number % len(hosts)]
                reply = await answers(host, {await host.send(message)})
                assert [r["type"] for r in reply.values()] == ["ack"], reply
            return (server_cpu(server) - before) / len(messages)

        async def test() -> tuple[float, float]:
            hosts = [await Player(server).connect() for _ in range(12)]
            for host in hosts:
                await host.rejoin(created["room"], created["host_token"])
            moves = [
                {"type": "add_bot", "seat": 5} if n % 2 == 0 else {"type": "kick", "seat": 5}
                for n in range(count)
            ]
            changes = [{"type": "settings", "spectators": n % 2 == 0} for n in range(count)]
            lobby, settings = await cost(hosts, moves), await cost(hosts, changes)
            for host in hosts:
                await host.close()
            return lobby, settings

        lobby, settings = asyncio.run(test())
    finally:
        server.stop()
    print(f"CPU per lobby move {lobby * 1000:.2f} ms, per settings {settings * 1000:.2f} ms")
    # Measured: 0.45 and 0.60 ms; with a trial deal, 0.45 and 1.05 ms.
    assert settings < 2 * lobby, (lobby, settings)


JUNK = """
import asyncio, sys, time, websockets
FRAMES = {
    "numbers": ('{"id": 1, "x": [' + ",".join(["1.5e300"] * 8000) + "]}")[:64000],
    "deep": ('{"id": 1, "x": ' + '[{"a": [' * 600)[:4096],
}
async def flood(frame):
    # (a generous handshake: the first connections flood while the last ones open)
    async with websockets.connect(
        sys.argv[1], local_addr=(sys.argv[2], 0), open_timeout=60
    ) as socket:
        async def read():
            async for _ in socket:
                pass
        reading = asyncio.create_task(read())
        began = time.monotonic()
        try:
            while time.monotonic() < began + 10:
                await socket.send(frame)
                # (a send with room in the buffer does not yield: without this the first
                # connection starves the others' handshakes and its own reader, which
                # would see the server close it)
                await asyncio.sleep(0)
            return "open"
        except websockets.ConnectionClosed:
            return f"closed:{time.monotonic() - began:.1f}"
        finally:
            reading.cancel()
async def main():
    print("ready", flush=True)
    sys.stdin.readline()
    frame = FRAMES[sys.argv[3]]
    print(" ".join(await asyncio.gather(*(flood(frame) for _ in range(4)))))
asyncio.run(main())
"""


@pytest.mark.parametrize("junk", ["numbers", "deep"])
def test_a_flood_of_junk_frames_does_not_slow_another_room(server: Server, junk: str) -> None:
    """Four connections of one client send junk as fast as they can: frames of 64 KiB
    of numbers (the JSON reader takes 5 ms to find their id) or of 4 KiB nested too
    deep, full of strings (4 ms to read their id without it). Every frame was read for
    its id, refused or not, and another client's ping waited 130 ms at the median
    (560 ms for the deep ones). Now a frame counts by its length (and a deep one by
    its strings), one refused for its rate is read only if short, and a connection
    that goes on after ``slow_down`` is closed. The flood comes from a process of its
    own, started and ready before the pings."""

    async def test() -> tuple[str, list[float]]:
        me = await player(server, new_address())
        flood = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            JUNK,
            server.ws,
            new_address(),
            junk,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        assert flood.stdin is not None and flood.stdout is not None
        assert await flood.stdout.readline() == b"ready\n"
        flood.stdin.write(b"go\n")
        times = []
        while flood.returncode is None:
            began = time.perf_counter()
            await answers(me, {await me.send({"type": "ping"})})
            times.append(time.perf_counter() - began)
            await asyncio.sleep(0.005)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(flood.wait(), 0.001)
        out, _ = await flood.communicate()
        await me.close()
        return out.decode(), times

    ends, times = asyncio.run(test())
    median = statistics.median(times)
    print(f"{junk}: {len(times)} pings, median {median * 1000:.1f} ms; {ends}")
    assert median < 0.03, median
    assert [end.split(":")[0] for end in ends.split()] == ["closed"] * 4, ends
