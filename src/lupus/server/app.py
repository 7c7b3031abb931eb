"""The ASGI application: the HTTP API, the WebSocket endpoint and the static pages.

``create_app`` builds it around one store; ``lupus serve`` runs it under uvicorn. The
HTTP API only opens rooms and hands out public facts (rulebooks, a lobby, a finished
game's scenario); everything else happens over ``/ws`` (``docs/protocol.md``).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import io
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from importlib import resources
from pathlib import Path
from typing import Any

import segno
from pydantic import ValidationError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket

from lupus.server import catalogue
from lupus.server.clients import Client
from lupus.server.hub import Hub, explain
from lupus.server.protocol import MAX_FRAME, VERSION
from lupus.server.records import replayed
from lupus.server.rooms import Room
from lupus.server.settings import RoomSettings
from lupus.server.store import SQLiteStore, Store

log = logging.getLogger("lupus.server")

STATIC = Path(str(resources.files("lupus.server") / "static"))

MAX_BODY = 16 * 1024
"""The largest request body the API reads (a room's settings)."""


def create_app(
    database: str | Path = ":memory:",
    *,
    store: Store | None = None,
    sweep_every: float = 60.0,
) -> Starlette:
    """The server around ``store`` (a SQLite file at ``database`` by default)."""
    kept: Store = store if store is not None else SQLiteStore(database)

    def schedule(delay: float, call: Callable[[], None]) -> Any:
        return asyncio.get_running_loop().call_later(delay, call)

    hub = Hub(kept, schedule)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hub.restore()
        sweeper = asyncio.create_task(sweep(hub, sweep_every))
        try:
            yield
        finally:
            sweeper.cancel()
            for room in hub.rooms.values():
                for client in list(room.clients):
                    client.close()
            kept.close()
            log.info("stopped rooms=%d stored=yes", len(hub.rooms))

    async def healthz(request: Request) -> Response:
        return JSONResponse({"status": "ok", "rooms": len(hub.rooms), "protocol": VERSION})

    async def rulebooks(request: Request) -> Response:
        return JSONResponse(catalogue.rulebooks(request.query_params.get("lang", "en")))

    async def interface(request: Request) -> Response:
        languages = catalogue.interface_languages()
        lang = str(request.path_params["lang"])
        if lang not in languages:
            return problem(404, "unknown_language", "the interface does not speak that language")
        words = catalogue.interface_words(lang)
        return JSONResponse({"lang": lang, "languages": languages, "words": words})

    def room_of(request: Request) -> Room | None:
        """The room a path's ``{code}`` names (codes are read in any case)."""
        return hub.rooms.get(str(request.path_params["code"]).upper())

    async def join_code(request: Request) -> Response:
        room = room_of(request)
        if room is None:
            return problem(404, "unknown_room", "there is no room with that code")
        # Made here, not by a page script: the link works without any outside service.
        image = io.BytesIO()
        link = join_url(request, room.code)
        segno.make(link, error="m").save(image, kind="svg", scale=8, border=2, title=link)
        return Response(
            image.getvalue(), media_type="image/svg+xml", headers={"Cache-Control": "max-age=3600"}
        )

    async def create_room(request: Request) -> Response:
        body = await bounded_body(request, MAX_BODY)
        if body is None:
            return problem(413, "too_long", f"a room's settings are at most {MAX_BODY} bytes")
        try:
            settings = RoomSettings.model_validate_json(body)
            room, token, seat = hub.create(settings)
        except ValidationError as exc:
            return problem(400, "malformed", explain(exc))
        except ValueError as exc:
            return problem(400, "not_allowed", str(exc))
        return JSONResponse(
            {
                "room": room.code,
                "join_url": join_url(request, room.code),
                "host_token": token,
                "host_seat": seat,
            },
            status_code=201,
        )

    async def lobby(request: Request) -> Response:
        room = room_of(request)
        if room is None:
            return problem(404, "unknown_room", "there is no room with that code")
        # (the text the room's clients are sent, written once per change)
        return Response(room.lobby_text(), media_type="application/json")

    async def scenario(request: Request) -> Response:
        game_id = str(request.path_params["game"])
        # A game that ended in a step the night's pacing still holds back is not over
        # for its players yet: its end (and every card) is told when they are shown it.
        room = hub.rooms.get(game_id.split("-", 1)[0].upper())
        if room is not None and room.game_id == game_id and room.shown_status != "finished":
            return problem(404, "unknown_game", "there is no finished game with that id")
        found = hub.store.scenario(game_id)
        # A running game's scenario holds every card: only a finished one is given. The
        # stored game itself says so (not its room, which may have expired or failed to
        # be restored while the game was still running).
        story = None if found is None else stored_scenario(*found)
        if story is None:
            return problem(404, "unknown_game", "there is no finished game with that id")
        return JSONResponse(story)

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def websocket(scope: Scope, receive: Receive, send: Send) -> None:
        socket = WebSocket(scope, receive, send)
        await socket.accept()
        client = Client()
        writer = asyncio.create_task(write(socket, send, client))
        try:
            while not client.closed:
                message = await receive()
                if message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text")
                if raw is None:
                    raw = message.get("bytes") or b""
                hub.handle(client, raw)
        finally:
            hub.leave(client)
            client.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 1.0)

    app = Starlette(
        routes=[
            Route("/", index),
            Route("/healthz", healthz),
            Route("/api/rulebooks", rulebooks),
            Route("/api/rooms", create_room, methods=["POST"]),
            Route("/api/rooms/{code}", lobby),
            Route("/api/rooms/{code}/qr.svg", join_code),
            Route("/api/ui/{lang}", interface),
            Route("/api/games/{game}/scenario", scenario),
            WebSocketRoute("/ws", AsgiEndpoint(websocket), name="websocket"),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        lifespan=lifespan,
    )
    app.state.hub = hub
    return app


class AsgiEndpoint:
    """A route's endpoint that takes the ASGI ``send`` itself (Starlette calls a plain
    function with a ``WebSocket``, and only an object that is no function as ASGI)."""

    def __init__(self, serve: Callable[[Scope, Receive, Send], Awaitable[None]]) -> None:
        self.serve = serve

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.serve(scope, receive, send)


async def bounded_body(request: Request, limit: int) -> bytes | None:
    """The request's body, or None if it is (or is announced) longer than ``limit``
    bytes: a longer body is never read into memory, a huge announced one not at all."""
    announced = request.headers.get("content-length", "")
    if announced.isdigit() and int(announced) > limit:
        return None
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            return None
    return bytes(body)


def join_url(request: Request, code: str) -> str:
    """The link a friend opens to join: this server's address as the host reached it."""
    return f"{str(request.base_url).rstrip('/')}/?room={code}"


def problem(status: int, code: str, message: str) -> Response:
    return JSONResponse({"error": code, "message": message}, status_code=status)


def stored_scenario(
    header: dict[str, object], actions: list[list[object]]
) -> dict[str, object] | None:
    """The scenario file (docs/scenarios.md) of a stored game, which ``lupus replay``
    replays to the same game; None while the game is not over."""
    game = replayed(header, actions)
    return game.to_scenario() if game.finished else None


async def write(socket: WebSocket, send: Send, client: Client) -> None:
    """Send a client's frames until it is closed, then close its socket. The frames go
    straight to the ASGI ``send`` (Starlette's ``WebSocket.send_text`` checks its
    state at each one: a fifth of a frame's cost), one after the other at each
    wake-up; each stays in the outbox until it is sent, so a client that fell behind
    is dropped with all it had not received."""
    outbox = client.outbox
    frames = outbox.frames
    try:
        while await outbox.wait():
            while frames:
                await send({"type": "websocket.send", "text": frames.popleft()})
    except Exception:
        client.close()
    with contextlib.suppress(Exception):
        await socket.close()


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


__all__ = ["MAX_FRAME", "create_app"]
