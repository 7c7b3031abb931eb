"""Several ``lupus serve`` processes on one PostgreSQL database, serving the same rooms.

Any process may be reached by any client (no sticky sessions). Each open room is run by
one process, the holder of its lease (``lupus.server.leases``): only it applies
actions and writes them, fenced by the lease's epoch. A client that reaches another
process is relayed: that process forwards the client's messages, as they came, to the
room's process, which serves the client as one of its own (a ``Client`` whose frames go
back over the bus, ``lupus.server.bus``) and applies every rule, limit and right to it;
the frames come back and are written to the client's socket. Nothing else crosses.

A process that dies (killed, frozen past its lease) loses its rooms: the others claim
them (``CLAIM_EVERY``), replay them from the stored log and run their timers from the
stored deadlines. The clients relayed to a room whose process changed are closed, and
reconnect on their own (to any process, which finds the room's new one). A graceful
stop (SIGTERM) lets its leases go at once and closes its clients, who reconnect.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from lupus.server.bus import Bus
from lupus.server.clients import Client
from lupus.server.gate import Gate
from lupus.server.leases import CLAIM_EVERY, RENEW, Leases
from lupus.server.placement import Elsewhere, Told
from lupus.server.protocol import Join, Rejoin, Watch
from lupus.server.rooms import Room
from lupus.server.store import RoomRecord
from lupus.server.store_postgres import PostgresStore

log = logging.getLogger("lupus.server")


class Rooms(Protocol):
    """What the cluster needs of the process's rooms (``hub.Hub``)."""

    rooms: dict[str, Room]
    gate: Gate

    def load(self, record: RoomRecord) -> Room | None: ...

    def handle(self, client: Client, raw: str | bytes) -> None: ...

    def leave(self, client: Client) -> None: ...


ASK_TIMEOUT = 3.0
"""Seconds a process waits for another's answer about a room (``told``)."""


@dataclass
class Relayed:
    """A client of this process whose room runs in process ``owner``, as ``conn``."""

    client: Client
    owner: str
    room: str
    conn: int


class Cluster:
    """This process's part in the service (see the module docstring)."""

    def __init__(self, hub: Rooms, store: PostgresStore, takeovers: Callable[[], None]) -> None:
        assert store.node is not None
        self.hub, self.store, self.node = hub, store, store.node
        store.on_lost = self.drop
        self.bus = Bus(store.url, self.node, self.received)
        self.leases = Leases(store, self.bus.seal.public)
        self.takeovers = takeovers  # (counts a room taken over from a dead process)
        self.relayed: dict[int, Relayed] = {}  # this process's clients, by connection
        self.remote: dict[tuple[str, int], Client] = {}  # others' clients of rooms here
        self.writers: set[asyncio.Task[None]] = set()
        self.connections = 0
        self.asking: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.stopping = False

    # ------------------------------------------------------------------ rooms
    def made(self, code: str) -> None:
        self.leases.take_new(code)

    def forget(self, code: str) -> None:
        self.leases.forget(code)

    def locate(self, code: str) -> Room | None:
        """The room ``code`` if this process runs it now (taking it if its lease ran
        out); ``Elsewhere`` when another process does; None when there is none."""
        room = self.hub.rooms.get(code)
        if room is not None or not self.store.known(code):
            return room
        for _ in range(3):
            owner = self.leases.owners([code]).get(code)
            if owner is not None and owner != self.node:
                raise Elsewhere(owner)
            if self.leases.claim(code):
                return self.load(code)
        return None

    def load(self, code: str) -> Room | None:
        """A room just claimed, replayed from the stored log."""
        record = self.store.room(code)
        if record is None:
            self.leases.forget(code)
            return None
        room = self.hub.load(record)
        if room is None:
            self.leases.release([code])
        log.info("room_taken room=%s node=%s", code, self.node)
        return room

    async def told(self, code: str) -> Room | Told | None:
        """The room ``code`` if it runs here (taken over if it ran nowhere), or what its
        process says of it; None when there is no such room (or its process does not
        answer within ``ASK_TIMEOUT``)."""
        try:
            return self.locate(code)
        except Elsewhere as there:
            self.connections += 1
            asked = self.connections
            future = asyncio.get_running_loop().create_future()
            self.asking[asked] = future
            self.bus.send(there.owner, {"k": "ask", "c": asked, "room": code})
            try:
                answer = await asyncio.wait_for(future, ASK_TIMEOUT)
            except TimeoutError:
                return None
            finally:
                self.asking.pop(asked, None)
            if answer.get("lobby") is None:
                return None
            return Told(code, answer["lobby"], answer.get("game"), answer["status"])

    def answer(self, sender: str, conn: int, code: str) -> None:
        """Another process asks about a room of this one (``told``)."""
        room = self.hub.rooms.get(code)
        said: dict[str, Any] = {"k": "told", "c": conn}
        if room is not None:
            said |= {"lobby": room.lobby_text(), "game": room.game_id}
            said["status"] = room.shown_status
        self.bus.send(sender, said)

    def drop(self, code: str) -> None:
        """Stop running a room this process has lost: its clients, here and relayed
        here, are closed (they reconnect, and find its new process)."""
        room = self.hub.rooms.pop(code, None)
        self.store.epochs.pop(code, None)
        if room is None:
            return
        room.pacer.stop_timer()
        for client in list(room.clients):
            client.close()
        log.warning("room_lost room=%s node=%s", code, self.node)

    # ------------------------------------------------------------------ relaying out
    def relay(self, client: Client, owner: str, entry: Join | Rejoin | Watch) -> None:
        """Serve ``client`` from the room's process from now on, starting with its
        message ``entry`` (the one that entered the room)."""
        code, first = entry.room.strip().upper(), entry.model_dump_json()
        self.connections += 1
        conn = self.connections
        self.relayed[conn] = Relayed(client, owner, code, conn)
        client.relay = lambda raw: self.forward(conn, raw)
        address = self.hub.gate.peer_of(client).key
        opened = {"k": "open", "c": conn, "a": address, "o": client.origin}
        self.bus.send(owner, {**opened, "r": first})

    def forward(self, conn: int, raw: str | bytes) -> None:
        relayed = self.relayed.get(conn)
        if relayed is not None:
            text = raw if isinstance(raw, str) else raw.decode("utf-8", "replace")
            self.bus.send(relayed.owner, {"k": "in", "c": conn, "r": text})

    def gone(self, client: Client) -> None:
        """A relayed client's socket closed."""
        for conn, relayed in list(self.relayed.items()):
            if relayed.client is client:
                del self.relayed[conn]
                self.bus.send(relayed.owner, {"k": "gone", "c": conn})

    # ------------------------------------------------------------------ messages in
    def received(self, message: dict[str, Any]) -> None:
        kind, conn = message.get("k"), int(message.get("c", 0))
        sender = str(message.get("f", ""))
        if kind in ("open", "in", "gone"):
            self.from_other(kind, sender, conn, message)
        elif kind == "out":
            relayed = self.relayed.get(conn)
            if relayed is not None:
                for text in message["fr"]:
                    relayed.client.push(text)
        elif kind == "close":
            relayed = self.relayed.pop(conn, None)
            if relayed is not None:
                relayed.client.close()
        elif kind == "bye":
            self.owner_gone(sender)
        elif kind == "ask":
            self.answer(sender, conn, str(message.get("room", "")))
        elif kind == "told":
            future = self.asking.get(conn)
            if future is not None and not future.done():
                future.set_result(message)

    def from_other(self, kind: str, sender: str, conn: int, message: dict[str, Any]) -> None:
        """A message of another process's client, for a room this process runs."""
        key = (sender, conn)
        if kind == "open":
            client = self.remote_client(sender, conn, message)
            if client is None:
                return
        elif kind == "in":
            found = self.remote.get(key)
            if found is None:  # (this process restarted, or let the room go)
                self.bus.send(sender, {"k": "close", "c": conn})
                return
            client = found
        else:
            gone = self.remote.pop(key, None)
            if gone is not None:
                self.hub.leave(gone)
                gone.close()
            return
        self.hub.handle(client, message["r"])

    def remote_client(self, sender: str, conn: int, message: dict[str, Any]) -> Client | None:
        client = Client()
        client.origin = message.get("o")
        full = self.hub.gate.connect(client, str(message.get("a") or "local"))
        if full is not None:
            said = "connections_server" if full == "server_full" else "connections_address"
            client.send_error("server_full" if full == "server_full" else "too_many", said)
            self.bus.send(sender, {"k": "out", "c": conn, "fr": list(client.outbox.frames)})
            self.bus.send(sender, {"k": "close", "c": conn})
            return None
        self.remote[(sender, conn)] = client
        writer = asyncio.get_running_loop().create_task(self.write_back(sender, conn, client))
        self.writers.add(writer)
        writer.add_done_callback(self.writers.discard)
        return client

    async def write_back(self, to: str, conn: int, client: Client) -> None:
        """A remote client's frames, sent back to its process as they come."""
        outbox = client.outbox
        while await outbox.wait():
            frames = list(outbox.frames)
            outbox.frames.clear()
            self.bus.send(to, {"k": "out", "c": conn, "fr": frames})
        if self.remote.pop((to, conn), None) is not None:
            self.hub.leave(client)
            self.bus.send(to, {"k": "close", "c": conn})

    def owner_gone(self, node: str) -> None:
        """Process ``node`` stopped or died: the clients relayed to it reconnect, and
        its clients of the rooms here are gone."""
        for conn, relayed in list(self.relayed.items()):
            if relayed.owner == node:
                del self.relayed[conn]
                relayed.client.close()
        for key in [key for key in self.remote if key[0] == node]:
            client = self.remote.pop(key)
            self.hub.leave(client)
            client.close()
            self.bus.send(node, {"k": "close", "c": key[1]})  # (if it lives after all)

    # ------------------------------------------------------------------ the rounds
    async def run(self) -> None:
        """Renew the leases, take over the rooms of dead processes, and close the
        relayed clients whose room changed process, until cancelled."""
        listening = asyncio.get_running_loop().create_task(self.bus.listen())
        rounds = 0
        try:
            while True:
                rounds += 1
                for work in (self.claim_expired, self.watch_relayed):
                    self.attempt(work)
                if rounds * CLAIM_EVERY >= RENEW:
                    rounds = 0
                    self.attempt(self.renew)
                await asyncio.sleep(CLAIM_EVERY)
        finally:
            listening.cancel()

    @staticmethod
    def attempt(work: Callable[[], None]) -> None:
        """One round's work; a failure (the database away) is logged, and the next
        round tries again."""
        try:
            work()
        except Exception:
            log.exception("cluster_round_failed work=%s", work.__name__)

    def renew(self) -> None:
        """This process's leases and its own heartbeat renewed; the rooms it lost are
        dropped, and the clients of processes that stopped beating are gone."""
        for code in self.leases.renew():
            self.drop(code)
        others = {sender for sender, _ in self.remote}
        for node in others - self.leases.alive(sorted(others)):
            self.owner_gone(node)

    def take_back(self) -> None:
        """At start: the rooms this node ran before it restarted, then those whose
        process died meanwhile."""
        self.leases.beat()
        for code in self.leases.own():
            self.load(code)
        self.claim_expired()

    def claim_expired(self) -> None:
        if self.stopping:
            return
        for code in self.leases.expired():
            taken = code not in self.hub.rooms and self.leases.claim(code)
            if taken and self.load(code) is not None:
                self.takeovers()

    def watch_relayed(self) -> None:
        if not self.relayed:
            return
        rooms = sorted({relayed.room for relayed in self.relayed.values()})
        owners = self.leases.owners(rooms)
        for conn, relayed in list(self.relayed.items()):
            if owners.get(relayed.room) != relayed.owner:
                del self.relayed[conn]
                relayed.client.close()

    def stop(self) -> None:
        """A graceful stop: no room is taken any more, every lease is let go, and the
        processes with clients here or relayed here are told."""
        self.stopping = True
        with contextlib.suppress(Exception):
            self.leases.release(list(self.store.epochs))
        for other in {sender for sender, _ in self.remote} | {
            relayed.owner for relayed in self.relayed.values()
        }:
            self.bus.send(other, {"k": "bye"})
        with contextlib.suppress(Exception):
            self.bus.close()
