"""A real lupus server for the tests, and clients that talk to it over the wire.

``Server`` runs ``python -m lupus serve`` in a subprocess on a free loopback port with
its own database file (so a test can kill it with SIGKILL and start it again on the
same file). ``Player`` is a WebSocket client that keeps the frames it received, merges
its views as a browser would, and answers its prompts at random.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any, ClassVar

import httpx
import websockets

from lupus.server.store import Store
from lupus.server.stores import open_store


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


RELAXED: dict[str, object] = {
    "max_rooms": 100_000,
    "rooms_per_client": 100_000,
    "room_burst": 100_000,
    "room_rate": 100_000.0,
    "guess_burst": 100_000,
    "guess_rate": 100_000.0,
    "render_burst": 100_000,
    "render_rate": 100_000.0,
    "entry_burst": 100_000,
    "entry_rate": 100_000.0,
    "connections_per_client": 10_000,
    "http_connections_per_client": 10_000,
    "client_message_burst": 100_000,
    "client_message_rate": 100_000.0,
    "client_chat_burst": 100_000,
    "client_chat_rate": 100_000.0,
    "min_bot_delay": 0.0,
}
"""The limits of the suites that test something else than them: every test of a module
runs on one loopback address (one client), opens dozens of rooms and plays with bots
that wait for nothing. ``tests/test_server_limits.py`` runs the server as shipped."""


UNTIMED: dict[str, object] = {"timers": "off", "absent_bots": False}
"""The rooms the suites open have no timers, and no bots for absent people, unless a
test asks: a room opened without ``timers`` has its rulebook's, up to minutes a step,
and a person who lets two public steps run out has his seat played by a bot, while
these suites test something else than them, with scripted people, bots and paces of
a fraction of a second (a loaded machine's slow client must not lose his seat to a
bot). ``tests/test_server_stall*.py`` test the rulebooks' timers and absent people."""


class Server:
    """``lupus serve`` in a subprocess (see the module docstring), with ``limits``
    (``--limit``: ``RELAXED`` unless told) and any other ``options`` of ``serve``.

    ``database_of`` says what ``--database`` a test's database file stands for: the file
    itself, or, while the suite runs on PostgreSQL (``store_kind`` in conftest.py), a
    database of its own on the tests' PostgreSQL server (the same file, the same
    database: a server restarted on it finds its rooms)."""

    database_of: ClassVar[Callable[[str], str]] = str

    def __init__(
        self,
        database: Path,
        port: int | None = None,
        limits: dict[str, object] | None = None,
        options: tuple[str, ...] = (),
    ) -> None:
        self.database = database
        self.address = Server.database_of(str(database))
        self.port = port or free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.log = database.with_suffix(f".{self.port}.log")
        self.limits = RELAXED if limits is None else limits
        self.options = options

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self) -> Server:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        command = [sys.executable, "-m", "lupus", "serve", "--port", str(self.port)]
        command += ["--database", self.address, "--log-level", "warning"]
        for name, value in self.limits.items():
            command += ["--limit", f"{name}={value}"]
        command += list(self.options)
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server stopped: {self.log.read_text()}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.http}/healthz", timeout=1).status_code == 200:
                    return self
            time.sleep(0.05)
        raise RuntimeError("the server did not start")

    def store(self) -> Store:
        """The server's store, opened from the test's process."""
        return open_store(self.address)

    def sql(self, statement: str) -> list[tuple[Any, ...]]:
        """One SQL statement on the server's database, SQLite or PostgreSQL (written
        in what both read), committed; its rows."""
        if self.address.startswith("postgresql://"):
            import psycopg

            with psycopg.connect(self.address, autocommit=True) as db:
                found = db.execute(statement)
                return found.fetchall() if found.description else []
        with contextlib.closing(sqlite3.connect(self.address)) as db, db:
            return db.execute(statement).fetchall()

    def kill(self) -> None:
        """SIGKILL: nothing is flushed, nothing is closed."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> int:
        """SIGTERM, the graceful stop; its exit status."""
        assert self.process is not None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        return int(self.process.returncode)

    def create(self, **settings: Any) -> dict[str, Any]:
        """A room opened with ``settings``: without timers unless they are given (see
        ``UNTIMED``)."""
        answer = httpx.post(f"{self.http}/api/rooms", json=UNTIMED | settings, timeout=10)
        assert answer.status_code == 201, answer.text
        return dict(answer.json())


def store_at(database: Path) -> Store:
    """The store a server on ``database`` keeps its games in, opened from the test."""
    return open_store(Server.database_of(str(database)))


@contextlib.contextmanager
def running(database: Path) -> Iterator[Server]:
    server = Server(database).start()
    try:
        yield server
    finally:
        server.stop()


class Player:
    """One WebSocket client (see the module docstring)."""

    def __init__(
        self, server: Server, rng: random.Random | None = None, address: str | None = None
    ) -> None:
        self.server = server
        self.address = address  # the loopback address it connects from (a client of its own)
        self.rng = rng or random.Random(0)
        self.socket: Any = None
        self.frames: list[dict[str, Any]] = []  # every frame received, in order
        self.events: list[dict[str, Any]] = []  # the merged view's events
        self.lines: list[str] = []
        self.view: dict[str, Any] | None = None  # the latest view message
        self.lobby: dict[str, Any] | None = None
        self.token: str | None = None
        self.seat: int | None = None
        self.next_id = 0
        self.acked: list[dict[str, Any]] = []  # the actions the server acknowledged

    async def connect(self) -> Player:
        local = None if self.address is None else (self.address, 0)
        self.socket = await websockets.connect(self.server.ws, max_size=2**24, local_addr=local)
        return self

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()

    async def send(self, message: dict[str, Any]) -> int:
        self.next_id += 1
        await self.socket.send(json.dumps({**message, "id": self.next_id}))
        return self.next_id

    async def receive(self, timeout: float = 10.0) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(await asyncio.wait_for(self.socket.recv(), timeout))
        self.frames.append(frame)
        if frame["type"] == "view":
            if frame["from"] == 0:
                self.events, self.lines = [], []
            assert frame["from"] == len(self.events), "a view skipped events"
            self.events += frame["events"]
            self.lines += frame["lines"]
            self.view = frame
        elif frame["type"] == "lobby":
            self.lobby = frame
        elif frame["type"] == "welcome":
            self.seat = frame["seat"]
            self.token = frame["token"] or self.token
        return frame

    async def until(self, kind: str, timeout: float = 10.0) -> dict[str, Any]:
        """Frames until one of ``kind`` (returned)."""
        while True:
            frame = await self.receive(timeout)
            if frame["type"] == kind:
                return frame

    async def answer(self, ref: int, timeout: float = 10.0) -> dict[str, Any]:
        """Frames until the ``ack`` or ``error`` answering message ``ref``."""
        while True:
            frame = await self.receive(timeout)
            if frame["type"] in ("ack", "error") and frame.get("id") == ref:
                return frame

    async def join(self, room: str, name: str) -> dict[str, Any]:
        await self.send({"type": "join", "room": room, "name": name})
        return await self.until("welcome")

    async def rejoin(self, room: str, token: str) -> dict[str, Any]:
        self.token = token
        await self.send({"type": "rejoin", "room": room, "token": token})
        return await self.until("welcome")

    async def play(self, timeout: float = 60.0) -> None:
        """Answer prompts at random until the game is over (a spectator just reads)."""
        deadline = time.monotonic() + timeout
        while self.view is None or not self.view["finished"]:
            if time.monotonic() > deadline:
                raise TimeoutError("the game did not end")
            view = self.view
            if view is not None and view["waiting"] and view["prompts"]:
                await self.act_randomly(view)
            else:
                await self.receive(deadline - time.monotonic())

    async def act_randomly(self, view: dict[str, Any]) -> dict[str, Any]:
        prompt = self.rng.choice(view["prompts"])
        choice = self.rng.choice(prompt["choices"])
        action = {"type": "act", "verb": prompt["verb"], "args": choice["args"]}
        ref = await self.send({**action, "state_id": view["state_id"]})
        reply = await self.answer(ref)
        if reply["type"] == "ack":
            self.acked.append(action)
        else:
            assert moved_on(reply), reply  # (the game moved first: look again)
        return reply


def moved_on(reply: dict[str, Any]) -> bool:
    """Whether a refusal only says the game moved on before the action came: a bot or
    a timer answered first (``stale``), the step the view shows is over while the
    night's pacing still shows it (refused as a seat with nothing to do is), or the
    game is over (its last frame is on its way)."""
    code, reason = reply.get("code"), reply.get("reason")
    if code == "stale" or (code, reason) == ("not_allowed", "no_game"):
        return True
    detail = str(reply.get("fields", {}).get("detail", ""))
    return (code, reason) == ("illegal", "illegal") and detail.endswith("has nothing to do now")


@contextlib.asynccontextmanager
async def players(server: Server, count: int) -> AsyncIterator[list[Player]]:
    made = [await Player(server, random.Random(n)).connect() for n in range(count)]
    try:
        yield made
    finally:
        for player in made:
            with contextlib.suppress(Exception):
                await player.close()


async def host_of(server: Server, created: dict[str, Any]) -> Player:
    """The room's host, in it, with its lobby read."""
    host = await Player(server).connect()
    await host.rejoin(created["room"], created["host_token"])
    await host.until("lobby")
    return host


async def ask(player: Player, **message: Any) -> dict[str, Any]:
    """A message and its answer (``ack`` or ``error``)."""
    return await player.answer(await player.send(message))
