"""Bots' work in slices, room by room, so that no room's bots slow another room.

A bot's move (or a bots' table's close of a step) is due after the room's
``bot_delay``; when it is due it is not run at once but put in its room's queue here.
The worker runs one job of each room in turn (a room of forty bots gets one move, then
the next room one), for at most ``WORK_SLICE`` seconds (2 ms), then lets the event loop serve
every connection before the next slice. Ten rooms of forty bots each owing a move at
the same moment were 400 calls in one turn of the loop (a ping of another room waited
for all of them, 180 to 280 ms); now a ping waits for a slice or two.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Callable

from lupus.server.limits import WORK_SLICE

log = logging.getLogger("lupus.server")


class Worker:
    """The server's queue of bots' work (see the module docstring)."""

    def __init__(self, budget: float = WORK_SLICE) -> None:
        self.budget = budget
        self.queues: dict[str, deque[Callable[[], None]]] = {}  # by room, in turn
        self.waiting: asyncio.Event | None = None
        self.done = 0  # jobs run (for tests and logs)

    def put(self, room: str, job: Callable[[], None]) -> None:
        """Run ``job`` in ``room``'s turn."""
        queue = self.queues.get(room)
        if queue is None:
            queue = self.queues[room] = deque()
        queue.append(job)
        if self.waiting is not None:
            self.waiting.set()

    def run_slice(self) -> None:
        """One slice: a job of each room in turn until the budget is spent."""
        queues = self.queues
        start = time.perf_counter()
        while queues:
            room = next(iter(queues))
            queue = queues.pop(room)
            job = queue.popleft()
            if queue:
                queues[room] = queue  # (back at the end of the turn)
            try:
                job()
            except Exception:
                log.exception("work_failed room=%s", room)
            self.done += 1
            if time.perf_counter() - start >= self.budget:
                return

    async def run(self) -> None:
        """Until cancelled: a slice, then the loop's other work, while there is work."""
        self.waiting = asyncio.Event()
        while True:
            if not self.queues:
                self.waiting.clear()
                await self.waiting.wait()
            self.run_slice()
            await asyncio.sleep(0)
