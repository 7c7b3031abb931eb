"""uvicorn's HTTP and WebSocket protocols with the time-outs it lacks.

uvicorn closes an idle keep-alive connection (``timeout_keep_alive``) and a WebSocket
whose peer stops answering pings, but not a connection that sends a request's headers
a byte at a time, nor one that begins a WebSocket frame and never ends it: each holds
a connection for as long as its sender likes. Here:

- a connection has ``header_timeout`` seconds to send a request's line and headers,
  from its opening or the end of the last answer (and to finish a body the answer
  did not read); and one client (an address) has at
  most ``http_connections_per_client`` HTTP connections open at once (more are closed at
  once; a WebSocket is counted by the application instead, once it is one);
- a WebSocket client has ``frame_timeout`` seconds to finish a frame, or a
  fragmented message, it began.

``protocols(limits)`` makes the two classes for ``uvicorn.run(http=..., ws=...)``.
They are uvicorn's h11 and websockets (sans-I/O) implementations, the ones it picks
itself when httptools is not installed (it is not a dependency of lupus).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any, ClassVar

from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from lupus.server.gate import client_key
from lupus.server.limits import ServerLimits


def protocols(limits: ServerLimits) -> tuple[type[H11Protocol], type[WebSocketsSansIOProtocol]]:
    """The HTTP and WebSocket protocol classes that hold ``limits`` (uvicorn makes one
    of them per connection, so a server's limits and its count of each client's HTTP
    connections are their class's)."""

    class Http(TimedH11Protocol):
        server_limits = limits
        open_by_client: ClassVar[Counter[str]] = Counter()

    return Http, websocket_protocol(limits)


def websocket_protocol(limits: ServerLimits) -> type[WebSocketsSansIOProtocol]:
    """The WebSocket protocol class that holds ``limits`` (``protocols``)."""

    class WebSocket(TimedWebSocketProtocol):
        server_limits = limits

    return WebSocket


class TimedH11Protocol(H11Protocol):
    """h11 with a time-out on a request's headers and a cap per client (``protocols``
    gives a server's limits and count)."""

    server_limits: ClassVar[ServerLimits]
    open_by_client: ClassVar[Counter[str]]

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._key = client_key(self.client[0] if self.client else None)
        self._counted = True
        self.open_by_client[self._key] += 1
        self._header_timer: asyncio.TimerHandle | None = None
        if self.open_by_client[self._key] > self.server_limits.http_connections_per_client:
            self._uncount()
            transport.close()
            return
        self._arm()

    def _uncount(self) -> None:
        if self._counted:
            self._counted = False
            self.open_by_client[self._key] -= 1
            if self.open_by_client[self._key] <= 0:
                del self.open_by_client[self._key]

    def _arm(self) -> None:
        self._disarm()
        timeout = self.server_limits.header_timeout
        self._header_timer = self.loop.call_later(timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _answering(self) -> bool:
        """Whether a request is the application's now (its headers are all in and
        its answer is not complete)."""
        return self.cycle is not None and not self.cycle.response_complete

    def _too_slow(self) -> None:
        """The time is up and the connection still waits for its client (a request's
        headers, or the end of a body nobody reads): closed."""
        self._header_timer = None
        if not self._answering() and not self.transport.is_closing():
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self._answering():
            self._disarm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()  # (the next request's headers, on this connection)

    def handle_websocket_upgrade(self, event: Any) -> None:
        self._disarm()
        self._uncount()  # (the application counts WebSocket connections)
        super().handle_websocket_upgrade(event)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._uncount()
        super().connection_lost(exc)


class TimedWebSocketProtocol(WebSocketsSansIOProtocol):
    """websockets (sans-I/O) with a time-out on a frame begun and not finished
    (``websocket_protocol`` gives a server's limits)."""

    server_limits: ClassVar[ServerLimits]

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self._framed = False
        self._since: float | None = None  # when the unfinished frame or message began
        self._frame_timer: asyncio.TimerHandle | None = None

    def _done(self) -> None:
        self._framed = True

    def handle_connect(self, event: Any) -> None:
        self._done()
        super().handle_connect(event)

    def handle_text(self, event: Any) -> None:
        self._done()
        super().handle_text(event)

    def handle_bytes(self, event: Any) -> None:
        self._done()
        super().handle_bytes(event)

    def handle_cont(self, event: Any) -> None:
        self._done()
        super().handle_cont(event)

    def handle_ping(self) -> None:
        self._done()
        super().handle_ping()

    def handle_pong(self, event: Any) -> None:
        self._done()
        super().handle_pong(event)

    def handle_close(self, event: Any) -> None:
        self._done()
        super().handle_close(event)

    def data_received(self, data: bytes) -> None:
        self._framed = False
        super().data_received(data)
        now = self.loop.time()
        if self._framed:
            # Frames were finished: whatever is left begins the next one (or a
            # fragmented message goes on, which has its own start kept).
            unfinished = bool(self.conn.reader.buffer)
            if self.conn.expect_continuation_frame:
                self._since = self._since if self._since is not None else now
            else:
                self._since = now if unfinished else None
        elif self._since is None:
            self._since = now  # (a frame begins)
        if self._since is not None and self._frame_timer is None:
            timeout = self.server_limits.frame_timeout
            self._frame_timer = self.loop.call_later(timeout, self._check)

    def _check(self) -> None:
        self._frame_timer = None
        since = self._since
        if since is None or self.transport.is_closing():
            return
        left = since + self.server_limits.frame_timeout - self.loop.time()
        if left > 0:
            self._frame_timer = self.loop.call_later(left, self._check)
        else:
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._frame_timer is not None:
            self._frame_timer.cancel()
            self._frame_timer = None
        super().connection_lost(exc)
