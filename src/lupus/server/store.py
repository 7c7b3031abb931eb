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

``Store`` is what rooms use. Two classes keep it: ``SQLiteStore`` (the embedded
default, ``store_sqlite``) and ``PostgresStore`` (a database server that several
processes share, ``store_postgres``); ``stores.open_store`` picks one by the
``--database`` a server is given, and nothing else changes. Both keep a numbered
schema (``SCHEMA_VERSION``), created or brought up to date when a server starts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Protocol

from lupus.engine.errors import LupusError

AI_FALLBACK: Final = "llm-fallback"
"""Who played an AI seat's action that the heuristic stand-in decided (the model failed,
was slow, or named no legal choice): ``lupus export`` marks those decisions
``fallback``. Other actions are played by a person (None) or by the bot kind that
decided them (``heuristic``, ``random``, ``llm``)."""


class StoreError(LupusError):
    """The database cannot be used: unreachable, or its schema is not this lupus's (the
    message says which, and what to run)."""


class Unreachable(StoreError):
    """No database answers at the address given (or the file cannot be opened)."""


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
    upgraded: tuple[int, int]
    """The schema's versions before and after the store was opened (it upgrades it)."""

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

    def append_action(
        self, game_id: str, index: int, action: list[object], by: str | None = None
    ) -> None:
        """Action ``index`` of the game (0 first); refused if that index is stored.
        ``by``: who played it (None: a person, or the game's leader; else the bot kind,
        or ``AI_FALLBACK``), kept beside the action, never in it: the action is the
        scenario's ``[actor, verb, args]`` as downloads and replays read it."""

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

    def room_states(self, code: str | None = None) -> list[tuple[str, dict[str, object]]]:
        """Every room ever kept (expired ones too: their games stay), or the one named,
        as its code and state, by code (``lupus export`` reads their settings and
        games)."""

    def scenario(self, game_id: str) -> tuple[dict[str, object], list[list[object]]] | None:
        """A game's setup and actions, or None if there is no such game."""

    def played_by(self, game_id: str) -> dict[int, str]:
        """Who played each action of a game that a bot played (``append_action``'s
        ``by``), by index; a person's actions, and those stored before the store kept
        it, are not in it."""

    def has_game(self, game_id: str) -> bool:
        """Whether there is such a game (a look-up of its id alone: ``scenario`` reads
        its every action)."""

    def close(self) -> None: ...
