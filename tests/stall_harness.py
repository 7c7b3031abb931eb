"""Clients for the no-stall suites (``tests/test_server_stall*.py``): people who read
every frame in the background, so that a person who does nothing stays connected (a
client that does not read is dropped once 256 frames wait), and a test asks when it
wants what has come.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Any

import websockets
from tests.server_harness import RELAXED, Player, Server

Frame = dict[str, Any]

QUICK: dict[str, object] = {**RELAXED, "host_grace": 1.0, "absent_grace": 0.3}
"""The server's limits in these suites: a host gone for a second passes his powers
on, a seat without a connection for 0.3 s is played by a bot."""


class Person(Player):
    """A person whose frames are read as they come (``listen``)."""

    def __init__(self, server: Server, name: str = "") -> None:
        super().__init__(server)
        self.name = name
        self.reader: asyncio.Task[None] | None = None
        self.came = asyncio.Event()
        self.gone = False  # the server closed the connection

    async def start(self) -> Person:
        await self.connect()
        return self

    def listen(self) -> None:
        """Read every frame from now on, in the background."""

        async def read() -> None:
            try:
                while True:
                    await self.receive(3600)
                    self.came.set()
            except (websockets.ConnectionClosed, asyncio.CancelledError):
                self.gone = True
                self.came.set()

        self.reader = asyncio.create_task(read())

    async def wait_for(self, found: Callable[[], Any], timeout: float = 20.0) -> Any:
        """Until ``found()`` is true (its value), while frames come in."""
        end = time.monotonic() + timeout
        while True:
            value = found()
            if value:
                return value
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.name or self.seat}: never came")
            self.came.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.came.wait(), min(left, 0.5))

    async def ask(self, message: Frame, timeout: float = 10.0) -> Frame:
        """Send ``message`` (while listening); its answer: ``ack`` or ``error``."""
        seen = len(self.frames)
        ref = await self.send(message)

        def answer() -> Frame | None:
            for frame in self.frames[seen:]:
                if frame["type"] in ("ack", "error") and frame.get("id") == ref:
                    return frame
            return None

        found: Frame = await self.wait_for(answer, timeout)
        return found

    async def enter(self, room: str, token: str | None = None, name: str = "") -> Frame:
        """``rejoin`` with a token or ``join`` under a name, then listen; the welcome."""
        if token is not None:
            welcome = await self.rejoin(room, token)
        else:
            welcome = await self.join(room, name or self.name)
        self.listen()
        return welcome

    async def leave(self) -> None:
        """Close the connection (its reader ends with it: a reader cancelled in the
        middle of a ``recv`` may never end)."""
        await self.close()
        if self.reader is not None:
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(self.reader, 10)

    def views(self) -> list[Frame]:
        return [frame for frame in self.frames if frame["type"] == "view"]

    def lobbies(self) -> list[Frame]:
        return [frame for frame in self.frames if frame["type"] == "lobby"]


async def four_seated(server: Server, **settings: Any) -> tuple[str, Person, list[Person]]:
    """A mafia-classic room of four (``settings`` added): Ann the host (seat 0), Bob, Cy
    and Dee, each connected and listening."""
    created = server.create(rules="mafia-classic", players=4, host_name="Ann", **settings)
    code = created["room"]
    ann = await Person(server, "Ann").start()
    await ann.enter(code, created["host_token"])
    others = []
    for name in ("Bob", "Cy", "Dee"):
        person = await Person(server, name).start()
        await person.enter(code, name=name)
        others.append(person)
    return code, ann, others
