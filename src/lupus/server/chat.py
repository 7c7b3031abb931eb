"""Who may talk to whom, and when: the chat's channels follow the rules of the table.

- ``all``: in the lobby and after the end, everyone (spectators too).
- ``day``: by day, the living talk; everyone reads (the dead watch silently).
- ``pack``: at night, the pack while it is awake (``Family.awake_together``) talk among
  themselves; nobody else reads it.
- ``dead``: the dead talk among themselves during the game; nobody else reads it but a
  game leader. Spectators never read it: anyone with a room's code may watch, a living
  player too (in a second tab), so a spectator's connection may be a living player's.
  During a game a spectator does not talk (he could be a dead player telling the
  living what the dead saw); he reads ``day`` and talks on ``all`` before and after.

Everything is decided from what the players have been shown, never from the game
beyond it: who is dead is what the public deaths shown say (a victim of the night
learns it at dawn, with everyone), the phase and the step are those shown, and so is
the game's end (a line sent while the night's pacing holds the last dawn back goes
where it would have gone during the game). The server picks the channel from the
sender's seat and that; a client cannot name one. Lines are stored with the game
(``chat`` of the store) and resent on rejoin, each to whoever may read it then.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from lupus.engine.model import LEADER
from lupus.server.clients import Client
from lupus.server.protocol import ProtocolError

if TYPE_CHECKING:
    from lupus.server.room_parts import TalkingRoom

HISTORY: Final = 200
"""Lines of chat resent to a client that (re)joins."""


def channel(room: TalkingRoom, client: Client) -> tuple[str, list[int] | None]:
    """The channel ``client`` speaks on now and the seats that read it (None: every
    seat and spectator, as the channel says); ProtocolError ``muted`` if none."""
    return seat_channel(room, client.seat)


def seat_channel(room: TalkingRoom, seat: int | None) -> tuple[str, list[int] | None]:
    """``channel`` of whoever speaks from ``seat`` (None: a spectator; LEADER: the
    game leader): a person's connection or an AI player, by the same rules."""
    game = room.game
    if game is None or room.shown_status != "playing" or seat == LEADER:
        return "all", None
    if seat is None:
        raise ProtocolError("muted", "spectators_silent")
    if seat in room.pacer.shown_dead():
        return "dead", None
    if room.pacer.shown_phase() != "night":
        return "day", None
    awake = room.pacer.shown_awake()
    if seat in awake:
        return "pack", sorted(awake)
    raise ProtocolError("muted", "night_silent")


def readable(room: TalkingRoom, client: Client, line: dict[str, object]) -> bool:
    seat, kind = client.seat, line["channel"]
    if seat == LEADER or kind in ("all", "day"):
        return True
    if seat is None:
        return False  # (spectators read neither the pack nor the dead)
    if kind == "pack":
        seats = line["seats"]
        return isinstance(seats, list) and seat in seats
    return room.game is not None and seat in room.pacer.shown_dead()  # "dead"


def post(room: TalkingRoom, client: Client, text: str) -> dict[str, object]:
    return say(room, client.seat, text)


def say(room: TalkingRoom, seat: int | None, text: str) -> dict[str, object]:
    """A line from ``seat`` (a person's connection's, or an AI player's) on the channel
    its seat speaks on now: stored with the game, sent to whoever may read it; the
    line as stored."""
    if room.settings.mode == "leader" and seat != LEADER:
        raise ProtocolError("muted", "table_talk")
    kind, seats = seat_channel(room, seat)
    name = None
    if seat is not None and seat >= 0:
        held = room.seats[seat]
        name = held.name if held is not None else None
    line: dict[str, object] = {
        "type": "chat",
        "channel": kind,
        "seat": seat if seat is not None and seat >= 0 else None,
        "from": name,
        "text": text,
        "time": round(room.clock(), 3),
        "seats": seats,
    }
    room.store_chat(line)
    for other in list(room.clients):
        if readable(room, other, line):
            other.send(shown(line))
    return line


def shown(line: dict[str, object]) -> dict[str, object]:
    """A line as a client receives it (who else reads a pack line is not said)."""
    return {key: value for key, value in line.items() if key != "seats"}


def history(room: TalkingRoom, client: Client) -> None:
    lines = [shown(line) for line in room.chat_log if readable(room, client, line)]
    for line in lines[-HISTORY:]:
        client.send(line)
