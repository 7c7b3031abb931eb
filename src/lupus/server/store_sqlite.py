"""The embedded store: one SQLite file (``:memory:`` for a throwaway server).

See ``lupus.server.store`` for what is kept and when it is committed.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
from pathlib import Path
from typing import Final

from lupus.server.store import GameRecord, RoomRecord, StoreError, Unreachable

CHECKPOINT_EVERY: Final = 1.0
"""Seconds between two checkpoints of the WAL (see ``Checkpointer``)."""


MIGRATIONS: Final = (
    """
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    state TEXT NOT NULL,
    game TEXT,
    updated REAL NOT NULL,
    dropped INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    room TEXT NOT NULL,
    number INTEGER NOT NULL,
    header TEXT NOT NULL,
    created REAL NOT NULL,
    finished REAL
);
CREATE TABLE IF NOT EXISTS actions (
    game TEXT NOT NULL,
    idx INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (game, idx)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS chat (
    game TEXT NOT NULL,
    idx INTEGER NOT NULL,
    line TEXT NOT NULL,
    PRIMARY KEY (game, idx)
) WITHOUT ROWID;
""",
    # who played each action (``Store.append_action``'s ``by``): NULL for a person
    """
ALTER TABLE actions ADD COLUMN played_by TEXT;
""",
)
"""The schema, one script a version (``PRAGMA user_version`` says how many ran). The
first is written so that a file kept before versions were numbered takes it as is; a
new version is a new script at the end (a script that ran is never changed)."""

SCHEMA_VERSION: Final = len(MIGRATIONS)


class SQLiteStore:
    """The embedded default: one SQLite file (``:memory:`` for a throwaway server)."""

    def __init__(self, path: str | Path, checkpoint_every: float = CHECKPOINT_EVERY) -> None:
        self.path = str(path)
        # One connection, used from the event loop's thread only (the lock guards the
        # odd call from elsewhere, such as a shutdown hook).
        self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.lock = threading.Lock()
        (mode,) = self.db.execute("PRAGMA journal_mode=WAL").fetchone()
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.upgraded = upgrade(self.db)  # (the schema's versions before and after)
        self.checkpointer: Checkpointer | None = None
        if str(mode).lower() == "wal":  # (a file: ":memory:" has no WAL)
            self.db.execute("PRAGMA wal_autocheckpoint=0")
            self.checkpointer = Checkpointer(self.path, checkpoint_every)

    def _write(self, sql: str, params: tuple[object, ...]) -> None:
        with self.lock:
            self.db.execute(sql, params)  # (autocommit: committed when this returns)

    def save_room(self, code: str, state: dict[str, object], now: float) -> None:
        self._write(
            "INSERT INTO rooms (code, state, updated) VALUES (?, ?, ?) "
            "ON CONFLICT(code) DO UPDATE SET state = excluded.state, updated = excluded.updated",
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
        with self.lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                self.db.execute(
                    "INSERT INTO games (id, room, number, header, created) VALUES (?, ?, ?, ?, ?)",
                    (game_id, code, number, json.dumps(header), now),
                )
                self.db.execute(
                    "UPDATE rooms SET game = ?, state = ?, updated = ? WHERE code = ?",
                    (game_id, json.dumps(state), now, code),
                )
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise

    def append_action(
        self, game_id: str, index: int, action: list[object], by: str | None = None
    ) -> None:
        self._write(
            "INSERT INTO actions (game, idx, action, played_by) VALUES (?, ?, ?, ?)",
            (game_id, index, json.dumps(action), by),
        )

    def append_chat(self, game_id: str, index: int, line: dict[str, object]) -> None:
        self._write(
            "INSERT INTO chat (game, idx, line) VALUES (?, ?, ?)",
            (game_id, index, json.dumps(line)),
        )

    def chat(self, kept_with: str) -> list[dict[str, object]]:
        with self.lock:
            rows = self.db.execute(
                "SELECT line FROM chat WHERE game = ? ORDER BY idx", (kept_with,)
            ).fetchall()
        return [json.loads(text) for (text,) in rows]

    def finish_game(self, game_id: str, now: float) -> None:
        self._write("UPDATE games SET finished = ? WHERE id = ?", (now, game_id))

    def drop_room(self, code: str) -> None:
        self._write("UPDATE rooms SET dropped = 1 WHERE code = ?", (code,))

    def known(self, code: str) -> bool:
        with self.lock:
            found = self.db.execute("SELECT 1 FROM rooms WHERE code = ?", (code,)).fetchone()
        return found is not None

    def open_rooms(self) -> list[RoomRecord]:
        with self.lock:
            rows = self.db.execute(
                "SELECT code, state, game, updated FROM rooms WHERE dropped = 0 ORDER BY code"
            ).fetchall()
            found = []
            for code, state, game_id, updated in rows:
                record = RoomRecord(code, json.loads(state), updated)
                if game_id is not None:
                    record.game = self._game(game_id)
                found.append(record)
            return found

    def room_states(self, code: str | None = None) -> list[tuple[str, dict[str, object]]]:
        sql = "SELECT code, state FROM rooms"
        params: tuple[str, ...] = ()
        if code is not None:
            sql, params = sql + " WHERE code = ?", (code,)
        with self.lock:
            rows = self.db.execute(sql + " ORDER BY code", params).fetchall()
        return [(found, json.loads(state)) for found, state in rows]

    def _game(self, game_id: str) -> GameRecord:
        number, header, finished = self.db.execute(
            "SELECT number, header, finished FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        actions = [
            json.loads(text)
            for (text,) in self.db.execute(
                "SELECT action FROM actions WHERE game = ? ORDER BY idx", (game_id,)
            )
        ]
        chat = [
            json.loads(text)
            for (text,) in self.db.execute(
                "SELECT line FROM chat WHERE game = ? ORDER BY idx", (game_id,)
            )
        ]
        return GameRecord(game_id, number, json.loads(header), actions, chat, finished is not None)

    def played_by(self, game_id: str) -> dict[int, str]:
        with self.lock:
            rows = self.db.execute(
                "SELECT idx, played_by FROM actions WHERE game = ? AND played_by IS NOT NULL",
                (game_id,),
            ).fetchall()
        return {int(index): str(by) for index, by in rows}

    def has_game(self, game_id: str) -> bool:
        with self.lock:
            row = self.db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone()
        return row is not None

    def scenario(self, game_id: str) -> tuple[dict[str, object], list[list[object]]] | None:
        with self.lock:
            row = self.db.execute("SELECT id FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                return None
            game = self._game(game_id)
        return game.header, game.actions

    def close(self) -> None:
        if self.checkpointer is not None:
            self.checkpointer.stop()
        with self.lock:
            self.db.close()  # (the last connection: it checkpoints what is left)


def version_of(db: sqlite3.Connection) -> int:
    (version,) = db.execute("PRAGMA user_version").fetchone()
    return int(version)


def upgrade(db: sqlite3.Connection) -> tuple[int, int]:
    """Run the migrations the file has not had, in one transaction that holds the
    file's write lock (a second server starting at once waits, then finds nothing to
    do); the versions before and after. A file newer than this lupus is refused."""
    db.execute("BEGIN IMMEDIATE")
    try:
        before = version_of(db)
        if before > SCHEMA_VERSION:
            raise StoreError(too_new(before))
        for script in MIGRATIONS[before:]:
            for statement in script.split(";"):
                if statement.strip():
                    db.execute(statement)
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION:d}")
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    return before, SCHEMA_VERSION


def too_new(version: int) -> str:
    return (
        f"the database's schema is version {version}, newer than this lupus's "
        f"({SCHEMA_VERSION}): run a newer lupus"
    )


def file_version(path: str) -> int:
    """The schema version of the file at ``path`` without changing it (0 when there is
    no such file yet: a server would make it); ``Unreachable`` when it cannot be read."""
    if not Path(path).exists():
        return 0
    try:
        db = sqlite3.connect(f"file:{Path(path).resolve().as_posix()}?mode=ro", uri=True)
        try:
            return version_of(db)
        finally:
            db.close()
    except sqlite3.Error as exc:
        raise Unreachable(f"{path}: {exc}") from exc


class Checkpointer:
    """Checkpoints a WAL database every ``every`` seconds from a thread of its own.

    SQLite's automatic checkpoint runs inside whichever commit fills the WAL past a
    thousand pages, and a checkpoint writes those pages into the database file and
    waits for two fsyncs (4 to 40 ms each on the benchmark's machine): on the server's
    event loop every room waited for it. At 500 rooms, 5 to 18 writes a run took over
    20 ms, up to 250 ms; none with this (docs/performance.md). Here it runs on its own
    connection in another thread (the sqlite3 module lets go of the GIL while SQLite
    works): a passive checkpoint never blocks the loop's writes, which append to the
    WAL meanwhile, and with ``synchronous=NORMAL`` a commit itself waits for no fsync.
    The WAL grows by about a second of writes between two checkpoints.
    """

    def __init__(self, path: str, every: float) -> None:
        self.path, self.every = path, every
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.run, name="lupus-checkpoint", daemon=True)
        self.thread.start()

    def run(self) -> None:
        db = sqlite3.connect(self.path, isolation_level=None)
        try:
            while not self.stopping.wait(self.every):
                # (busy: another checkpoint is running; the next round does it)
                with contextlib.suppress(sqlite3.Error):
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        finally:
            db.close()

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join()
