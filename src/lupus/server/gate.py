"""The limits that hold across connections: per client (an address) and per seat.

A connection has its own rate limits (``clients.Client``); this gate adds those its
client and its seat share with their other connections, so that twenty connections of
one seat, or of one machine, have no more allowance than the limits give them
(``limits.ServerLimits``). It also counts each client's connections and rooms, and its
wrong guesses: a code, an id or a token that names nothing.
"""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Iterable

from lupus.server.clients import Bucket, Client
from lupus.server.limits import KEPT_CLIENTS, ServerLimits


class Allowance(Bucket):
    """A rate limit that can also be looked at without taking from it."""

    def refill(self) -> float:
        now = time.monotonic()
        self.allowance = min(self.burst, self.allowance + (now - self.checked) * self.rate)
        self.checked = now
        return self.allowance

    def ready(self) -> bool:
        """Whether one more would be allowed now (nothing is taken)."""
        return self.refill() >= 1

    def full(self) -> bool:
        return self.refill() >= self.burst


class Peer:
    """One client of the server (an address) and what it may still do."""

    def __init__(self, key: str, limits: ServerLimits) -> None:
        self.key = key
        self.messages = Allowance(limits.client_message_burst, limits.client_message_rate)
        self.chat = Allowance(limits.client_chat_burst, limits.client_chat_rate)
        self.guesses = Allowance(limits.guess_burst, limits.guess_rate)
        self.openings = Allowance(limits.room_burst, limits.room_rate)
        self.renders = Allowance(limits.render_burst, limits.render_rate)
        self.entries = Allowance(limits.entry_burst, limits.entry_rate)
        self.connections = 0  # WebSocket connections open now
        self.rooms: set[str] = set()  # codes of the rooms it opened (pruned as they expire)

    def idle(self) -> bool:
        """Nothing to remember: no connection, no room, every allowance full."""
        buckets = (self.messages, self.chat, self.guesses, self.openings, self.renders)
        return (
            not self.connections
            and not self.rooms
            and self.entries.full()
            and all(b.full() for b in buckets)
        )


class Holder:
    """One seat of one room (or a host without a seat): its connections' shared limits."""

    def __init__(self, limits: ServerLimits) -> None:
        self.messages = Allowance(limits.seat_message_burst, limits.seat_message_rate)
        self.chat = Allowance(limits.seat_chat_burst, limits.seat_chat_rate)


def client_key(host: str | None) -> str:
    """The client an address belongs to: an IPv4 address, an IPv6 address's /64 network
    (an IPv4 address mapped in IPv6 is that IPv4 address), or ``local`` for a
    connection without one (a Unix socket)."""
    if not host:
        return "local"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host[:64]
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


class Gate:
    """Every client's and seat's shared limits (see the module docstring)."""

    def __init__(self, limits: ServerLimits) -> None:
        self.limits = limits
        self.peers: dict[str, Peer] = {}
        self.holders: dict[tuple[str, int | None], Holder] = {}
        self.of_client: dict[Client, Peer] = {}
        self.counted: set[Client] = set()  # the connections counted in their client's
        self.connections = 0

    # ------------------------------------------------------------------ clients
    def peer(self, key: str) -> Peer:
        found = self.peers.get(key)
        if found is None:
            if len(self.peers) >= KEPT_CLIENTS:
                self.forget_idle()
            found = self.peers[key] = Peer(key, self.limits)
        return found

    def connect(self, client: Client, key: str) -> str | None:
        """A new WebSocket connection of client ``key``: why it is refused, or None."""
        peer = self.peer(key)
        if self.connections >= self.limits.max_connections:
            return "server_full"
        if peer.connections >= self.limits.connections_per_client:
            return "too_many"
        peer.connections += 1
        self.connections += 1
        self.of_client[client] = peer
        self.counted.add(client)
        return None

    def disconnect(self, client: Client) -> None:
        """The connection is gone (once or more: only the first counts)."""
        peer = self.of_client.pop(client, None)
        if peer is not None and client in self.counted:
            self.counted.discard(client)
            peer.connections -= 1
            self.connections -= 1

    def peer_of(self, client: Client) -> Peer:
        """The client a connection belongs to (one the gate never saw: its own)."""
        found = self.of_client.get(client)
        if found is None:
            found = self.of_client[client] = Peer(f"connection-{id(client)}", self.limits)
        return found

    # ------------------------------------------------------------------ messages
    def holder(self, client: Client) -> Holder | None:
        room = client.room
        code = getattr(room, "code", None)
        if not isinstance(code, str):
            return None
        if client.seat is None and not client.host:
            return None  # a spectator: its connection's and its client's limits
        key = (code, client.seat)
        found = self.holders.get(key)
        if found is None:
            found = self.holders[key] = Holder(self.limits)
        return found

    def message(self, client: Client, weight: int = 1) -> bool:
        """Whether a message of ``client`` (allowed by its connection) is allowed by its
        seat's and its client's shared limits; it counts ``weight`` against both."""
        holder = self.holder(client)
        if holder is not None and not holder.messages.take(weight):
            return False
        return self.peer_of(client).messages.take(weight)

    def spend(self, client: Client, weight: int) -> None:
        """``weight`` more against a connection's, its seat's and its client's message
        allowances: work its message cost beyond what it paid (``Bucket.spend``)."""
        client.messages.spend(weight)
        holder = self.holder(client)
        if holder is not None:
            holder.messages.spend(weight)
        self.peer_of(client).messages.spend(weight)

    def chat(self, client: Client) -> bool:
        holder = self.holder(client)
        if holder is not None and not holder.chat.take():
            return False
        return self.peer_of(client).chat.take()

    # ------------------------------------------------------------------ rooms
    def open_rooms(self, peer: Peer, rooms: Iterable[str]) -> int:
        """How many of the rooms ``peer`` opened are still open (``rooms``)."""
        peer.rooms &= set(rooms)
        return len(peer.rooms)

    # ------------------------------------------------------------------ upkeep
    def sweep(self, rooms: Iterable[str]) -> None:
        """Forget what no longer matters: the seats of rooms gone, idle clients."""
        open_codes = set(rooms)
        for key in [key for key in self.holders if key[0] not in open_codes]:
            del self.holders[key]
        for peer in self.peers.values():
            peer.rooms &= open_codes
        self.forget_idle()

    def forget_idle(self) -> None:
        for key in [key for key, peer in self.peers.items() if peer.idle()]:
            del self.peers[key]
