"""Time that moves only when a test runs the scheduled calls: a room's clocks (epoch
and monotonic alike) and its scheduler, driven by hand."""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable
from typing import Any


class Clock:
    """Time that moves only when the test runs the scheduled calls. ``lag``: how late
    each call runs after it was due (a busy machine), given the call's order."""

    def __init__(self, lag: Callable[[int], float] | None = None) -> None:
        self.now = 1_000_000.0
        self.calls: list[tuple[float, int, Callable[[], None]]] = []
        self.order = itertools.count()
        self.lag = lag

    def __call__(self) -> float:
        return self.now

    def schedule(self, delay: float, call: Callable[[], None]) -> Any:
        order = next(self.order)
        late = self.lag(order) if self.lag is not None else 0.0
        entry = (self.now + delay + late, order, call)
        heapq.heappush(self.calls, entry)
        return Handle(self, entry)

    def run(self, until: Callable[[], bool], limit: int = 100_000) -> None:
        for _ in range(limit):
            if until() or not self.calls:
                return
            at, _, call = heapq.heappop(self.calls)
            self.now = max(self.now, at)
            call()
        raise AssertionError("the room never got there")


class Handle:
    def __init__(self, clock: Clock, entry: tuple[float, int, Callable[[], None]]) -> None:
        self.clock, self.entry = clock, entry

    def cancel(self) -> None:
        if self.entry in self.clock.calls:
            self.clock.calls.remove(self.entry)
            heapq.heapify(self.clock.calls)
