"""Several ``lupus serve`` processes on one PostgreSQL database serve the same rooms.

Two real servers on a real PostgreSQL (``pg_cluster``): a game played with seats
connected to both; a client moved from one to the other mid-night; the process that
runs the room killed (SIGKILL) or frozen (SIGSTOP) mid-game, and a rolling restart:
the game goes on and finishes, and every acknowledged action is in it.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import random
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
import websockets
from tests.pg_cluster import Cluster
from tests.server_harness import Player, Server
from tests.test_server_leaks import every_frame_checked

from lupus import scenario as sc
from lupus.rulebooks import available
from lupus.server.bus import channel
from lupus.server.envelope import Seal, fingerprint
from lupus.server.records import replayed
from lupus.server.stores import open_store


def on(database: str, root: Path, name: str) -> Server:
    server = Server(root / f"{name}.db")
    server.address = database
    return server


@pytest.fixture
def pair(pg_cluster: Cluster, tmp_path: Path) -> Iterator[tuple[Server, Server]]:
    """Two servers on one fresh database."""
    database = pg_cluster.database(str(tmp_path))
    first = on(database, tmp_path, "a").start()
    second = on(database, tmp_path, "b").start()
    try:
        yield first, second
    finally:
        for server in (first, second):
            if server.process is not None and server.process.poll() is None:
                server.stop()


def runner(server: Server) -> list[str]:
    return list(httpx.get(f"{server.http}/healthz", timeout=5).json()["runs"])


async def until_finished(person: Player, timeout: float = 90.0) -> None:
    deadline = time.monotonic() + timeout
    while person.view is None or not person.view["finished"]:
        assert time.monotonic() < deadline, "the game did not finish"
        await person.receive(timeout=deadline - time.monotonic())


def scenario_of(server: Server, room: str) -> Any:
    lobby = httpx.get(f"{server.http}/api/rooms/{room}", timeout=10).json()
    answer = httpx.get(f"{server.http}/api/games/{lobby['game']}/scenario", timeout=10)
    assert answer.status_code == 200, answer.text
    return sc.replay(sc.parse(answer.json()))


def test_a_game_with_seats_on_both_processes(pair: tuple[Server, Server]) -> None:
    first, second = pair
    created = first.create(rules="werewolf", players=8, host_name="Ann", bot_delay=0, pace=0)
    room = created["room"]
    assert runner(first) == [room] and runner(second) == []

    async def play() -> None:
        host = await Player(first).connect()
        bob = await Player(second).connect()
        cy = await Player(second).connect()
        try:
            assert (await host.rejoin(room, created["host_token"]))["seat"] == 0
            assert (await bob.join(room, "Bob"))["seat"] == 1
            assert (await cy.join(room, "Cy"))["seat"] == 2
            ref = await host.send({"type": "start", "fill": "heuristic"})
            assert (await host.answer(ref))["type"] == "ack"
            await asyncio.gather(host.play(), bob.play(), cy.play())
            for person in (host, bob, cy):
                assert person.view is not None and person.view["finished"]
                assert person.events[-1]["kind"] == "game_over"
            assert bob.events == [e for e in bob.events]  # (merged without a gap)
        finally:
            for person in (host, bob, cy):
                await person.close()

    asyncio.run(play())
    assert runner(first) == [room] and runner(second) == []
    replayed = scenario_of(second, room)  # (the other process reads the stored game)
    assert replayed.game.finished


class Person:
    """A seat's person who reconnects, to whichever server is given, when cut off."""

    def __init__(self, name: str, seed: int) -> None:
        self.name, self.rng = name, random.Random(seed)
        self.player: Player | None = None
        self.token: str | None = None
        self.acked: list[tuple[int, str, tuple[Any, ...]]] = []

    async def enter(self, server: Server, room: str, token: str | None = None) -> None:
        if self.player is not None:
            await self.player.close()
        self.player = await Player(server, self.rng).connect()
        token = token or self.token
        welcome = await (
            self.player.rejoin(room, token) if token else self.player.join(room, self.name)
        )
        self.token = token or welcome["token"]
        self.seat = welcome["seat"]

    async def step(self) -> bool:
        """Read one frame and act on a prompt if there is one; False once finished."""
        player = self.player
        assert player is not None
        view = player.view
        if view is not None and view["finished"]:
            return False
        if view is not None and view["waiting"] and view["prompts"]:
            before = len(player.acked)
            reply = await player.act_randomly(view)
            if reply["type"] == "ack":
                action = player.acked[before]
                self.acked.append((self.seat, action["verb"], tuple(action["args"])))
        else:
            await player.receive(timeout=2.0)
        return True


async def play_on(
    people: list[Person],
    servers: dict[str, Server],
    room: str,
    acks: int | None = None,
    timeout: float = 120.0,
) -> None:
    """Everyone plays at once until ``acks`` more actions are acknowledged (or to the
    end), reconnecting anyone cut off to a live server."""
    deadline = time.monotonic() + timeout
    start = sum(len(person.acked) for person in people)

    def enough() -> bool:
        return acks is not None and sum(len(p.acked) for p in people) - start >= acks

    async def plays(person: Person) -> None:
        while not enough():
            assert time.monotonic() < deadline, f"the game did not go on: {stuck(people, servers)}"
            try:
                if not await person.step():
                    return
            except TimeoutError:
                continue
            except (websockets.ConnectionClosed, OSError):
                live = [s for s in servers.values() if s.process and s.process.poll() is None]
                with contextlib.suppress(TimeoutError, websockets.ConnectionClosed, OSError):
                    await person.enter(random.choice(live), room)

    await asyncio.gather(*(plays(person) for person in people))


def stuck(people: list[Person], servers: dict[str, Server]) -> str:
    """Where everyone stands, for a game that did not go on."""
    said = []
    for person in people:
        view = person.player.view if person.player is not None else None
        if view is not None:
            view = {k: view.get(k) for k in ("state_id", "waiting", "finished", "phase")}
        server = person.player.server.port if person.player is not None else None
        said.append(f"{person.name} on {server}: {view}")
    for name, server in servers.items():
        with contextlib.suppress(httpx.HTTPError):
            said.append(f"{name} {server.port} runs {runner(server)}")
    with contextlib.suppress(Exception):
        store = open_store(next(iter(servers.values())).address)
        for record in store.open_rooms():
            if record.game is not None:
                game = replayed(record.game.header, record.game.actions)
                said.append(
                    f"stored: {len(record.game.actions)} actions, waits for "
                    f"{list(game.waiting())}, step {type(game.step).__name__}"
                )
        store.close()
    return "; ".join(said)


def every_ack_kept(server: Server, room: str, people: list[Person]) -> None:
    replayed = scenario_of(server, room)
    assert replayed.game.finished
    for person in people:
        mine = [
            (a.actor, a.verb, tuple(a.args))
            for a in replayed.game.history
            if a.actor == person.seat
        ]
        assert mine[: len(person.acked)] == person.acked, person.name


def owner_within(servers: list[Server], room: str, seconds: float) -> Server:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for server in servers:
            with contextlib.suppress(httpx.HTTPError):
                if room in runner(server):
                    return server
        time.sleep(0.1)
    raise AssertionError(f"nobody took room {room} over within {seconds} s")


def open_table(first: Server) -> tuple[str, str]:
    created = first.create(rules="werewolf", players=8, host_name="Ann", bot_delay=0.05, pace=0)
    return created["room"], created["host_token"]


async def seated(first: Server, second: Server, room: str, token: str) -> list[Person]:
    host, bob = Person("Ann", 1), Person("Bob", 2)
    await host.enter(first, room, token)
    await bob.enter(second, room)
    assert host.player is not None
    ref = await host.player.send({"type": "start", "fill": "heuristic"})
    assert (await host.player.answer(ref))["type"] == "ack"
    return [host, bob]


async def to_the_end(people: list[Person], servers: dict[str, Server], room: str) -> None:
    await play_on(people, servers, room)
    for person in people:
        assert person.player is not None
        await person.player.close()


def test_the_rooms_process_killed_mid_game_another_takes_over(
    pair: tuple[Server, Server],
) -> None:
    first, second = pair
    room, token = open_table(first)
    servers = {"a": first, "b": second}

    async def play() -> None:
        people = await seated(first, second, room, token)
        await play_on(people, servers, room, acks=2)
        first.kill()
        killed = time.monotonic()
        assert owner_within([second], room, 10.0) is second
        assert time.monotonic() - killed <= 10.0
        figures = httpx.get(f"{second.http}/metrics", timeout=5).text
        assert "lupus_lease_takeovers_total 1.0" in figures
        await to_the_end(people, servers, room)
        every_ack_kept(second, room, people)

    asyncio.run(play())


def test_a_frozen_process_wakes_to_find_its_room_taken_and_forks_nothing(
    pair: tuple[Server, Server],
) -> None:
    first, second = pair
    room, token = open_table(first)
    servers = {"a": first, "b": second}

    async def play() -> None:
        people = await seated(first, second, room, token)
        await play_on(people, servers, room, acks=2)
        assert first.process is not None
        first.process.send_signal(signal.SIGSTOP)
        try:
            assert owner_within([second], room, 12.0) is second
        finally:
            first.process.send_signal(signal.SIGCONT)
        await to_the_end(people, servers, room)
        assert room not in runner(first), "the woken process let the room go"
        every_ack_kept(second, room, people)

    asyncio.run(play())


def test_a_rolling_restart_interrupts_no_game(pair: tuple[Server, Server]) -> None:
    first, second = pair
    room, token = open_table(first)
    servers = {"a": first, "b": second}

    async def play() -> None:
        people = await seated(first, second, room, token)
        for stopping, other in ((first, second), (second, first)):
            await play_on(people, servers, room, acks=1)
            began = time.monotonic()
            assert stopping.stop() == 0
            assert time.monotonic() - began < 20.0
            assert owner_within([other], room, 10.0) is other
            stopping.start()
        await to_the_end(people, servers, room)
        every_ack_kept(first, room, people)

    asyncio.run(play())


def test_a_client_moved_to_the_other_process_mid_night(pair: tuple[Server, Server]) -> None:
    """Bob plays from the room's process, his phone drops mid-night and comes back
    through the other one (a load balancer's choice): he is sent his whole view again,
    prompts included, and plays on to the end."""
    first, second = pair
    room, token = open_table(first)
    servers = {"a": first, "b": second}

    async def play() -> None:
        host, bob = Person("Ann", 1), Person("Bob", 2)
        await host.enter(first, room, token)
        await bob.enter(first, room)
        assert host.player is not None
        ref = await host.player.send({"type": "start", "fill": "heuristic"})
        assert (await host.player.answer(ref))["type"] == "ack"
        people = [host, bob]
        await play_on(people, servers, room, acks=1)
        assert bob.player is not None and bob.player.view is not None
        before = bob.player.view["state_id"]
        await bob.enter(second, room)  # (rejoins with his token, through the other)
        assert bob.player is not None
        while bob.player.view is None:
            await bob.player.receive()
        assert bob.player.view["from"] == 0 and bob.player.view["state_id"] >= before
        await to_the_end(people, servers, room)
        every_ack_kept(first, room, people)

    asyncio.run(play())


def test_the_relaying_process_killed_its_clients_come_back_through_the_other(
    pair: tuple[Server, Server],
) -> None:
    """The process that only relayed Bob dies: Bob reconnects to the room's process and
    plays on; the room's process forgets the dead one's clients once it stops beating."""
    first, second = pair
    room, token = open_table(first)
    servers = {"a": first, "b": second}

    async def play() -> None:
        people = await seated(first, second, room, token)
        await play_on(people, servers, room, acks=2)
        second.kill()
        await to_the_end(people, servers, room)
        every_ack_kept(first, room, people)

    asyncio.run(play())
    assert runner(first) == [room]
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:  # (the host's socket is closed: no connection)
        figures = httpx.get(f"{first.http}/metrics", timeout=5).text
        if "lupus_connections 0.0" in figures:
            break
        time.sleep(0.5)
    else:
        raise AssertionError("the dead process's clients are still counted")


def test_the_database_carries_sealed_envelopes_only(pair: tuple[Server, Server]) -> None:
    """Everything the processes say to each other, read as any role of the database
    may (``LISTEN`` on every channel): envelopes whose sealed part tells nothing, no
    token, frame or role. A message forged in a process's name is dropped."""
    first, second = pair
    created = first.create(rules="werewolf", players=8, host_name="Ann", bot_delay=0, pace=0)
    room = created["room"]
    heard: list[str] = []

    async def play() -> None:
        nodes = [node for (node,) in first.sql("SELECT id FROM nodes")]
        assert len(nodes) == 2
        async with await psycopg.AsyncConnection.connect(first.address, autocommit=True) as db:
            for node in nodes:
                await db.execute(f"LISTEN {channel(node)}")

            async def listen() -> None:
                async for note in db.notifies():
                    heard.append(note.payload)

            listening = asyncio.create_task(listen())
            host = await Player(first).connect()
            bob = await Player(second).connect()
            try:
                await host.rejoin(room, created["host_token"])
                tokens = [created["host_token"], (await bob.join(room, "Bob"))["token"]]
                await bob.close()
                bob = await Player(second).connect()
                assert (await bob.rejoin(room, tokens[1]))["seat"] == 1  # (its token crosses)
                ref = await host.send({"type": "start", "fill": "heuristic"})
                assert (await host.answer(ref))["type"] == "ack"
                await asyncio.gather(host.play(), bob.play())
                assert bob.view is not None and bob.view["finished"]
                # A message in the first process's name, not sealed by it, to the second:
                forged = {"k": "open", "c": 1, "a": "10.0.0.1", "r": '{"type":"watch"}'}
                fake, (_, theirs) = Seal(), node_of(first, second)
                envelope = {
                    "f": node_of(first, first)[0],
                    "y": base64.b64encode(fake.public).decode(),
                    "t": fingerprint(theirs),
                    "x": fake.seal(theirs, json.dumps(forged)),
                }
                to = channel(node_of(first, second)[0])
                with psycopg.connect(first.address, autocommit=True) as other:
                    other.execute("SELECT pg_notify(%s, %s)", (to, json.dumps(envelope)))
                await asyncio.sleep(1.0)
            finally:
                await host.close()
                await bob.close()
                listening.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await listening
        assert heard, "the processes said nothing to each other"
        everything = "\n".join(heard)
        for secret in (*tokens, '"view"', '"welcome"', '"role"', "werewolf", '"Bob"'):
            assert secret not in everything, secret
        for payload in heard:
            assert set(json.loads(payload)) <= {"f", "y", "t", "x", "k", "id", "n", "d", "i"}
        assert "bus_message_refused" in second.log.read_text()

    asyncio.run(play())


def node_of(asked: Server, server: Server) -> tuple[str, bytes]:
    """The name and public key ``server`` publishes (its port names it)."""
    for node, key in asked.sql("SELECT id, key FROM nodes"):
        if node.endswith(f":{server.port}"):
            return node, bytes(key)
    raise AssertionError(f"no process of port {server.port} in nodes")


@pytest.mark.parametrize("rules", available())
def test_every_frame_is_what_its_seat_may_know_on_two_processes(
    pair: tuple[Server, Server], rules: str
) -> None:
    """The leak test over the wire (``tests/test_server_leaks.py``), its connections
    spread over two processes: a relayed client is sent exactly what its seat may know,
    as one of the room's process's own."""
    every_frame_checked(list(pair), rules)
