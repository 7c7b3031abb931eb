"""The HTTP routes of rooms: open one, read its lobby, its join link's QR code."""

from __future__ import annotations

import asyncio

from pydantic import ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from lupus.server.gate import Peer, client_key
from lupus.server.hub import Hub
from lupus.server.limits import ServerLimits
from lupus.server.links import Renders, join_link, qr_svg
from lupus.server.placement import Told
from lupus.server.protocol import ProtocolError, explain
from lupus.server.replies import MAX_BODY, bounded_body, cross_site, problem
from lupus.server.rooms import Room
from lupus.server.settings import RoomSettings


class RoomRoutes:
    """The rooms' endpoints, each paid for from the asking client's allowances."""

    def __init__(
        self, hub: Hub, limits: ServerLimits, public_url: str | None, renders: Renders
    ) -> None:
        self.hub = hub
        self.gate = hub.gate
        self.limits = limits
        self.public_url = public_url
        self.renders = renders

    def peer_of(self, request: Request) -> Peer:
        return self.gate.peer(client_key(request.client.host if request.client else None))

    async def room_of(self, request: Request) -> Room | Told | Response:
        """The room a path's ``{code}`` names (codes are read in any case), or what its
        process says of it (several share a database: ``cluster``), or the refusal:
        ``404``, a wrong guess; ``429`` while the client has no guess left."""
        guesses = self.peer_of(request).guesses
        if not guesses.ready():
            return problem(429, "slow_down", "too_many_codes")
        code = str(request.path_params["code"])
        room: Room | Told | None = self.hub.rooms.get(code.upper()) if len(code) <= 16 else None
        cluster = self.hub.cluster
        if room is None and cluster is not None and len(code) <= 16:
            room = await cluster.told(code.upper())
        if room is None:
            guesses.take()
            return problem(404, "unknown_room", "unknown_room")
        return room

    async def join_code(self, request: Request) -> Response:
        """---
        summary: A room's join link as a QR code (SVG)
        parameters:
          - {name: code, in: path, required: true, schema: {type: string}}
        responses:
          200: {description: the QR code, content: {image/svg+xml: {}}}
          404: {$ref: "#/components/responses/Problem"}
          429: {$ref: "#/components/responses/Problem"}
        """
        room = await self.room_of(request)
        if isinstance(room, Response):
            return room
        # Made here, not by a page script: the link works without any outside service.
        link = join_link(request, self.public_url, room.code)
        image = self.renders.get(("qr", link))
        if image is None:
            if not self.peer_of(request).renders.take():
                return problem(429, "slow_down", "too_many_qr")
            image = self.renders.put(("qr", link), qr_svg(link))
        return Response(
            image, media_type="image/svg+xml", headers={"Cache-Control": "max-age=3600"}
        )

    async def create_room(self, request: Request) -> Response:
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
        refused = cross_site(request, self.public_url)
        if refused is not None:
            return refused
        peer = self.peer_of(request)
        if not peer.openings.take():
            return problem(429, "slow_down", "too_many_rooms")
        if self.gate.open_rooms(peer, self.hub.rooms) >= self.limits.rooms_per_client:
            return problem(429, "too_many", "rooms_per_address", count=self.limits.rooms_per_client)
        if len(self.hub.rooms) >= self.limits.max_rooms:
            return problem(503, "server_full", "server_full_rooms")
        try:
            async with asyncio.timeout(self.limits.body_timeout):
                body = await bounded_body(request, MAX_BODY)
        except TimeoutError:
            return problem(408, "too_slow", "body_too_slow")
        if body is None:
            return problem(413, "too_long", "body_too_long", bytes=MAX_BODY)
        try:
            settings = RoomSettings.model_validate_json(body)
            room, token, seat = self.hub.create(settings)
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
                "join_url": join_link(request, self.public_url, room.code),
                "host_token": token,
                "host_seat": seat,
            },
            status_code=201,
        )

    async def lobby(self, request: Request) -> Response:
        """---
        summary: A room's lobby (the lobby message without "you")
        parameters:
          - {name: code, in: path, required: true, schema: {type: string}}
        responses:
          200: {$ref: "#/components/responses/Json"}
          404: {$ref: "#/components/responses/Problem"}
          429: {$ref: "#/components/responses/Problem"}
        """
        room = await self.room_of(request)
        if isinstance(room, Response):
            return room
        # (the text the room's clients are sent, written once per change)
        text = room.lobby_text() if isinstance(room, Room) else room.lobby
        return Response(text, media_type="application/json")
