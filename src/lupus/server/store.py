"""Where rooms and games are kept: one small interface, SQLite behind it by default.

The server is event-sourced. A game is stored as its setup (the scenario header that
``Game.to_scenario`` gives: rulebook, options, seed, players, deal) and the list of its
accepted actions; a restart replays them through the engine. Every write commits before
the server acknowledges anything, so a process killed at any moment loses nothing it
acknowledged. SQLite runs in WAL mode with ``synchronous=NORMAL``: a commit survives
the process being killed (it is in the WAL file, which the operating system keeps);
only a power cut may lose the last commits (``synchronous=FULL`` would cost an fsync
per action). The WAL is copied into the database file (a checkpoint, with its fsyncs)
by a thread of its own, never by a write on the event loop (``Checkpointer``).

``Store`` is what rooms use; a server database (PostgreSQL...) is another class with
the same methods, and nothing else changes.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, Protocol

CHECKPOINT_EVERY: Final = 1.0
"""Seconds between two checkpoints of the WAL (see ``Checkpointer``)."""


@dataclass
class GameRecord:
    """A game as stored: its id, its number in its room, its setup and actions."""

    id: str
    number: int
    header: dict[str, object]
    actions: list[list[object]] = field(default_factory=list)
    chat: list[dict[str, object]] = field(default_factory=list)
    finished: bool = False


@dataclass
class RoomRecord:
    """A room as stored: its code, its state (settings, seats, host) as one JSON object
    the rooms module writes and reads, and its current game."""

    code: str
    state: dict[str, object]
    updated: float
    game: GameRecord | None = None


class Store(Protocol):
    def save_room(self, code: str, state: dict[str, object], now: float) -> None:
        """Create or replace a room's state (lobby changes, seats, settings)."""

    def start_game(
        self,
        code: str,
        game_id: str,
        number: int,
        header: dict[str, object],
        now: float,
        state: dict[str, object],
    ) -> None:
        """A new game in the room (its setup), which becomes the room's current game,
        with the room's state as it starts (its seats, bots included): both at once."""

    def append_action(self, game_id: str, index: int, action: list[object]) -> None:
        """Action ``index`` of the game (0 first); refused if that index is stored."""

    def append_chat(self, game_id: str, index: int, line: dict[str, object]) -> None: ...

    def chat(self, kept_with: str) -> list[dict[str, object]]:
        """The chat lines kept with a game (or a room's lobby), in order."""

    def finish_game(self, game_id: str, now: float) -> None: ...

    def drop_room(self, code: str) -> None:
        """The room expired: it is no longer reloaded (its games stay downloadable)."""

    def known(self, code: str) -> bool:
        """Whether a room was ever kept under ``code``, an expired one too (a new room
        never takes such a code: it would be dropped with the old one)."""

    def open_rooms(self) -> list[RoomRecord]:
        """Every room not dropped, with its current game's actions and chat."""

    def scenario(self, game_id: str) -> tuple[dict[str, object], list[list[object]]] | None:
        """A game's setup and actions, or None if there is no such game."""

    def has_game(self, game_id: str) -> bool:
        """Whether there is such a game (a look-up of its id alone: ``scenario`` reads
        its every action)."""

    def close(self) -> None: ...


SCHEMA = """
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
"""


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
        self.db.executescript(SCHEMA)
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

    def append_action(self, game_id: str, index: int, action: list[object]) -> None:
        self._write(
            "INSERT INTO actions (game, idx, action) VALUES (?, ?, ?)",
            (game_id, index, json.dumps(action)),
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
