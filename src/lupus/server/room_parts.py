"""What a room's helpers see of it: one narrow protocol each.

A room (``lupus.server.rooms.Room``) is made of helpers that each keep one concern: the
night's clock (``pacing``), the bots (``bot_seats``), the AI players (``ai_seats``), who
is here (``presence``), who narrates (``narrating``), the chat (``chat``) and the lobby
(``lobby``). Each reads and
calls only what its protocol here names, never the whole room, and imports no other
helper: what one needs of another (the bots of the pacer, the pacer of the bots) is a
protocol here too. So a reader of one helper knows all it may touch, a test may hand
it a small stand-in, and none of them imports ``rooms`` (which imports them all).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

from lupus.engine.game import Game
from lupus.engine.model import Action
from lupus.engine.views import View
from lupus.rulebooks.schema import Rulebook
from lupus.server.clients import Client
from lupus.server.limits import ServerLimits
from lupus.server.seats import Seat
from lupus.server.settings import RoomSettings

Schedule = Callable[[float, Callable[[], None]], Any]
"""``loop.call_later``: run a function after a delay (bots' moves, timers)."""

Work = Callable[[str, Callable[[], None]], None]
"""``work.Worker.put``: run a room's bots' work in that room's turn."""


# ---------------------------------------------------------------------- the helpers' faces
class Moves(Protocol):
    """The room's bots as the other helpers see them (``bot_seats.BotSeats``)."""

    def schedule(self) -> None:
        """After a change: the bots owed a decision move, a stuck step closes."""
        ...

    def forget(self, seat: int) -> None:
        """The seat's person is back: its bot is dropped."""
        ...


class Thinks(Protocol):
    """The room's AI players as its bots see them (``ai_seats.AiSeats``)."""

    @property
    def able(self) -> bool:
        """Whether the server has a model for them."""
        ...

    def think(self, seat: int, view: View, of_game: int, of_step: int) -> None:
        """Ask the model the decision ``view`` owes (answered to ``Answers.answer``)."""
        ...


class Answers(Protocol):
    """The room's bots as its AI players see them: the decisions come back to them."""

    @property
    def rng(self) -> random.Random: ...

    def answer(
        self,
        seat: int,
        action: Action,
        state_id: int,
        of_game: int,
        of_step: int,
        fell_back: bool = False,
    ) -> None: ...


class Held(Protocol):
    """The night's clock as the bots see it (``pacing.Pacer``)."""

    @property
    def held(self) -> int | None: ...

    def shown_deadline(self) -> float | None: ...

    def night_floor(self, step: str) -> float: ...


class Shown(Protocol):
    """The night's clock as the chat sees it: the game as its players were shown it."""

    def shown_dead(self) -> frozenset[int]: ...

    def shown_phase(self) -> str: ...

    def shown_awake(self) -> frozenset[int]: ...


class Seen(Shown, Protocol):
    """The night's clock as the AI players see it: each seat's view as shown."""

    def view(self, seat: int | None) -> View: ...


class Here(Protocol):
    """Who is here (``presence.Presence``), as the lobby and the narrator see it."""

    @property
    def on(self) -> bool: ...

    def left(self, client: Client) -> None: ...


class Told(Protocol):
    """Who narrates (``narrating.Narration``), as the lobby shows it."""

    def to_lobby(self) -> dict[str, object]: ...


# ---------------------------------------------------------------------- the room's faces
class Table(Protocol):
    """What every helper reads of its room: its code, settings, seats, game and
    connections (all read-only here: a seat is changed in place, never replaced)."""

    @property
    def code(self) -> str: ...

    @property
    def settings(self) -> RoomSettings: ...

    @property
    def seats(self) -> list[Seat | None]: ...

    @property
    def game(self) -> Game | None: ...

    @property
    def status(self) -> str: ...

    @property
    def clients(self) -> set[Client]: ...

    @property
    def clock(self) -> Callable[[], float]: ...

    def save(self) -> None:
        """Store the room as it is now."""
        ...

    def broadcast(self) -> None:
        """Send every client what changed for it."""
        ...


class PacedRoom(Table, Protocol):
    """The room as its night's clock sees it (``pacing``): a monotonic clock, a way to
    be called back, the bots to wake once a held step is shown, the timer's end."""

    @property
    def ticks(self) -> Callable[[], float]: ...

    @property
    def schedule(self) -> Schedule: ...

    @property
    def bots(self) -> Moves: ...

    def timed_out(self) -> None: ...


class BotsRoom(Table, Protocol):
    """The room as its bots see it (``bot_seats``): the rulebook (to make a bot), the
    clock (its ballots' times), and the room's one way in for actions and closes."""

    @property
    def book(self) -> Rulebook: ...

    @property
    def pacer(self) -> Held: ...

    @property
    def ai(self) -> Thinks: ...

    def later(self, delay: float, call: Callable[[], None]) -> Any: ...

    def close_step(self) -> None: ...

    def submit(
        self, actor: int, verb: str, args: list[int | str], state_id: int, by: str | None = None
    ) -> None: ...


class PresentRoom(Table, Protocol):
    """The room as its presence sees it (``presence``): who holds the host's powers,
    which it changes when they pass on, and the graces' clock."""

    host_token: str | None
    host_seat: int | None

    @property
    def first_token(self) -> str | None: ...

    @property
    def limits(self) -> ServerLimits: ...

    @property
    def ticks(self) -> Callable[[], float]: ...

    @property
    def schedule(self) -> Schedule: ...

    @property
    def pacer(self) -> Held: ...

    @property
    def bots(self) -> Moves: ...

    def check_seat_number(self, seat: int) -> None: ...


class NarratedRoom(Table, Protocol):
    """The room as its narrator's choice sees it (``narrating``)."""

    @property
    def presence(self) -> Here: ...

    def check_seat_number(self, seat: int) -> None: ...


class TalkingRoom(Table, Protocol):
    """The room as its chat sees it (``chat``): the game as shown, and its lines."""

    @property
    def shown_status(self) -> str: ...

    @property
    def pacer(self) -> Shown: ...

    @property
    def chat_log(self) -> list[dict[str, object]]: ...

    def store_chat(self, line: dict[str, object]) -> None: ...


class AiRoom(Table, Protocol):
    """The room as its AI players see it (``ai_seats``): the rulebook, each seat's view
    as shown, the chat's lines and its rules, the bots their decisions go back to."""

    @property
    def book(self) -> Rulebook: ...

    @property
    def pacer(self) -> Seen: ...

    @property
    def bots(self) -> Answers: ...

    @property
    def chat_log(self) -> list[dict[str, object]]: ...

    def later(self, delay: float, call: Callable[[], None]) -> Any: ...

    def channel_of(self, seat: int) -> tuple[str, list[int] | None]:
        """The chat channel ``seat`` speaks on now (ProtocolError ``muted``: none)."""
        ...

    def say(self, seat: int, text: str) -> None:
        """A line from ``seat`` on its channel, by the chat's rules."""
        ...


class LobbyRoom(Table, Protocol):
    """The room as its lobby message shows it (``lobby``)."""

    @property
    def book(self) -> Rulebook: ...

    @property
    def lang(self) -> str: ...

    @property
    def shown_status(self) -> str: ...

    @property
    def number(self) -> int: ...

    @property
    def game_id(self) -> str | None: ...

    @property
    def host_seat(self) -> int | None: ...

    @property
    def first_token(self) -> str | None: ...

    @property
    def narration(self) -> Told: ...

    @property
    def presence(self) -> Here: ...

    @property
    def ai(self) -> Thinks: ...

    def shown_results(self) -> list[dict[str, object]]: ...
