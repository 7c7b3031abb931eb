"""The WebSocket endpoint: a connection's frames in, its outbox out (``docs/protocol.md``)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable

from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket

from lupus.server.clients import Client
from lupus.server.gate import client_key
from lupus.server.hub import Hub
from lupus.server.links import origin_of
from lupus.server.refusals import Refusal


class SocketRoute:
    """``/ws``: each connection admitted by the gate, read until it closes."""

    def __init__(self, hub: Hub, public_url: str | None) -> None:
        self.hub = hub
        self.gate = hub.gate
        self.public_url = public_url

    async def websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        socket = WebSocket(scope, receive, send)
        await socket.accept()
        client = Client()
        address = scope.get("client")
        full = self.gate.connect(client, client_key(address[0] if address else None))
        if full is not None:
            # (told in a frame, which any client reads, then closed: try again later)
            said = Refusal("connections_server" if full == "server_full" else "connections_address")
            text = json.dumps({"type": "error", "code": full, **said.to_json()})
            with contextlib.suppress(Exception):
                await send({"type": "websocket.send", "text": text})
                await socket.close(1013)
            return
        client.origin = origin_of(socket, self.public_url)
        writer = asyncio.create_task(write(socket, send, client))
        try:
            while not client.closed:
                message = await receive()
                if message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text")
                if raw is None:
                    raw = message.get("bytes") or b""
                self.hub.handle(client, raw)
        finally:
            self.hub.leave(client)
            self.gate.disconnect(client)
            client.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 1.0)


class AsgiEndpoint:
    """A route's endpoint that takes the ASGI ``send`` itself (Starlette calls a plain
    function with a ``WebSocket``, and only an object that is no function as ASGI)."""

    def __init__(self, serve: Callable[[Scope, Receive, Send], Awaitable[None]]) -> None:
        self.serve = serve

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.serve(scope, receive, send)


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
