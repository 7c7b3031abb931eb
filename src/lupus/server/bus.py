"""Messages between the ``lupus serve`` processes of one database: PostgreSQL's
``NOTIFY`` on the receiver's channel, ``LISTEN`` on one's own.

Each process listens on ``lupus_<node>``. A message is a JSON object; one longer than a
notification holds (8,000 bytes) goes in numbered parts, put back together on arrival
(the notifications one session sends arrive in the order it sent them). Messages are
queued and sent together once the event loop's current work is done, in one round
trip (a pipeline, one transaction), on a connection of their own (one session: their
order is kept), by a thread of their own: the loop goes on serving while the database
commits them (waiting on that commit was a fifth of a relaying process's time).
A message to a process that died is lost, and nothing waits for an answer: the
processes learn of a death from its leases (``lupus.server.leases``).

Every message is sealed for its receiver (``lupus.server.envelope``): the database sees
envelopes, never a frame or a token. A message sealed for a key its receiver no longer
has (it restarted: its clients and their state are gone) is answered ``bye``, as a
stopped process says it: the sender closes its clients relayed there, who reconnect.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import json
import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Final

import psycopg

from lupus.server.envelope import Seal, Unsealable, fingerprint
from lupus.server.store_postgres import CONNECT

log = logging.getLogger("lupus.server")

MAX_PAYLOAD: Final = 7800
"""Bytes of a notification's payload we send whole (PostgreSQL's limit is 8,000)."""

PART: Final = 5000
"""Bytes of a long message per part (base64 makes it 6,668 characters)."""


def channel(node: str) -> str:
    """A process's channel: an identifier made of its node's name (a host and a port)."""
    return "lupus_" + hashlib.sha1(node.encode()).hexdigest()[:24]


class Bus:
    """One process's end of the messages (see the module docstring)."""

    def __init__(self, url: str, node: str, received: Callable[[dict[str, Any]], None]) -> None:
        self.url, self.node, self.received = url, node, received
        self.sender = psycopg.connect(url, **CONNECT)
        # (one thread: the batches are sent in the order they were queued)
        self.worker = ThreadPoolExecutor(1, thread_name_prefix="lupus-bus")
        self.using = threading.Lock()  # (the sender: the thread's batches, the loop's lookups)
        self.pending: list[tuple[str, str]] = []
        self.flushing: asyncio.Handle | None = None
        self.parts: dict[tuple[str, int], list[str]] = {}
        self.sequence = 0
        self.seal = Seal()
        self.sender_key = base64.b64encode(self.seal.public).decode()
        self.peers: dict[str, bytes] = {}  # each peer's public key, as its messages say

    def key_of(self, node: str) -> bytes | None:
        """The public key the database lists for process ``node`` (its heartbeat's)."""
        with self.using:
            row = self.sender.execute("SELECT key FROM nodes WHERE id = %s", (node,)).fetchone()
        return None if row is None or row[0] is None else bytes(row[0])

    def send(self, to: str, message: dict[str, Any]) -> None:
        """Queue a message for process ``to`` (sent when the loop's work is done)."""
        if self.sender.closed:  # (stopped)
            return
        peer = self.peers.get(to)
        if peer is None:
            try:
                peer = self.key_of(to)
            except psycopg.Error:
                log.exception("bus_key_unknown to=%s", to)
                return
            if peer is None:  # (not a process of this database: nobody to send to)
                log.warning("bus_key_unknown to=%s", to)
                return
            self.peers[to] = peer
        self.sequence += 1
        sealed = self.seal.seal(peer, json.dumps(message, separators=(",", ":")))
        envelope = {"f": self.node, "y": self.sender_key, "t": fingerprint(peer), "x": sealed}
        text = json.dumps(envelope, separators=(",", ":"))  # (unique: its nonce is)
        data = text.encode()
        if len(data) <= MAX_PAYLOAD:
            self.pending.append((channel(to), text))
        else:
            pieces = [data[at : at + PART] for at in range(0, len(data), PART)]
            for index, piece in enumerate(pieces):
                part = {"k": "part", "f": self.node, "id": self.sequence, "n": len(pieces)}
                part["d"] = base64.b64encode(piece).decode()
                part["i"] = index
                self.pending.append((channel(to), json.dumps(part)))
        if self.flushing is None:
            self.flushing = asyncio.get_running_loop().call_soon(self.flush)

    def flush(self) -> None:
        """Hand the queued messages to the sending thread."""
        self.flushing = None
        pending, self.pending = self.pending, []
        if pending and not self.sender.closed:
            self.worker.submit(self.deliver, pending)

    def deliver(self, pending: list[tuple[str, str]]) -> None:
        """Send one batch (on the sending thread). One transaction for all: each NOTIFY
        alone is a commit that waits for the WAL's flush; in one, the batch costs one
        (delivered in order, at its commit; never merged, since each payload is unique
        by its nonce)."""
        with self.using:
            try:
                with self.sender.pipeline(), self.sender.transaction():
                    for to, payload in pending:
                        self.sender.execute("SELECT pg_notify(%s, %s)", (to, payload))
            except psycopg.Error:
                log.exception("bus_send_failed messages=%d", len(pending))
                if self.sender.closed or self.sender.broken:
                    with contextlib.suppress(psycopg.Error):
                        self.sender = psycopg.connect(self.url, **CONNECT)

    async def listen(self) -> None:
        """Hand every message sent to this process to ``received``, reconnecting to
        the database whenever the connection drops (until cancelled)."""
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.url, autocommit=True) as db:
                    await db.execute(f"LISTEN {channel(self.node)}")
                    async for note in db.notifies():
                        self.arrived(note.payload)
            except psycopg.Error:
                log.warning("bus_listen_lost node=%s", self.node)
                await asyncio.sleep(0.5)

    def arrived(self, payload: str) -> None:
        try:
            envelope = json.loads(payload)
            if envelope.get("k") == "part":
                envelope = self.joined(envelope)
                if envelope is None:
                    return
            message = self.opened(envelope)
            if message is not None:
                self.received(message)
        except Exception:
            log.exception("bus_message_failed")

    def opened(self, envelope: dict[str, Any]) -> dict[str, Any] | None:
        """The message in ``envelope``, if its sender is the process the database
        lists with that key and it was sealed for this one (else None: dropped)."""
        sender, key = str(envelope["f"]), base64.b64decode(envelope["y"])
        if self.peers.get(sender) != key:
            if self.key_of(sender) != key:
                log.warning("bus_message_refused from=%s", sender)
                return None
            self.peers[sender] = key
        if envelope["t"] != self.seal.name:  # (for the key of this node before a restart)
            self.send(sender, {"k": "bye"})
            return None
        try:
            message: dict[str, Any] = json.loads(self.seal.open(key, envelope["x"]))
        except Unsealable:
            log.warning("bus_message_refused from=%s", sender)
            return None
        message["f"] = sender  # (who sent it is who sealed it, whatever it says)
        return message

    def joined(self, part: dict[str, Any]) -> dict[str, Any] | None:
        """A long message, once its last part has come."""
        key = (str(part["f"]), int(part["id"]))
        pieces = self.parts.setdefault(key, [])
        if int(part["i"]) != len(pieces):  # (a part lost: the message is)
            del self.parts[key]
            return None
        pieces.append(part["d"])
        if len(pieces) < int(part["n"]):
            return None
        del self.parts[key]
        data = b"".join(base64.b64decode(piece) for piece in pieces)
        joined: dict[str, Any] = json.loads(data)
        return joined

    def close(self) -> None:
        """Send what is queued (a stopping process's last words) and close."""
        if self.flushing is not None:
            self.flushing.cancel()
        self.flush()
        self.worker.shutdown(wait=True)
        self.sender.close()
