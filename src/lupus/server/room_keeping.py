"""What the store keeps of a room, and how a room comes back from it after a restart.

The room is saved whole (its settings, seats, tokens' digests, games and results, the
night's clock and who narrates) at every change of its own, and its game is kept
apart, action by action, as it is played (``room_game.record``). A restart reads the
room back and replays its game action by action (``records.replayed``): nothing of a
game is kept but its scenario and its actions, so the game after a restart is the game
before it, event for event.
"""

from __future__ import annotations

from typing import Any

from lupus.server.records import replayed
from lupus.server.room_core import RoomCore
from lupus.server.seats import Seat
from lupus.server.store import GameRecord


class Keeping(RoomCore):
    """A room's state in the store (see the module docstring)."""

    def to_state(self) -> dict[str, object]:
        """The room as the store keeps it (JSON): everything but its game's actions,
        which the store keeps as they come, and its connections, which a restart ends."""
        return {
            "settings": self.settings.model_dump(),
            "seats": [None if seat is None else seat.to_state() for seat in self.seats],
            "host_token": self.host_token,
            "host_seat": self.host_seat,
            "first_token": self.first_token,
            "status": self.status,
            "number": self.number,
            "games": list(self.games),
            "results": list(self.results),
            "timer": self.pacer.to_state(),
            "narrator": self.narration.to_state(),
        }

    def save(self) -> None:
        """Keep the room as it is now (and when it last changed: ``Hub.sweep``)."""
        self.updated = self.clock()
        self.store.save_room(self.code, self.to_state(), self.updated)

    def take_back(self, state: dict[str, Any], game: GameRecord | None) -> None:
        """The state the store kept (``to_state``) into this new room of the same
        settings, its game replayed action by action (``Room.restore``)."""
        self.seats = [None if s is None else Seat.from_state(s) for s in state["seats"]]
        self.host_token = state["host_token"]
        self.host_seat = state["host_seat"]
        self.first_token = state.get("first_token")
        self.number = int(state["number"])
        self.games = list(state.get("games", []))
        self.results = list(state.get("results", []))
        self.narration.restore(state.get("narrator"))
        self.status = "lobby" if game is None else state["status"]
        if game is None or self.status == "lobby":  # the lobby's chat (between games too)
            self.chat_log = self.store.chat(f"{self.code}-lobby")
        else:
            played = replayed(game.header, game.actions)
            self.games = [g for g in self.games if g != game.id]
            self.begin(played, game.id)
            self.chat_log = list(game.chat)
            self.pacer.resume(state.get("timer"))
        self.presence.restored()
