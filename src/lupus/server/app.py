"""The ASGI application: the HTTP API, the WebSocket endpoint and the static pages.

``create_app`` builds it around one store; ``lupus serve`` runs it under uvicorn. The
HTTP API only opens rooms and hands out public facts (rulebooks, a lobby, a finished
game's scenario); everything else happens over ``/ws`` (``docs/protocol.md``).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket

from lupus.families import load
from lupus.rulebooks import available
from lupus.rules_text import explained
from lupus.server import catalogue, slices
from lupus.server.clients import Client
from lupus.server.gate import Peer, client_key
from lupus.server.hub import Hub
from lupus.server.limits import MAX_GAME_ID, ServerLimits
from lupus.server.links import Renders, join_link, origin_of, qr_svg, same_origin
from lupus.server.openapi import openapi_document
from lupus.server.protocol import MAX_FRAME, VERSION, ProtocolError, explain
from lupus.server.refusals import Refusal, Value
from lupus.server.rooms import Room
from lupus.server.settings import RoomSettings
from lupus.server.store import SQLiteStore, Store
from lupus.server.work import Worker

log = logging.getLogger("lupus.server")

STATIC = Path(str(resources.files("lupus.server") / "static"))

MANIFEST_TYPE = "application/manifest+json"

MAX_BODY = 16 * 1024
"""The largest request body the API reads (a room's settings)."""


def create_app(
    database: str | Path = ":memory:",
    *,
    store: Store | None = None,
    sweep_every: float = 60.0,
    limits: ServerLimits | None = None,
    public_url: str | None = None,
) -> Starlette:
    """The server around ``store`` (a SQLite file at ``database`` by default), with
    ``limits`` (``ServerLimits()`` by default); join links begin with ``public_url``
    when it is given (``links.checked_public_url``)."""
    kept: Store = store if store is not None else SQLiteStore(database)
    limits = limits or ServerLimits()

    def schedule(delay: float, call: Callable[[], None]) -> Any:
        return asyncio.get_running_loop().call_later(delay, call)

    worker = Worker()
    hub = Hub(kept, schedule, limits=limits, work=worker.put)
    gate = hub.gate
    renders = Renders()  # QR codes and finished games' scenarios, made once
    render_lock = asyncio.Lock()  # (a finished game's record is made one at a time)
    listings: dict[str, bytes] = {}  # /api/rulebooks, by language

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hub.restore()
        sweeper = asyncio.create_task(sweep(hub, sweep_every))
        working = asyncio.create_task(worker.run())
        try:
            yield
        finally:
            sweeper.cancel()
            working.cancel()
            for room in hub.rooms.values():
                for client in list(room.clients):
                    client.close()
            kept.close()
            log.info("stopped rooms=%d stored=yes", len(hub.rooms))

    async def healthz(request: Request) -> Response:
        """---
        summary: The server is up
        responses:
          200: {$ref: "#/components/responses/Json"}
        """
        return JSONResponse({"status": "ok", "rooms": len(hub.rooms), "protocol": VERSION})

    async def rulebooks(request: Request) -> Response:
        """---
        summary: Every rulebook the server plays, with what a room form needs
        parameters:
          - {name: lang, in: query, required: false, schema: {type: string}}
        responses:
          200: {$ref: "#/components/responses/Json"}
        """
        lang = request.query_params.get("lang", "en")
        if lang not in catalogue.languages():
            lang = ""  # (each rulebook speaks its own first language, as for any other)
        listing = listings.get(lang)
        if listing is None:
            listing = listings[lang] = json.dumps(catalogue.rulebooks(lang)).encode()
        return Response(listing, media_type="application/json")

    explanations: dict[tuple[str, str], bytes] = {}  # /api/rulebooks/{id}/rules

    async def rules(request: Request) -> Response:
        """---
        summary: One rulebook explained for its help page, in parts (docs/protocol.md)
        parameters:
          - {name: rulebook, in: path, required: true, schema: {type: string}}
          - {name: lang, in: query, required: false, schema: {type: string}}
        responses:
          200: {$ref: "#/components/responses/Json"}
          404: {$ref: "#/components/responses/Problem"}
        """
        rid = str(request.path_params["rulebook"])
        if rid not in available():
            return problem(404, "unknown_rulebook", "unknown_rulebook")
        lang = request.query_params.get("lang", "")
        if lang not in catalogue.languages():
            lang = ""  # (the rulebook's own first language)
        told = explanations.get((rid, lang))
        if told is None:
            book = load(rid)
            said = lang if lang in book.languages else None
            told = explanations[(rid, lang)] = json.dumps(explained(book, said)).encode()
        return Response(told, media_type="application/json")

    async def manifest(request: Request) -> Response:
        """---
        summary: The web app manifest (the pages install as an app)
        responses:
          200: {description: the manifest, content: {application/manifest+json: {}}}
        """
        return FileResponse(STATIC / "manifest.webmanifest", media_type=MANIFEST_TYPE)

    async def interface(request: Request) -> Response:
        """---
        summary: The pages' words in one language
        parameters:
          - {name: lang, in: path, required: true, schema: {type: string}}
        responses:
          200: {$ref: "#/components/responses/Json"}
          404: {$ref: "#/components/responses/Problem"}
        """
        languages = catalogue.interface_languages()
        lang = str(request.path_params["lang"])
        if lang not in languages:
            return problem(404, "unknown_language", "unknown_language")
        words = catalogue.interface_words(lang)
        return JSONResponse({"lang": lang, "languages": languages, "words": words})

    def peer_of(request: Request) -> Peer:
        return gate.peer(client_key(request.client.host if request.client else None))

    def room_of(request: Request) -> Room | Response:
        """The room a path's ``{code}`` names (codes are read in any case), or the
        refusal: ``404``, a wrong guess; ``429`` while the client has no guess left."""
        guesses = peer_of(request).guesses
        if not guesses.ready():
            return problem(429, "slow_down", "too_many_codes")
        code = str(request.path_params["code"])
        room = hub.rooms.get(code.upper()) if len(code) <= 16 else None
        if room is None:
            guesses.take()
            return problem(404, "unknown_room", "unknown_room")
        return room

    async def join_code(request: Request) -> Response:
        """---
        summary: A room's join link as a QR code (SVG)
        parameters:
          - {name: code, in: path, required: true, schema: {type: string}}
        responses:
          200: {description: the QR code, content: {image/svg+xml: {}}}
          404: {$ref: "#/components/responses/Problem"}
          429: {$ref: "#/components/responses/Problem"}
        """
        room = room_of(request)
        if not isinstance(room, Room):
            return room
        # Made here, not by a page script: the link works without any outside service.
        link = join_link(request, public_url, room.code)
        image = renders.get(("qr", link))
        if image is None:
            if not peer_of(request).renders.take():
                return problem(429, "slow_down", "too_many_qr")
            image = renders.put(("qr", link), qr_svg(link))
        return Response(
            image, media_type="image/svg+xml", headers={"Cache-Control": "max-age=3600"}
        )

    async def create_room(request: Request) -> Response:
        """---
        summary: Open a room (docs/protocol.md)
        requestBody:
          required: true
          content: {application/json: {schema: {$ref: "#/components/schemas/RoomSettings"}}}
        responses:
          201: {$ref: "#/components/responses/Opened"}
          400: {$ref: "#/components/responses/Problem"}
          403: {$ref: "#/components/responses/Problem"}
          408: {$ref: "#/components/responses/Problem"}
          413: {$ref: "#/components/responses/Problem"}
          415: {$ref: "#/components/responses/Problem"}
          429: {$ref: "#/components/responses/Problem"}
          503: {$ref: "#/components/responses/Problem"}
        """
        refused = cross_site(request, public_url)
        if refused is not None:
            return refused
        peer = peer_of(request)
        if not peer.openings.take():
            return problem(429, "slow_down", "too_many_rooms")
        if gate.open_rooms(peer, hub.rooms) >= limits.rooms_per_client:
            return problem(429, "too_many", "rooms_per_address", count=limits.rooms_per_client)
        if len(hub.rooms) >= limits.max_rooms:
            return problem(503, "server_full", "server_full_rooms")
        try:
            async with asyncio.timeout(limits.body_timeout):
                body = await bounded_body(request, MAX_BODY)
        except TimeoutError:
            return problem(408, "too_slow", "body_too_slow")
        if body is None:
            return problem(413, "too_long", "body_too_long", bytes=MAX_BODY)
        try:
            settings = RoomSettings.model_validate_json(body)
            room, token, seat = hub.create(settings)
        except ValidationError as exc:
            return problem(400, "malformed", "malformed", detail=explain(exc))
        except ProtocolError as exc:
            return problem(400, exc.code, exc.refusal)
        except ValueError as exc:  # (the engine's, if check_settings let one through)
            return problem(400, "not_allowed", "rules", detail=str(exc))
        peer.rooms.add(room.code)
        return JSONResponse(
            {
                "room": room.code,
                "join_url": join_link(request, public_url, room.code),
                "host_token": token,
                "host_seat": seat,
            },
            status_code=201,
        )

    async def lobby(request: Request) -> Response:
        """---
        summary: A room's lobby (the lobby message without "you")
        parameters:
          - {name: code, in: path, required: true, schema: {type: string}}
        responses:
          200: {$ref: "#/components/responses/Json"}
          404: {$ref: "#/components/responses/Problem"}
          429: {$ref: "#/components/responses/Problem"}
        """
        room = room_of(request)
        if not isinstance(room, Room):
            return room
        # (the text the room's clients are sent, written once per change)
        return Response(room.lobby_text(), media_type="application/json")

    def not_told_yet(peer: Peer, game_id: str) -> Response | None:
        """The refusal of a finished game's record (its scenario, its story) to a client
        guessing too fast, or of a game not shown over yet: one that ended in a step the
        night's pacing still holds back is not over for its players, its end (and every
        card) is told when they are shown it. None: go on."""
        if not peer.guesses.ready():
            return problem(429, "slow_down", "too_many_game_ids")
        room = hub.rooms.get(game_id.split("-", 1)[0].upper())
        if room is not None and room.game_id == game_id and room.shown_status != "finished":
            peer.guesses.take()
            return problem(404, "unknown_game", "unknown_game")
        return None

    async def rendered(
        peer: Peer,
        key: tuple[object, ...],
        game_id: str,
        what: str,
        make: Callable[[Any], Awaitable[bytes | None]],
    ) -> Response:
        """A finished game's record as ``make`` writes it from the stored game, kept in
        the renders; a wrong id costs the client a guess, a new render one of its
        renders. ``make`` replays the whole game (and tells it: tens of milliseconds
        for a long game of thirty) in slices (``slices``), one at a time
        (``render_lock``), so that a burst of them delays no room's frames."""
        text = renders.get(key)
        if text is None:
            known = len(game_id) <= MAX_GAME_ID and hub.store.has_game(game_id)
            if known and not peer.renders.take():
                return problem(429, "slow_down", "too_many_records", what=what)
            async with render_lock:
                text = renders.get(key)  # (made meanwhile for another request)
                if text is None:
                    found = hub.store.scenario(game_id) if known else None
                    made = None if found is None else await make(found)
                    if made is None:
                        peer.guesses.take()
                        return problem(404, "unknown_game", "unknown_game")
                    text = renders.put(key, made)
        return Response(text, media_type="application/json")

    async def scenario(request: Request) -> Response:
        """---
        summary: A finished game as a scenario file (docs/scenarios.md)
        parameters:
          - {name: game, in: path, required: true, schema: {type: string}}
        responses:
          200: {$ref: "#/components/responses/Json"}
          404: {$ref: "#/components/responses/Problem"}
          429: {$ref: "#/components/responses/Problem"}
        """
        peer = peer_of(request)
        game_id = str(request.path_params["game"])
        refused = not_told_yet(peer, game_id)
        if refused is not None:
            return refused

        # A running game's scenario holds every card: only a finished one is given. The
        # stored game itself says so (not its room, which may have expired or failed to
        # be restored while the game was still running).
        async def made(found: Any) -> bytes | None:
            game = await slices.replayed(*found)
            return json.dumps(game.to_scenario()).encode() if game.finished else None

        return await rendered(peer, ("scenario", game_id), game_id, "scenarios", made)

    async def story(request: Request) -> Response:
        """---
        summary: A finished game told night by night, every card shown (the replay page)
        parameters:
          - {name: game, in: path, required: true, schema: {type: string}}
          - {name: lang, in: query, required: false, schema: {type: string}}
        responses:
          200: {$ref: "#/components/responses/Json"}
          404: {$ref: "#/components/responses/Problem"}
          429: {$ref: "#/components/responses/Problem"}
        """
        # (the scenario's own checks: a game is told once it is over and shown over)
        peer = peer_of(request)
        game_id = str(request.path_params["game"])
        refused = not_told_yet(peer, game_id)
        if refused is not None:
            return refused
        lang = request.query_params.get("lang")
        lang = lang if lang in catalogue.languages() else None

        async def made(found: Any) -> bytes | None:
            game = await slices.replayed(*found)
            if not game.finished:
                return None
            return json.dumps(await slices.story(game_id, game, lang)).encode()

        return await rendered(peer, ("story", game_id, lang), game_id, "games", made)

    schema_text: list[bytes] = []

    async def openapi(request: Request) -> Response:
        """---
        summary: This document (OpenAPI 3.1)
        responses:
          200: {$ref: "#/components/responses/Json"}
        """
        if not schema_text:
            schema_text.append(json.dumps(openapi_document(app.routes)).encode())
        return Response(schema_text[0], media_type="application/json")

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def websocket(scope: Scope, receive: Receive, send: Send) -> None:
        socket = WebSocket(scope, receive, send)
        await socket.accept()
        client = Client()
        address = scope.get("client")
        full = gate.connect(client, client_key(address[0] if address else None))
        if full is not None:
            # (told in a frame, which any client reads, then closed: try again later)
            said = Refusal("connections_server" if full == "server_full" else "connections_address")
            text = json.dumps({"type": "error", "code": full, **said.to_json()})
            with contextlib.suppress(Exception):
                await send({"type": "websocket.send", "text": text})
                await socket.close(1013)
            return
        client.origin = origin_of(socket, public_url)
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
            gate.disconnect(client)
            client.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 1.0)

    app = Starlette(
        routes=[
            Route("/", index),
            Route("/healthz", healthz),
            Route("/openapi.json", openapi, include_in_schema=False),
            Route("/api/rulebooks", rulebooks),
            Route("/api/rulebooks/{rulebook}/rules", rules),
            Route("/manifest.webmanifest", manifest),
            Route("/api/rooms", create_room, methods=["POST"]),
            Route("/api/rooms/{code}", lobby),
            Route("/api/rooms/{code}/qr.svg", join_code),
            Route("/api/ui/{lang}", interface),
            Route("/api/games/{game}/scenario", scenario),
            Route("/api/games/{game}/story", story),
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


def cross_site(request: Request, public_url: str | None) -> Response | None:
    """The refusal of a request another site's page may have sent (``POST /api/rooms``):
    a body that is not declared JSON (a form or a ``text/plain`` body, which a page of
    any site may post without asking), or an ``Origin`` that is not this server."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        return problem(415, "not_json", "body_not_json")
    origin = request.headers.get("origin")
    if origin is not None and not same_origin(request, origin, public_url):
        return problem(403, "cross_site", "cross_site")
    return None


def problem(status: int, code: str, reason: str | Refusal, **fields: Value) -> Response:
    """An HTTP refusal: its ``error`` code, and its reason in English and for the page
    to word in its own language (``refusals``)."""
    said = reason if isinstance(reason, Refusal) else Refusal(reason, **fields)
    return JSONResponse({"error": code, **said.to_json()}, status_code=status)


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
