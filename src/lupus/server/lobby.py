"""A room's lobby as its clients are sent it: settings, seats, who is connected, and
how its finished games ended."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lupus.server.room_parts import LobbyRoom


def lobby_of(room: LobbyRoom) -> dict[str, object]:
    """The lobby message (``docs/protocol.md``): everything in it is public."""
    connected = {client.seat for client in room.clients}
    return {
        "type": "lobby",
        "room": room.code,
        "rules": room.book.id,
        "mode": room.settings.mode,
        "players": room.settings.players,
        "composition": room.settings.counts(),
        "options": dict(room.settings.options),
        "lang": room.lang,
        "status": room.shown_status,
        "number": room.number,
        "game": room.game_id,
        "host_seat": room.host_seat,
        "seatless_creator": room.first_token is not None,
        "seeded": room.settings.seed is not None,
        "spectators": room.settings.spectators,
        "table": room.settings.table,
        # who reads the public story aloud at one table (``narrating``)
        "narrator": room.narration.to_lobby(),
        "timers": room.settings.timers.model_dump() if room.settings.timed else None,
        "absent_bots": room.presence.on,
        # whether the host may seat AI players (the server has a model: ``ai_seats``)
        "ai": room.ai.able,
        # whether the room's finished games may be exported (``lupus export``)
        "allow_export": room.settings.allow_export,
        "results": room.shown_results(),
        "seats": [
            None
            if seat is None
            else {
                "name": seat.name,
                "bot": seat.bot,
                "person": seat.token is not None,
                "connected": number in connected,
                "away": seat.away,
            }
            for number, seat in enumerate(room.seats)
        ],
    }
