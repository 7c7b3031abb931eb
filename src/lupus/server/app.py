"""The ASGI application: the HTTP API, the WebSocket endpoint and the static pages.

``create_app`` builds it around one store; ``lupus serve`` runs it under uvicorn. The
HTTP API only opens rooms and hands out public facts (rulebooks, a lobby, a finished
game's scenario); everything else happens over ``/ws`` (``docs/protocol.md``). The
endpoints live in the ``routes_*`` modules, one per concern.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import secrets
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from lupus.server.hub import Hub
from lupus.server.limits import ServerLimits
from lupus.server.links import Renders
from lupus.server.metrics import Metrics, timed_store
from lupus.server.minds import Minds
from lupus.server.protocol import MAX_FRAME
from lupus.server.replies import MANIFEST_TYPE, MAX_BODY, STATIC
from lupus.server.routes_games import GameRoutes
from lupus.server.routes_public import PublicRoutes
from lupus.server.routes_rooms import RoomRoutes
from lupus.server.routes_ws import AsgiEndpoint, SocketRoute, write
from lupus.server.store import Store
from lupus.server.stores import is_postgres, open_store
from lupus.server.work import Worker

log = logging.getLogger("lupus.server")


def create_app(
    database: str | Path = ":memory:",
    *,
    store: Store | None = None,
    sweep_every: float = 60.0,
    limits: ServerLimits | None = None,
    public_url: str | None = None,
    node: str | None = None,
    minds: Minds | None = None,
) -> Starlette:
    """The server around ``store`` (by default ``database``'s: a SQLite file, or a
    ``postgresql://`` address, ``lupus.server.stores``; ``node`` names this process
    among those sharing a PostgreSQL database, the same after a restart: ``cluster``),
    with ``limits`` (``ServerLimits()`` by default); join links begin with ``public_url``
    if given (``links.checked_public_url``); ``minds``: the AI players' model, if any."""
    node = node or secrets.token_hex(6)
    kept: Store = store if store is not None else open_store(database, node=node)
    limits = limits or ServerLimits()

    def schedule(delay: float, call: Callable[[], None]) -> Any:
        return asyncio.get_running_loop().call_later(delay, call)

    metrics = Metrics()  # (this app's own registry: lupus.server.metrics)
    timed_store(kept, metrics.store_seconds)
    worker = Worker()
    hub = Hub(kept, schedule, limits=limits, work=worker.put, metrics=metrics, minds=minds)
    metrics.watch(lambda: len(hub.rooms), lambda: hub.gate.connections)
    if store is None and is_postgres(database):
        share(hub, kept, metrics)
    renders = Renders()  # QR codes and finished games' scenarios, made once

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hub.restore()
        sweeper = asyncio.create_task(sweep(hub, sweep_every))
        working = asyncio.create_task(worker.run())
        sharing = None if hub.cluster is None else asyncio.create_task(hub.cluster.run())
        try:
            yield
        finally:
            sweeper.cancel()
            working.cancel()
            if sharing is not None and hub.cluster is not None:
                sharing.cancel()
                hub.cluster.stop()  # (its rooms are let go before its clients are closed)
            for room in hub.rooms.values():
                for client in list(room.clients):
                    client.close()
            kept.close()
            if minds is not None:
                minds.close()
            log.info("stopped rooms=%d stored=yes", len(hub.rooms))

    public = PublicRoutes(hub, lambda: app.routes)
    rooms = RoomRoutes(hub, limits, public_url, renders)
    games = GameRoutes(hub, renders)
    socket = SocketRoute(hub, public_url)
    app = Starlette(routes=table(public, rooms, games, socket, metrics), lifespan=lifespan)
    app.state.hub = hub
    return app


def share(hub: Hub, kept: Store, metrics: Metrics) -> None:
    """The hub's part among the processes of one PostgreSQL database (``cluster``)."""
    from lupus.server.cluster import Cluster  # (psycopg: the postgres extra)
    from lupus.server.store_postgres import PostgresStore

    assert isinstance(kept, PostgresStore)
    hub.cluster = Cluster(hub, kept, metrics.lease_takeovers.inc)


def table(
    public: PublicRoutes,
    rooms: RoomRoutes,
    games: GameRoutes,
    socket: SocketRoute,
    metrics: Metrics,
) -> list[BaseRoute]:
    """Every path the server answers, and which endpoint answers it (``/metrics`` is
    for a Prometheus server, not for the pages: outside the OpenAPI document)."""
    return [
        Route("/", public.index),
        Route("/healthz", public.healthz),
        Route("/metrics", metrics.endpoint, include_in_schema=False),
        Route("/openapi.json", public.openapi, include_in_schema=False),
        Route("/api/rulebooks", public.rulebooks),
        Route("/api/rulebooks/{rulebook}/rules", public.rules),
        Route("/manifest.webmanifest", public.manifest),
        Route("/api/rooms", rooms.create_room, methods=["POST"]),
        Route("/api/rooms/{code}", rooms.lobby),
        Route("/api/rooms/{code}/qr.svg", rooms.join_code),
        Route("/api/ui/{lang}", public.interface),
        Route("/api/games/{game}/scenario", games.scenario),
        Route("/api/games/{game}/story", games.story),
        WebSocketRoute("/ws", AsgiEndpoint(socket.websocket), name="websocket"),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]


async def sweep(hub: Hub, every: float) -> None:
    """Every ``every`` seconds: expired rooms go, and what has lived that long is frozen
    out of the garbage collector's sight (games live for minutes: a full collection
    would otherwise walk them all). A finished game is freed by its reference counts
    (the engine makes no reference cycles); once an hour the frozen heap is collected
    for the cycles some bots leave."""
    rounds = 0
    while True:
        await asyncio.sleep(every)
        hub.sweep()
        rounds += 1
        if rounds * every >= 3600:
            rounds = 0
            gc.unfreeze()
            gc.collect()
        gc.freeze()


__all__ = ["MANIFEST_TYPE", "MAX_BODY", "MAX_FRAME", "STATIC", "create_app", "write"]
