"""A client's frame, weighed and read: the first half of ``Hub.handle``.

Every frame counts against its sender's rates by its length (``WEIGHED``), junk too; a
frame over the rate is refused unread but for its id (``refuse_flood``); the usual one,
a well-formed message, is read and checked in one pass (``quick``); anything else is
read again to say what is wrong with it (``parsed``, ``ref_of``, ``checked``), and the
refusal carries the frame's id whenever it has one, even a frame too long or nested
too deep for the JSON reader.
"""

from __future__ import annotations

import json
import logging
from typing import Any, Final

from pydantic import ValidationError

from lupus.server.clients import MESSAGES, Client
from lupus.server.gate import Gate
from lupus.server.protocol import CLIENT, MAX_FRAME, ProtocolError, explain, frame_id

log = logging.getLogger("lupus.server")

LONGEST_READ: Final = 16 * MAX_FRAME
"""The longest frame read at all (for its id): uvicorn cuts off longer ones itself."""

WEIGHED: Final = 2048
"""A frame counts as one message and one more for each whole ``WEIGHED`` bytes of it
(a frame of 64 KiB as 32): reading a frame costs the server about its length (a long
one read for its id, 5 ms for 64 KiB of numbers), and the allowance is work."""

QUOTES: Final = 50
"""A frame nested too deep counts one message more for each ``QUOTES`` quotes in it:
its id is read without the JSON reader (``protocol.frame_id``), a few microseconds
for each of its strings (4 ms for 4 KiB of them)."""

PEEKED: Final = 1024
"""The longest frame refused for its rate whose id is read (by the JSON reader, which
stops at a nesting too deep): a refusal is cheap, whatever the frame."""

FLOOD: Final = 4 * MESSAGES[0]
"""What the frames a connection sent over its rate may count (``WEIGHED``) with no
well-formed message between them before it is closed: a client that does not wait
after ``slow_down`` floods, and even a frame refused unread costs its reading (240
pings, or eight frames of 64 KiB). Junk let through by the rate does not end a flood:
a flooding connection that the refill lets a frame through now and then still closes."""

NOT_JSON: Final = object()
TOO_DEEP: Final = object()


def size_of(raw: str | bytes) -> int:
    """A frame's length in bytes (what its reading costs)."""
    return len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "replace"))


def refuse_flood(client: Client, raw: str | bytes, size: int, weight: int) -> None:
    """A frame over its rate: refused, its id read only if it is short (``PEEKED``);
    the connection is closed once those in a row count ``FLOOD``."""
    ref: int | None = None
    if size <= PEEKED:
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError):
            data = None
        if isinstance(data, dict) and type(data.get("id")) is int:
            ref = data["id"]
    client.send_error("slow_down", "too_many_messages", ref)
    client.refused += weight
    if client.refused > FLOOD:
        log.info("connection_flooded")
        client.close()


def quick(raw: str | bytes, size: int) -> Any:
    """The usual case, a well-formed message: read and checked in one pass (pydantic's
    own JSON reader), half the time of ``json.loads`` and then the check; None for
    anything else (read again by ``parsed`` to say what is wrong)."""
    if size > MAX_FRAME:
        return None
    try:
        return CLIENT.validate_json(raw)
    except ValidationError:
        return None


def parsed(raw: str | bytes, size: int) -> object:
    """A frame's JSON as ``json.loads`` reads it, ``NOT_JSON`` or ``TOO_DEEP`` (a
    frame longer than ``LONGEST_READ`` is not read at all: ``NOT_JSON``)."""
    if size > LONGEST_READ:
        return NOT_JSON
    try:
        return json.loads(raw)
    except RecursionError:
        return TOO_DEEP
    except ValueError:
        return NOT_JSON


def ref_of(data: object, raw: str | bytes, size: int, client: Client, gate: Gate) -> int | None:
    """The id a refusal of the frame echoes, if it has one. A frame nested too deep is
    read again without building its values (``frame_id``), and its strings' reading
    is paid for from the client's allowance (``QUOTES``)."""
    if isinstance(data, dict) and type(data.get("id")) is int:
        return int(data["id"])
    if data is TOO_DEEP and size <= MAX_FRAME:
        text = raw if isinstance(raw, str) else raw.decode("utf-8", "replace")
        ref = frame_id(text)
        gate.spend(client, text.count('"') // QUOTES)  # (its strings read)
        return ref
    return None


def checked(data: object, size: int) -> Any:
    """The message the frame holds, or the ProtocolError that says what is wrong."""
    if size > MAX_FRAME:
        raise ProtocolError("too_long", "frame_too_long", bytes=MAX_FRAME)
    if data is NOT_JSON:
        raise ProtocolError("malformed", "not_json")
    if data is TOO_DEEP:
        raise ProtocolError("malformed", "too_deep")
    try:
        return CLIENT.validate_python(data)
    except ValidationError as exc:
        raise ProtocolError("malformed", "malformed", detail=explain(exc)) from exc
