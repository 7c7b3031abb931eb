"""Every limit of a running server, in one place: caps, rate limits and time-outs.

A limit of what a single message or a room's settings may hold is checked where the
message is read (``protocol.py``, ``settings.py``, the engine's ``limits.py``). The
limits here are the server's own: how much one client may ask of it, and how long it
waits for a client that is slow to send. Each is a field of ``ServerLimits`` with its
default; ``lupus serve --limit NAME=VALUE`` changes one (an operator behind a NAT, a
test that needs a short time-out). docs/protocol.md ("Limits") lists them all.

A client is an address: the IP address a connection comes from (an IPv6 address by
its /64 network, which one machine holds whole). On a LAN each device is a client;
behind a reverse proxy every connection comes from the proxy, and the proxy is one
client (``X-Forwarded-For`` is not read: on loopback any client could send it).
"""

from __future__ import annotations

from typing import Annotated, Final

from pydantic import BaseModel, ConfigDict, Field, StrictFloat, StrictInt

Count = Annotated[StrictInt, Field(ge=1, le=1_000_000)]
Rate = Annotated[StrictFloat, Field(gt=0, le=1_000_000, allow_inf_nan=False)]
Seconds = Annotated[StrictFloat, Field(gt=0, le=3600, allow_inf_nan=False)]


class ServerLimits(BaseModel):
    """A server's limits (see the module docstring). A rate limit is a bucket: its
    ``_burst`` at once, then ``_rate`` a second on average."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    # Rooms.
    max_rooms: Count = 1000
    """Rooms open on the server, all clients together (``503 server_full`` beyond)."""
    rooms_per_client: Count = 20
    """Rooms open at once that one client opened (``429 too_many``); a room stays open
    until it expires (``expire_after`` after its last use)."""
    room_burst: Count = 10
    room_rate: Rate = 0.2
    """``POST /api/rooms`` per client: 10 at once, then one every 5 s (``429
    slow_down``); every request counts, refused ones too."""

    # Guesses.
    guess_burst: Count = 10
    guess_rate: Rate = 0.5
    """Wrong guesses per client: a room code, a game id or a token that names nothing
    (``404`` over HTTP; ``unknown_room``, ``bad_token`` over the WebSocket): 10 at once,
    then one every 2 s. While none is left, every look-up by code, id or token is
    refused (``slow_down``) before anything is looked up, right or wrong."""

    # Expensive answers.
    render_burst: Count = 10
    render_rate: Rate = 2.0
    """Answers made anew per client (a room's QR code, a finished game's scenario: each
    is made once and kept, then served as it is): 10 at once, then 2 a second."""

    # Entering a room.
    entry_burst: Count = 40
    entry_rate: Rate = 2.0
    """``join``, ``rejoin`` and ``watch`` per client (each is sent a room's whole view,
    tens of kilobytes): 40 at once (as many as its connections), then 2 a second
    (``slow_down``)."""

    # Connections and messages.
    max_connections: Count = 2000
    """WebSocket connections open on the server (the answer to the one over it is
    ``error server_full``, then the connection is closed)."""
    connections_per_client: Count = 32
    """WebSocket connections open at once from one client (``error too_many``, then
    closed): a phone holds one."""
    http_connections_per_client: Count = 128
    """HTTP connections open at once from one client (closed at once). A browser keeps
    up to six open to a server besides its WebSocket, and a table of phones behind one
    home router is one client: sixteen phones fit."""
    client_message_burst: Count = 300
    client_message_rate: Rate = 100.0
    """Messages from all of a client's connections together (``slow_down``)."""
    seat_message_burst: Count = 60
    seat_message_rate: Rate = 20.0
    """Messages from all the connections of one seat (one token) together: as many as
    one connection may send (``lupus.server.clients.MESSAGES``)."""
    seat_chat_burst: Count = 5
    seat_chat_rate: Rate = 1.0
    """Chat lines of one seat, all its connections together (``clients.CHAT`` for one
    connection)."""
    client_chat_burst: Count = 20
    client_chat_rate: Rate = 4.0
    """Chat lines from all of a client's connections together."""

    # Bots.
    min_bot_delay: Annotated[StrictFloat, Field(ge=0, le=30, allow_inf_nan=False)] = 0.1
    """The shortest ``bot_delay`` a room may ask for (``400 not_allowed``): a table of
    bots plays at most ten steps a second."""

    # Presence.
    host_grace: Seconds = 60.0
    """Seconds the holder of a room's host powers may have no connection before they
    pass to the next connected person in seat order (``lupus.server.presence``)."""
    absent_grace: Seconds = 30.0
    """Seconds a person's seat may have no connection during a game before a bot plays
    it for him (a room's ``absent_bots``), until he is back."""

    # Time-outs.
    header_timeout: Seconds = 10.0
    """Seconds a connection has to send a request's line and headers, from its opening
    or the end of its last answer; then it is closed."""
    body_timeout: Seconds = 10.0
    """Seconds a request has to send its body (``408 too_slow`` after)."""
    frame_timeout: Seconds = 15.0
    """Seconds a WebSocket client has to finish a frame (and a fragmented message) it
    began; then the connection is closed. An idle connection is not closed by this:
    the transport's pings (every 20 s, answered within 20 s) find a dead one."""


MAX_HOST: Final = 100
"""The longest ``Host`` header a join link is built from (a longer one, or one that
is not a host name or address with a port, gives the link of the address the
connection reached): a request's headers never make a link, nor its QR code, longer."""

MAX_PUBLIC_URL: Final = 200
"""The longest ``--public-url``."""

MAX_GAME_ID: Final = 64
"""The longest game id looked up (``GET /api/games/{id}/scenario``); ids are
``<room>-<number>-<8 hex digits>``."""

WORK_SLICE: Final = 0.002
"""Seconds of bots' work (moves and closes) the server runs at once before it serves
every connection again (``work.Worker``)."""

KEPT_RENDERS: Final = 256
"""QR codes and scenarios kept made (the oldest goes first)."""

KEPT_CLIENTS: Final = 100_000
"""Clients whose rate limits are remembered at once: beyond, the idle ones are forgotten
first (a client idle long enough to have full allowances loses nothing)."""
