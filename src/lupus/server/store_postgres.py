"""The store on a PostgreSQL server, which several ``lupus serve`` processes share.

It keeps what ``SQLiteStore`` keeps, in the same tables, with the same promise: a write
has committed when its method returns, before the server acknowledges anything. It
talks to the database through psycopg 3, synchronously, on the event loop's thread, as
the SQLite store does: an accepted action costs one round trip (one ``INSERT``, a
statement prepared once per connection), which on a loopback or a LAN database is well
under the engine's and the sockets' own time for that action (docs/performance.md).
The connections come from a small pool, which replaces one the database has closed
(a restart of PostgreSQL costs the write under way an error, ``not_saved``, and
nothing more).

The schema is numbered (``MIGRATIONS``; the table ``lupus_schema`` holds the version
reached). ``upgrade`` runs in one transaction under an advisory lock, so that two
processes starting at once on an empty database do not both create it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Final

import psycopg
from psycopg_pool import ConnectionPool

from lupus.server.logs import without_password as shown
from lupus.server.store import GameRecord, RoomRecord, StoreError, Unreachable

MIGRATIONS: Final = (
    """
CREATE TABLE rooms (
    code text PRIMARY KEY,
    state text NOT NULL,
    game text,
    updated double precision NOT NULL,
    dropped boolean NOT NULL DEFAULT false
);
CREATE TABLE games (
    id text PRIMARY KEY,
    room text NOT NULL,
    number integer NOT NULL,
    header text NOT NULL,
    created double precision NOT NULL,
    finished double precision
);
CREATE TABLE actions (
    game text NOT NULL,
    idx integer NOT NULL,
    action text NOT NULL,
    PRIMARY KEY (game, idx)
);
CREATE TABLE chat (
    game text NOT NULL,
    idx integer NOT NULL,
    line text NOT NULL,
    PRIMARY KEY (game, idx)
);
CREATE INDEX rooms_open ON rooms (code) WHERE NOT dropped;
""",
    """
CREATE TABLE leases (
    room text PRIMARY KEY,
    owner text NOT NULL,
    epoch bigint NOT NULL,
    expires timestamptz NOT NULL
);
CREATE INDEX leases_owner ON leases (owner);
CREATE TABLE nodes (id text PRIMARY KEY, seen timestamptz NOT NULL);
INSERT INTO leases (room, owner, epoch, expires)
    SELECT code, '', 0, '-infinity' FROM rooms WHERE NOT dropped;
""",
    # each process's public key, which the relay's messages are sealed with (envelope.py)
    """
ALTER TABLE nodes ADD COLUMN key bytea;
""",
    # who played each action (``Store.append_action``'s ``by``): NULL for a person (a
    # nullable column without a default: no table rewrite, old rows read NULL)
    """
ALTER TABLE actions ADD COLUMN played_by text;
""",
)
"""The schema, one script a version, in order (a new version is a new script at the end:
a script that ran is never changed)."""

SCHEMA_VERSION: Final = len(MIGRATIONS)

UPGRADE_LOCK: Final = 0x6C75707573  # ("lupus"): the advisory lock key of ``upgrade``

CONNECT: Final[dict[str, Any]] = {
    "autocommit": True,
    "prepare_threshold": 0,  # (every statement prepared on its first use)
    "connect_timeout": 10,
}


def connect(url: str) -> psycopg.Connection[Any]:
    try:
        return psycopg.connect(url, **CONNECT)
    except psycopg.Error as exc:
        raise Unreachable(f"{shown(url)}: {reason(exc)}") from exc


def reason(exc: psycopg.Error) -> str:
    """The first line of the database's own message (its later lines repeat the host)."""
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def version_of(db: psycopg.Connection[Any]) -> int:
    found = db.execute("SELECT to_regclass('lupus_schema') IS NOT NULL").fetchone()
    if not found or not found[0]:
        return 0
    row = db.execute("SELECT max(version) FROM lupus_schema").fetchone()
    return int(row[0]) if row and row[0] is not None else 0


def upgrade(db: psycopg.Connection[Any]) -> tuple[int, int]:
    """Run the migrations the database has not had, in one transaction under the
    advisory lock (a second process waits for the first, then finds nothing to do);
    the versions before and after. A database newer than this lupus is refused."""
    with db.transaction():
        db.execute("SELECT pg_advisory_xact_lock(%s)", (UPGRADE_LOCK,))
        db.execute("CREATE TABLE IF NOT EXISTS lupus_schema (version integer NOT NULL)")
        before = version_of(db)
        if before > SCHEMA_VERSION:
            raise StoreError(
                f"the database's schema is version {before}, newer than this lupus's "
                f"({SCHEMA_VERSION}): run a newer lupus"
            )
        for number, script in enumerate(MIGRATIONS[before:], start=before + 1):
            db.execute(script.encode(), prepare=False)  # (several statements: not prepared)
            db.execute("INSERT INTO lupus_schema (version) VALUES (%s)", (number,))
    return before, SCHEMA_VERSION


def database_version(url: str) -> int:
    """The schema version of the database at ``url``, without changing it."""
    db = connect(url)
    try:
        return version_of(db)
    except psycopg.Error as exc:
        raise Unreachable(f"{shown(url)}: {reason(exc)}") from exc
    finally:
        db.close()


class Fenced(StoreError):
    """A write for a room whose lease this process no longer holds: another process
    took the room over (this one was frozen past its lease, or lost the database for
    that long). Nothing was written."""

    def __init__(self, room: str) -> None:
        super().__init__(f"room {room}: its lease is another process's now")
        self.room = room


FENCE: Final = (
    "WITH held AS (SELECT 1 FROM leases WHERE room = %s AND owner = %s AND epoch = %s FOR SHARE) "
)
"""What makes a write fenced: it writes only while the row of the room's lease names
this process and the epoch it took the room with. The row is locked (shared) until the
write commits, so a takeover (which updates that row) waits for the write, then reads
the log with it in; a write that comes after the takeover finds no such row and writes
nothing."""

UNFENCED: Final = "WITH held AS (SELECT 1) "
"""The same statements for a store used without leases (a test, ``lupus db``)."""


def room_of(kept_with: str) -> str:
    """The room a game's id (``CODE-number-key``) or a lobby's chat (``CODE-lobby``) is
    kept for."""
    return kept_with.split("-", 1)[0]


class PostgresStore:
    """The rooms and games of every process of a service, in one PostgreSQL database.

    Given a ``node`` (the id of a server process), every write for a room is fenced by
    the room's lease (``FENCE``, ``leases.Leases``): ``epochs`` holds the rooms this
    process runs, each with the epoch it took it at; a write for another room, or one
    taken over since, raises ``Fenced`` and writes nothing. Without a node, writes are
    plain (one process, or a test that reads and writes the tables itself)."""

    def __init__(self, url: str, *, node: str | None = None, pool_size: int = 4) -> None:
        self.url, self.node = url, node
        self.epochs: dict[str, int] = {}
        # Told of a room found taken over by a fenced write, before ``Fenced`` is raised:
        # the process stops running it at once (``cluster.Cluster.drop``), so that the
        # clients of that write are closed, not told it failed.
        self.on_lost: Callable[[str], None] | None = None
        with connect(url) as first:
            self.upgraded = upgrade(first)  # (the schema's versions before and after)
        self.pool = ConnectionPool(
            url, min_size=1, max_size=pool_size, kwargs=CONNECT, open=False, name="lupus"
        )
        try:
            self.pool.open(wait=True, timeout=10)
        except Exception as exc:  # (psycopg_pool.PoolTimeout)
            self.pool.close()
            raise Unreachable(f"{shown(url)}: {exc}") from exc

    def _guard(self, room: str) -> tuple[str, tuple[object, ...]]:
        """The ``WITH held`` clause of a write for ``room``, and its parameters."""
        if self.node is None:
            return UNFENCED, ()
        epoch = self.epochs.get(room)
        if epoch is None:
            raise self.lost(room)
        return FENCE, (room, self.node, epoch)

    def lost(self, room: str) -> Fenced:
        self.epochs.pop(room, None)
        if self.on_lost is not None:
            self.on_lost(room)
        return Fenced(room)

    def _write(self, room: str, sql: str, params: tuple[object, ...]) -> None:
        """``sql``, a statement that writes ``FROM held``, fenced for ``room``."""
        guard, fence = self._guard(room)
        with self.pool.connection() as db:
            if db.execute(guard + sql, fence + params).rowcount == 0 and fence:
                raise self.lost(room)

    def rows(self, sql: str, params: tuple[object, ...]) -> list[tuple[Any, ...]]:
        """One statement on a connection of the pool; its rows (the leases use it too)."""
        with self.pool.connection() as db:
            return db.execute(sql, params).fetchall()

    def save_room(self, code: str, state: dict[str, object], now: float) -> None:
        self._write(
            code,
            "INSERT INTO rooms (code, state, updated) SELECT %s, %s, %s FROM held "
            "ON CONFLICT (code) DO UPDATE SET state = excluded.state, updated = excluded.updated",
            (code, json.dumps(state), now),
        )

    def start_game(
        self,
        code: str,
        game_id: str,
        number: int,
        header: dict[str, object],
        now: float,
        state: dict[str, object],
    ) -> None:
        guard, fence = self._guard(code)
        with self.pool.connection() as db, db.transaction():
            made = db.execute(
                guard + "INSERT INTO games (id, room, number, header, created) "
                "SELECT %s, %s, %s, %s, %s FROM held",
                (*fence, game_id, code, number, json.dumps(header), now),
            )
            if made.rowcount == 0:
                raise self.lost(code)
            db.execute(
                "UPDATE rooms SET game = %s, state = %s, updated = %s WHERE code = %s",
                (game_id, json.dumps(state), now, code),
            )

    def append_action(
        self, game_id: str, index: int, action: list[object], by: str | None = None
    ) -> None:
        self._write(
            room_of(game_id),
            "INSERT INTO actions (game, idx, action, played_by) SELECT %s, %s, %s, %s FROM held",
            (game_id, index, json.dumps(action), by),
        )

    def append_chat(self, game_id: str, index: int, line: dict[str, object]) -> None:
        self._write(
            room_of(game_id),
            "INSERT INTO chat (game, idx, line) SELECT %s, %s, %s FROM held",
            (game_id, index, json.dumps(line)),
        )

    def finish_game(self, game_id: str, now: float) -> None:
        self._write(
            room_of(game_id),
            "UPDATE games SET finished = %s FROM held WHERE id = %s",
            (now, game_id),
        )

    def drop_room(self, code: str) -> None:
        self._write(code, "UPDATE rooms SET dropped = true FROM held WHERE code = %s", (code,))

    def chat(self, kept_with: str) -> list[dict[str, object]]:
        rows = self.rows("SELECT line FROM chat WHERE game = %s ORDER BY idx", (kept_with,))
        return [json.loads(text) for (text,) in rows]

    def known(self, code: str) -> bool:
        return bool(self.rows("SELECT 1 FROM rooms WHERE code = %s", (code,)))

    def open_rooms(self) -> list[RoomRecord]:
        return self._rooms("SELECT code, state, game, updated FROM rooms WHERE NOT dropped", ())

    def room_states(self, code: str | None = None) -> list[tuple[str, dict[str, object]]]:
        sql = "SELECT code, state FROM rooms"
        params: tuple[str, ...] = ()
        if code is not None:
            sql, params = sql + " WHERE code = %s", (code,)
        rows = self.rows(sql + " ORDER BY code", params)
        return [(found, json.loads(state)) for found, state in rows]

    def room(self, code: str) -> RoomRecord | None:
        """One open room as stored (for the process that takes it over)."""
        found = self._rooms(
            "SELECT code, state, game, updated FROM rooms WHERE code = %s AND NOT dropped",
            (code,),
        )
        return found[0] if found else None

    def _rooms(self, sql: str, params: tuple[object, ...]) -> list[RoomRecord]:
        with self.pool.connection() as db:
            rows = db.execute(sql + " ORDER BY code", params).fetchall()
            found = []
            for code, state, game_id, updated in rows:
                record = RoomRecord(code, json.loads(state), updated)
                if game_id is not None:
                    record.game = self._game(db, game_id)
                found.append(record)
            return found

    @staticmethod
    def _game(db: psycopg.Connection[Any], game_id: str) -> GameRecord:
        row = db.execute(
            "SELECT number, header, finished FROM games WHERE id = %s", (game_id,)
        ).fetchone()
        assert row is not None, game_id
        number, header, finished = row
        actions = [
            json.loads(text)
            for (text,) in db.execute(
                "SELECT action FROM actions WHERE game = %s ORDER BY idx", (game_id,)
            )
        ]
        chat = [
            json.loads(text)
            for (text,) in db.execute(
                "SELECT line FROM chat WHERE game = %s ORDER BY idx", (game_id,)
            )
        ]
        return GameRecord(game_id, number, json.loads(header), actions, chat, finished is not None)

    def played_by(self, game_id: str) -> dict[int, str]:
        rows = self.rows(
            "SELECT idx, played_by FROM actions WHERE game = %s AND played_by IS NOT NULL",
            (game_id,),
        )
        return {int(index): str(by) for index, by in rows}

    def has_game(self, game_id: str) -> bool:
        return bool(self.rows("SELECT 1 FROM games WHERE id = %s", (game_id,)))

    def scenario(self, game_id: str) -> tuple[dict[str, object], list[list[object]]] | None:
        with self.pool.connection() as db:
            if db.execute("SELECT 1 FROM games WHERE id = %s", (game_id,)).fetchone() is None:
                return None
            game = self._game(db, game_id)
        return game.header, game.actions

    def close(self) -> None:
        self.pool.close()
