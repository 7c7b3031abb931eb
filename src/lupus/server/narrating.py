"""Who reads the public story aloud at one table (``"table": true`` rooms): the host's
device by default, or a person's phone the host chose, or a separate screen (a tablet,
a TV's browser) entered with a screen link the host asked for (``narrator`` command,
docs/protocol.md "At-the-table rooms").

Whoever narrates listens on a spectator's connection (``watch``): the public view and
nothing else, whatever token opened it. The choice gives that connection the right to
watch a room that refuses spectators, and nothing more: a seat's token still holds its
seat only on ``rejoin``, a screen's token holds no seat at all (``rejoin`` refuses it).
When the host chooses again, the connections that watched by the right he took back
are told (``bad_token``) and closed.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any, Final, Literal

from lupus.server.protocol import ProtocolError
from lupus.server.seats import new_token

if TYPE_CHECKING:
    from lupus.server.room_parts import NarratedRoom

By = Literal["host", "seat", "screen"]

BY: Final[tuple[str, ...]] = ("host", "seat", "screen")


class Narration:
    """A room's narrator: ``by`` (``"host"``, ``"seat"``, ``"screen"``), the narrating
    ``seat`` (with ``"seat"``), and the digest of the screen's token (with ``"screen"``:
    only the digest is kept, as for every token)."""

    def __init__(self, room: NarratedRoom) -> None:
        self.room = room
        self.by: str = "host"
        self.seat: int | None = None
        self.screen: str | None = None

    # ------------------------------------------------------------------ the choice
    def choose(self, by: str, seat: int | None) -> str | None:
        """The host's choice (ProtocolError if it makes no sense); the screen's new
        token (given this once) when he chose a screen, else None. A screen chosen
        again gets a new token: the old link stops working."""
        room = self.room
        if not room.settings.table:
            raise ProtocolError("not_allowed", "narrator_table_only")
        if by == "seat":
            if seat is None:
                raise ProtocolError("not_allowed", "narrator_which_seat")
            room.check_seat_number(seat)
            held = room.seats[seat]
            if held is None or held.token is None:
                raise ProtocolError("not_allowed", "narrator_person")
        elif seat is not None:
            raise ProtocolError("not_allowed", "narrator_seat_with_by")
        token: str | None = None
        kept: str | None = None
        if by == "screen":
            token, kept = new_token()
        self.by, self.seat, self.screen = by, seat, kept
        room.save()
        self.revoke()
        room.broadcast()
        return token

    def admits(self, kept: str) -> bool:
        """Whether the token of this digest may watch as the room's narrator now (a
        host's own token always may: ``Hub.hosting``). Only at one table: a room
        whose settings no longer say so has no narrator but its host."""
        if not self.room.settings.table:
            return False
        if self.by == "screen" and self.screen is not None:
            return secrets.compare_digest(kept, self.screen)
        if self.by == "seat" and self.seat is not None:
            held = self.room.seats[self.seat]
            return (
                held is not None
                and held.token is not None
                and (secrets.compare_digest(kept, held.token))
            )
        return False

    def revoke(self) -> None:
        """Close the connections that watched by a narrator's right that is gone."""
        room = self.room
        for client in list(room.clients):
            key = client.narrator_key
            if key is not None and not self.admits(key):
                client.send_error("bad_token", "narrator_replaced")
                room.clients.discard(client)
                room.presence.left(client)
                client.seat, client.host, client.room = None, False, None
                client.close()

    # ------------------------------------------------------------------ the seats move
    def swapped(self, seat: int, other: int) -> None:
        """The narrating person keeps narrating from his new seat."""
        if self.seat in (seat, other):
            self.seat = other if self.seat == seat else seat

    def freed(self, seat: int) -> None:
        """The narrating seat was given away (``kick``): the host narrates again."""
        if self.by == "seat" and self.seat == seat:
            self.by, self.seat = "host", None

    # ------------------------------------------------------------------ shown, kept
    def to_lobby(self) -> dict[str, object]:
        return {"by": self.by, "seat": self.seat}

    def key(self) -> tuple[str, int | None]:
        return (self.by, self.seat)

    def to_state(self) -> dict[str, object]:
        return {"by": self.by, "seat": self.seat, "screen": self.screen}

    def restore(self, state: Any) -> None:
        if not isinstance(state, dict) or state.get("by") not in BY:
            return  # (a room kept before narrators could be chosen: the host's)
        seat = state.get("seat")
        screen = state.get("screen")
        self.by = str(state["by"])
        self.seat = seat if type(seat) is int else None
        self.screen = screen if isinstance(screen, str) else None
