"""Which process runs each room, when several ``lupus serve`` share one PostgreSQL database.

A room is run by one process at a time: the one whose lease (a row of ``leases``: the
room, its owner, an epoch, an expiry by the database's clock) is live. The owner renews
all its leases at once every ``RENEW`` seconds; a lease not renewed for ``TTL`` seconds
(the process was killed, frozen, or cut off) may be claimed by any other process, which
bumps the epoch and replays the room from the stored log. The epoch is the fencing
token: every write of the store names it (``store_postgres.FENCE``), so a process
that wakes up after its rooms were taken over writes nothing more to them, and learns
it at its next renewal or write. Expiries are read on the database's clock only, so
the processes' clocks need not agree for leases (a step's deadline, a wall-clock time
stored with its room, needs them kept by NTP as any server's are).
"""

from __future__ import annotations

from typing import Final

from lupus.server.store_postgres import PostgresStore

TTL: Final = 6.0
"""Seconds a lease lives unrenewed: a process killed loses its rooms to another within
this, plus the claimer's next round (``CLAIM_EVERY``) and its replay."""

RENEW: Final = 2.0
"""Seconds between two renewals of a process's leases (three chances within ``TTL``)."""

CLAIM_EVERY: Final = 1.0
"""Seconds between two looks for rooms whose lease ran out."""


class Leases:
    """The leases of one process (``store.node``), kept in ``store.epochs``."""

    def __init__(self, store: PostgresStore, key: bytes | None = None, ttl: float = TTL) -> None:
        assert store.node is not None, "a store with leases belongs to one process"
        self.store, self.node, self.ttl = store, store.node, ttl
        self.key = key  # (the public key of the relay's seals, published with the beat)

    def take_new(self, code: str) -> None:
        """The lease of a room this process just made (its first epoch)."""
        self.store.rows(
            "INSERT INTO leases (room, owner, epoch, expires) "
            "VALUES (%s, %s, 1, now() + make_interval(secs => %s)) RETURNING epoch",
            (code, self.node, self.ttl),
        )
        self.store.epochs[code] = 1

    def claim(self, code: str) -> bool:
        """Take a room whose lease ran out (or that has none yet); whether it is ours
        now. Its log is to be read after this returns: a write of the former owner
        that was under way has committed by then, and none can follow."""
        rows = self.store.rows(
            "INSERT INTO leases AS l (room, owner, epoch, expires) "
            "VALUES (%s, %s, 1, now() + make_interval(secs => %s)) "
            "ON CONFLICT (room) DO UPDATE SET owner = excluded.owner, epoch = l.epoch + 1, "
            "expires = excluded.expires WHERE l.expires < now() RETURNING epoch",
            (code, self.node, self.ttl),
        )
        if not rows:
            return False
        self.store.epochs[code] = int(rows[0][0])
        return True

    def beat(self) -> None:
        """This process is alive (``alive``): at start, before any client reaches it,
        and at every renewal."""
        self.store.rows(
            "INSERT INTO nodes (id, seen, key) VALUES (%s, now(), %s) "
            "ON CONFLICT (id) DO UPDATE SET seen = now(), key = excluded.key RETURNING 1",
            (self.node, self.key),
        )

    def own(self) -> list[str]:
        """The open rooms this node held before it restarted, taken back at once (a new
        epoch each: whatever the former process still wrote is fenced off)."""
        rows = self.store.rows(
            "UPDATE leases SET epoch = epoch + 1, expires = now() + make_interval(secs => %s) "
            "WHERE owner = %s AND room IN (SELECT code FROM rooms WHERE NOT dropped) "
            "RETURNING room, epoch",
            (self.ttl, self.node),
        )
        for room, epoch in rows:
            self.store.epochs[room] = int(epoch)
        return [room for room, _ in rows]

    def expired(self, limit: int = 50) -> list[str]:
        """Open rooms whose lease ran out (another process died), at most ``limit``."""
        rows = self.store.rows(
            "SELECT l.room FROM leases l JOIN rooms r ON r.code = l.room "
            "WHERE l.expires < now() AND NOT r.dropped ORDER BY l.expires LIMIT %s",
            (limit,),
        )
        return [room for (room,) in rows]

    def renew(self) -> set[str]:
        """Renew every lease this process holds, and its heartbeat (``nodes``); the
        rooms it has lost (taken over while it could not renew: it must stop running
        them at once)."""
        rows = self.store.rows(
            "UPDATE leases SET expires = now() + make_interval(secs => %s) "
            "WHERE owner = %s RETURNING room, epoch",
            (self.ttl, self.node),
        )
        self.beat()
        held = {room: int(epoch) for room, epoch in rows}
        lost = {code for code, epoch in self.store.epochs.items() if held.get(code) != epoch}
        for code in lost:
            del self.store.epochs[code]
        return lost

    def release(self, codes: list[str]) -> None:
        """Let others take these rooms at once (a graceful stop): their leases expire."""
        self.store.rows(
            "UPDATE leases SET expires = now() - interval '1 second' "
            "WHERE owner = %s AND room = ANY(%s) RETURNING room",
            (self.node, codes),
        )
        for code in codes:
            self.store.epochs.pop(code, None)

    def forget(self, code: str) -> None:
        """A room this process dropped (expired): its lease goes with it."""
        epoch = self.store.epochs.pop(code, None)
        if epoch is not None:
            self.store.rows(
                "DELETE FROM leases WHERE room = %s AND owner = %s AND epoch = %s RETURNING 1",
                (code, self.node, epoch),
            )

    def alive(self, nodes: list[str]) -> set[str]:
        """Those of ``nodes`` whose heartbeat (``renew``) is younger than a lease."""
        rows = self.store.rows(
            "SELECT id FROM nodes WHERE id = ANY(%s) AND seen > now() - make_interval(secs => %s)",
            (nodes, self.ttl),
        )
        return {node for (node,) in rows}

    def owners(self, codes: list[str]) -> dict[str, str]:
        """The live owner of each of these rooms that has one."""
        rows = self.store.rows(
            "SELECT room, owner FROM leases WHERE room = ANY(%s) AND expires >= now()",
            (codes,),
        )
        return {room: owner for room, owner in rows}
