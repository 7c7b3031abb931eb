"""Where a room runs, as the rest of the server hears it when several processes share
its database (``lupus.server.cluster``; this module needs no database driver, so that
a server on SQLite imports nothing of PostgreSQL's)."""

from __future__ import annotations

from dataclasses import dataclass


class Elsewhere(Exception):
    """The room is run by another live process, ``owner``."""

    def __init__(self, owner: str) -> None:
        super().__init__(owner)
        self.owner = owner


@dataclass(frozen=True)
class Told:
    """What a room's process says of it to another, for a request there: its lobby
    (the JSON text its clients are sent), its current game and that game's status as
    its players are shown it."""

    code: str
    lobby: str
    game_id: str | None
    shown_status: str
