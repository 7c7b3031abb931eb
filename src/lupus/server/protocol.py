"""The WebSocket protocol: every message a client may send, validated, and the codes
of the errors the server answers with (``docs/protocol.md`` documents both ways).

A client's message is one JSON object with a ``type``. Anything that is not exactly
one of the messages below (an unknown type, a missing or extra field, a value of the
wrong type, a frame too long) is refused with an ``error`` and changes nothing. The
server never takes a seat, a name or a role from a client: a seat is what the token a
client holds was given, and everything else is checked against the game.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Final, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
)

from lupus.files import printable
from lupus.server.refusals import Refusal, Value

VERSION: Final = 1
"""The protocol's version, sent in ``welcome``; a change that breaks a client bumps it."""

MAX_FRAME: Final = 4096
"""The longest message a client may send, in bytes (the longest legal one is a chat line)."""

MAX_CHAT: Final = 500
"""The longest chat line, in characters."""

MAX_ARGS: Final = 8
"""The most arguments an action may carry (the engine's longest is a pair)."""

Code = Literal[
    "malformed",  # not JSON, not an object, an unknown type, a field missing or wrong
    "too_long",  # a frame longer than MAX_FRAME
    "unknown_room",  # no room by that code
    "bad_token",  # no seat holds that token
    "not_joined",  # a message that needs a seat before join or rejoin
    "room_full",  # every seat is taken
    "started",  # the game has started: no joining, no seating changes
    "bad_name",  # a name the rules refuse, or one already taken in the room
    "not_host",  # a host command from another seat
    "not_allowed",  # a command that makes no sense now (start an unfilled room...)
    "stale",  # an action answering an older view than the seat's current one
    "illegal",  # an action the rules refuse now (the engine's reason follows)
    "muted",  # a chat line where this seat may not speak now
    "slow_down",  # too many messages too fast, or too many wrong codes or tokens
    "too_many",  # too many connections from one address (then closed)
    "server_full",  # the server has all the connections it takes (then closed)
    "internal",  # the server failed; nothing was changed
]


class ProtocolError(Exception):
    """A refusal: a code a client can act on, and a reason with its fields, which every
    page words in its own language (``lupus.server.refusals``); ``message`` is its
    English."""

    def __init__(self, code: Code, reason: str | Refusal, **fields: Value) -> None:
        refusal = reason if isinstance(reason, Refusal) else Refusal(reason, **fields)
        super().__init__(refusal.message)
        self.code: Code = code
        self.refusal = refusal
        self.message = refusal.message


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: StrictInt | None = None
    """Echoed in the answer (``ack`` or ``error``), so a client can match them."""


class Join(_Message):
    """Take a free seat of a room that has not started, under a name."""

    type: Literal["join"]
    room: StrictStr = Field(max_length=16)
    name: StrictStr = Field(max_length=64)
    lang: StrictStr | None = Field(default=None, max_length=8)


class Rejoin(_Message):
    """Come back to one's seat (or the host's place) with the token given at join."""

    type: Literal["rejoin"]
    room: StrictStr = Field(max_length=16)
    token: StrictStr = Field(max_length=64)
    lang: StrictStr | None = Field(default=None, max_length=8)


class Watch(_Message):
    """Watch a room as a spectator: the public view, the spectators' chat."""

    type: Literal["watch"]
    room: StrictStr = Field(max_length=16)
    lang: StrictStr | None = Field(default=None, max_length=8)
    # The host's token: he may watch his own room even when it refuses spectators (an
    # at-the-table host's device reads the public story aloud from this view).
    token: StrictStr | None = Field(default=None, max_length=64)


class Act(_Message):
    """Answer one of the seat's prompts. ``state_id`` is the view's it answers: a stale
    one is refused. ``seat`` is only for a game leader submitting a player's choice."""

    type: Literal["act"]
    verb: StrictStr = Field(max_length=32)
    args: list[StrictInt | StrictStr] = Field(default_factory=list, max_length=MAX_ARGS)
    state_id: StrictInt
    seat: StrictInt | None = None


class Chat(_Message):
    """Say something on the channel the seat may speak on now (the server picks it)."""

    type: Literal["chat"]
    text: StrictStr = Field(min_length=1, max_length=MAX_CHAT)


class Ping(_Message):
    type: Literal["ping"]


Card = Annotated[StrictStr, Field(max_length=40)]


class Dealt(BaseModel):
    """The cards a game leader dealt by hand (``Start.deal``): each seat's card, the
    Thief's two extra cards, or Lupusburg's characters per seat (two houses), the
    chests' houses and the first Burgomaster. The same fields as a scenario's deal."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    roles: list[Card] = Field(default_factory=list, max_length=40)
    extra_cards: list[Card] = Field(default_factory=list, max_length=4)
    characters: list[Annotated[list[Card], Field(max_length=2)]] = Field(
        default_factory=list, max_length=40
    )
    chests: list[StrictInt] = Field(default_factory=list, max_length=40)
    burgomaster: StrictInt = 0


class Start(_Message):
    """Host: deal and start; ``fill`` puts bots of that kind in the empty seats (``llm``:
    AI players, refused when the server has no model); in a game leader's room,
    ``deal`` is the deal he made with his cards (else the server deals and his page
    tells him whom to give which card)."""

    type: Literal["start"]
    fill: Literal["random", "heuristic", "llm"] | None = None
    deal: Dealt | None = None


class AddBot(_Message):
    """Host: a bot in a seat (the first free one, if ``seat`` is not given); ``llm``:
    an AI player, played by the server's model (refused when it has none)."""

    type: Literal["add_bot"]
    kind: Literal["random", "heuristic", "llm"] = "heuristic"
    seat: StrictInt | None = None


class Kick(_Message):
    """Host: free a seat before the start (its token stops working)."""

    type: Literal["kick"]
    seat: StrictInt


class Swap(_Message):
    """Host: exchange two seats before the start (the table's order is the seats')."""

    type: Literal["swap"]
    seat: StrictInt
    other: StrictInt


class HandOver(_Message):
    """Host: a bot plays a seat from now on (``kind``; ``llm``: an AI player, refused
    when the server has no model), or its player again (None)."""

    type: Literal["hand_over"]
    seat: StrictInt
    kind: Literal["random", "heuristic", "llm"] | None = "heuristic"


class PassHost(_Message):
    """Host: the host's powers go to the person of ``seat`` (who holds them may), or
    back to the room's creator without a seat (None)."""

    type: Literal["pass_host"]
    seat: StrictInt | None


class NewLink(_Message):
    """Host: a new join link for a person's ``seat`` (his seat on another device); the
    seat's old token is refused from now on and its connections are closed."""

    type: Literal["new_link"]
    seat: StrictInt


class Close(_Message):
    """Host (or game leader): close the open step, as a timer running out does."""

    type: Literal["close"]
    state_id: StrictInt


class Again(_Message):
    """Host: after the end, a new game with the same people and settings."""

    type: Literal["again"]


class Narrate(_Message):
    """Host, at one table: who reads the public story aloud. ``by`` ``"host"`` (his
    device, the default), ``"seat"`` (the phone of a person's ``seat``) or
    ``"screen"`` (a separate screen: the ``ack`` carries its link, given this once)."""

    type: Literal["narrator"]
    by: Literal["host", "seat", "screen"]
    seat: StrictInt | None = None


class Settings(_Message):
    """Host: change the room's settings while no game is being played (before the first
    start, or between games); a field not given (or null) stays as it is. Each value
    is checked by ``RoomSettings``, as a new room's (the same bounds, the same words):
    here only its JSON type is. ``timers``: as at creation, or ``"default"`` (the
    rulebook's, times ``timer_scale``). ``players``, ``composition`` (the cards, or
    ``"recommended"``: the rulebook's for the room's size) and ``options`` (the whole
    set, as at creation) change the table the next game deals: a room's seats follow
    its ``players`` (``Room.resize``)."""

    type: Literal["settings"]
    players: StrictInt | None = None
    composition: JsonValue = None
    options: JsonValue = None
    timers: JsonValue = None
    timer_scale: StrictFloat | None = None
    absent_bots: StrictBool | None = None
    bot_delay: StrictFloat | None = None
    spectators: StrictBool | None = None
    allow_export: StrictBool | None = None

    def changes(self) -> dict[str, object]:
        """The fields given, by name, as ``settings.changed`` takes them."""
        return self.model_dump(exclude={"type", "id"}, exclude_none=True)


Entering = Join | Rejoin | Watch
Playing = Act | Chat | Ping | Close
Hosting = Start | AddBot | Kick | Swap | HandOver | Again | PassHost | NewLink | Settings | Narrate
ClientMessage = Annotated[Entering | Playing | Hosting, Field(discriminator="type")]

CLIENT: Final[TypeAdapter[ClientMessage]] = TypeAdapter(ClientMessage)

HOST_ONLY: Final = (
    Start,
    AddBot,
    Kick,
    Swap,
    HandOver,
    Again,
    PassHost,
    NewLink,
    Settings,
    Narrate,
)


def explain(error: ValidationError) -> str:
    """A pydantic refusal in one sentence (its first problem)."""
    first = error.errors()[0]
    where = ".".join(printable(str(part)) for part in first["loc"][:8])
    message = printable(str(first["msg"]), 300)
    return f"{where}: {message}" if where else message


_TOKEN: Final = re.compile(r'"(?:[^"\\]|\\.)*"|[^"]+', re.DOTALL)
_ID_VALUE: Final = re.compile(r"\s*:\s*(-?(?:0|[1-9][0-9]*))(?=\s*[,}]|\s*$)")


def frame_id(text: str) -> int | None:
    """The integer ``id`` of a JSON object's top level, read without building its
    values: a frame nested too deep for the JSON reader (a thousand levels) still has
    its id read, so that its refusal carries it. None if the text does not begin an
    object, or its last ``id`` is no integer (as ``json.loads`` reads it: the last of
    several wins; ``5.0`` and ``"5"`` are not ids).

    The text is read as strings and the runs between them (one regular expression
    match each); a run's brackets are counted, not walked, unless it may close the
    object."""
    reader = _IdReader()
    for match in _TOKEN.finditer(text):
        token = match.group()
        ended = reader.string(token) if token[0] == '"' else reader.run(token)
        if ended:
            break
    return reader.found


class _IdReader:
    """Where ``frame_id`` is in the text: the depth of brackets, whether a top-level
    key comes next, the top-level key whose value comes next, and the id found so far.
    Each token read says whether the reading is over (``found`` is then the answer)."""

    __slots__ = ("depth", "expect_key", "found", "key")

    def __init__(self) -> None:
        self.depth = 0
        self.expect_key = False
        self.key: str | None = None
        self.found: int | None = None

    def string(self, token: str) -> bool:
        """A JSON string: a top-level key, or a value (a string is no id)."""
        if self.depth != 1:
            if self.depth == 0:
                self.found = None  # (a string, not an object)
                return True
            return False
        if self.expect_key:
            try:
                self.key = json.loads(token)
            except ValueError:
                return True
            self.expect_key = False
        elif self.key == "id":
            self.found, self.key = None, None  # a string is no id
        return False

    def run(self, token: str) -> bool:
        """What lies between two strings: a top-level id's value, if one comes next,
        and brackets (walked only where the object begins or may end)."""
        if self.depth == 1 and self.key == "id":
            value = _ID_VALUE.match(token)
            self.found = int(value.group(1)) if value is not None else None
            self.key = None
        opens = token.count("[") + token.count("{")
        closes = token.count("]") + token.count("}")
        if self.depth == 0 or closes >= self.depth:
            return self.walk(token)
        self.depth += opens - closes
        if self.depth == 1:
            last = max(token.rfind(bracket) for bracket in "[]{}")
            tail = token[last + 1 :]
            separator = max(tail.rfind(","), tail.rfind(":"))
            if separator >= 0:
                self.expect_key = tail[separator] == ","
            elif last >= 0:
                self.expect_key = token[last] == "{"
        return False

    def walk(self, token: str) -> bool:
        """A run in which the object begins or may end, a character at a time."""
        for char in token:
            if char in "[{":
                if self.depth == 0 and char != "{":
                    self.found = None
                    return True
                self.depth += 1
                if self.depth == 1:
                    self.expect_key = True
            elif char in "]}":
                self.depth -= 1
                if self.depth <= 0:
                    return True
            elif self.depth == 0 and not char.isspace():
                self.found = None
                return True
            elif self.depth == 1 and char in ":,":
                self.expect_key = char == ","
        return False
