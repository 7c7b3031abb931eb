"""What a server process measures of itself, for ``GET /metrics`` (Prometheus' text format).

Each application has its own ``Metrics`` and its own ``CollectorRegistry`` (never
prometheus-client's global one), so that two servers in one process, as a test may
start, count apart. Nothing in it names a room, a seat or a token: rooms and
connections are counts, and the only labels are a fixed handful of words (an action's
outcome, a store write's kind), so that a scrape tells an operator how busy the server
is and nothing about any game.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Callable
from functools import wraps
from types import TracebackType
from typing import Any, Final

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.gc_collector import GCCollector
from prometheus_client.platform_collector import PlatformCollector
from prometheus_client.process_collector import ProcessCollector
from starlette.requests import Request
from starlette.responses import Response

ACTION_BUCKETS: Final = (
    0.0005,
    0.001,
    0.0025,
    0.005,
    0.01,
    0.025,
    0.05,
    0.1,
    0.25,
    0.5,
    1.0,
    2.5,
    5.0,
)
"""Seconds, from half a millisecond (an action on an idle server) to seconds (a server
far past its knee: docs/performance.md puts 100 ms at about 1,000 rooms)."""

COMMIT_BUCKETS: Final = (
    0.0001,
    0.00025,
    0.0005,
    0.001,
    0.0025,
    0.005,
    0.01,
    0.025,
    0.05,
    0.1,
    0.25,
    0.5,
    1.0,
)
"""Seconds, from a tenth of a millisecond (a SQLite commit in the WAL, which waits for
no fsync) to a second (a database server far away, or stalled)."""

STORE_WRITES: Final = (
    "save_room",
    "start_game",
    "append_action",
    "append_chat",
    "finish_game",
    "drop_room",
)
"""The ``Store`` methods that commit (``store.Store``): each is timed by ``timed_store``."""


class Metrics:
    """One server's instruments, in a registry of its own (see the module docstring)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        registry = self.registry
        # The process' own figures (CPU seconds, memory, open files, the collector's
        # rounds), which prometheus-client reads from the system at each scrape.
        ProcessCollector(registry=registry)
        PlatformCollector(registry=registry)
        GCCollector(registry=registry)
        self.rooms = Gauge(
            "lupus_rooms_open",
            "Rooms this process holds open now (in a lobby, playing or finished).",
            registry=registry,
        )
        """How many rooms are open: the load an operator sizes a server by (each open
        room's game lives in memory)."""
        self.connections = Gauge(
            "lupus_connections",
            "WebSocket connections open now (admitted by the server's limits).",
            registry=registry,
        )
        """Open WebSockets, against the ``max_connections`` limit: a server close to it
        refuses newcomers."""
        self.actions = Counter(
            "lupus_actions",
            "Actions clients sent (act messages), by outcome: accepted or refused.",
            ["outcome"],
            registry=registry,
        )
        """Actions a second (its rate), and how many are refused: a surge of refusals
        is a client out of step with the server (stale views) or a broken client."""
        self.accepted = self.actions.labels("accepted")
        self.refused = self.actions.labels("refused")
        self.action_seconds = Histogram(
            "lupus_action_seconds",
            "From a client's action read to the frames it caused handed to the sockets.",
            buckets=ACTION_BUCKETS,
            registry=registry,
        )
        """The latency players feel, as the server sees it (the engine, the store's
        commit, every seat's view written): the figure docs/performance.md measures
        from outside, whose 99th percentile says when a server is past its knee."""
        self.store_seconds = Histogram(
            "lupus_store_commit_seconds",
            "How long each write of the store took to commit, by write.",
            ["write"],
            buckets=COMMIT_BUCKETS,
            registry=registry,
        )
        """Every action waits for its commit before anyone hears of it: a slow disk or
        database shows here before it shows in the actions' latency."""
        self.lease_takeovers = Counter(
            "lupus_lease_takeovers",
            "Rooms this process took over from another whose lease had run out.",
            registry=registry,
        )
        """With several processes on one database, a takeover is a process that died
        or stalled: each should match a restart the operator knows of."""
        self.acting = Acting(self)

    def watch(self, rooms: Callable[[], int], connections: Callable[[], int]) -> None:
        """Read the open rooms and connections from the server at each scrape (nothing
        is counted on the way: a gauge's function costs the hot path nothing)."""
        self.rooms.set_function(lambda: float(rooms()))
        self.connections.set_function(lambda: float(connections()))

    def text(self) -> bytes:
        """Every metric, in Prometheus' text format."""
        return generate_latest(self.registry)

    async def endpoint(self, request: Request) -> Response:
        """``GET /metrics``, for a Prometheus server to scrape."""
        return Response(self.text(), media_type=CONTENT_TYPE_LATEST)


class Acting:
    """``with metrics.acting:`` around a client's action: it is counted as accepted or
    refused (an exception: its ``error``), and an accepted one's latency is observed
    once the loop has run the connections' writers it woke (``Metrics.action_seconds``).

    The views are written into every connection's outbox before the block ends, and
    each outbox wakes its writer then; a callback scheduled after that runs after those
    writers have handed their frames to their sockets. While the night's pacing holds
    a step back, what it caused is the frames sent at once (the ``ack``...), not the
    views released later. Without a running loop (a test's hub), it is observed at once.
    """

    __slots__ = ("metrics", "started")

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics
        self.started = 0.0

    def __enter__(self) -> None:
        self.started = time.perf_counter()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if kind is not None:
            self.metrics.refused.inc()
            return
        self.metrics.accepted.inc()
        sent = self.sent
        try:
            asyncio.get_running_loop().call_soon(sent, self.started)
        except RuntimeError:
            sent(self.started)

    def sent(self, started: float) -> None:
        self.metrics.action_seconds.observe(time.perf_counter() - started)


def timed_store(store: object, seconds: Histogram, writes: tuple[str, ...] = STORE_WRITES) -> None:
    """Time each of ``store``'s ``writes`` into ``seconds`` (labelled by the write's
    name), whichever store it is: each method is replaced on the instance by one that
    times it (an ``async`` one by an ``async`` one), so that the store's class knows
    nothing of metrics and a new store is timed by the same call."""
    for name in writes:
        setattr(store, name, timed(getattr(store, name), seconds.labels(name)))


def timed(method: Callable[..., Any], seconds: Any) -> Callable[..., Any]:
    """``method``, observing how long each call took (raised or not) into ``seconds``."""
    clock = time.perf_counter
    if inspect.iscoroutinefunction(method):

        @wraps(method)
        async def timed_async(*args: Any, **kwargs: Any) -> Any:
            started = clock()
            try:
                return await method(*args, **kwargs)
            finally:
                seconds.observe(clock() - started)

        return timed_async

    @wraps(method)
    def timed_call(*args: Any, **kwargs: Any) -> Any:
        started = clock()
        try:
            return method(*args, **kwargs)
        finally:
            seconds.observe(clock() - started)

    return timed_call
