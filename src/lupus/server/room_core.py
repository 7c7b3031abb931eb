"""A room's state, and the calls its own parts make of one another.

``Room`` (``lupus.server.rooms``) is put together from parts, one concern each: its
seats and tokens (``room_seats``), the game's life (``room_game``), what goes out to
its clients (``room_sending``) and what the store keeps (``room_keeping``). Each part
is a class that inherits this one: here is everything a part may read of the room's
state, and every call one part makes of another (abstract here), so that a part can be
read alone. A call declared here and written in no part leaves ``Room`` abstract, which
mypy and Python refuse to make.

The room's helpers (``pacing``, ``bot_seats``, ``presence``...) see much less of it:
their narrow protocols are in ``room_parts``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable

from lupus.engine.game import Game
from lupus.engine.model import Prompt
from lupus.rulebooks.schema import Rulebook
from lupus.server.ai_seats import AiSeats
from lupus.server.bot_seats import BotSeats
from lupus.server.clients import Client, Said
from lupus.server.limits import ServerLimits
from lupus.server.narrating import Narration
from lupus.server.pacing import Pacer
from lupus.server.presence import Presence
from lupus.server.room_parts import Schedule, Work
from lupus.server.seats import Seat
from lupus.server.settings import RoomSettings
from lupus.server.store import Store


class RoomCore(ABC):
    """A room's state (set by ``Room.__init__``) and its parts' calls of each other."""

    # What the room was made with: its code, the server's store, clocks and limits.
    code: str
    store: Store
    schedule: Schedule
    clock: Callable[[], float]
    ticks: Callable[[], float]
    work: Work | None
    limits: ServerLimits
    # Its settings (the host's ``settings`` replace them between games), its rulebook.
    settings: RoomSettings
    book: Rulebook
    lang: str
    # Its seats, and who holds the host's powers (``room_seats``, ``presence``).
    seats: list[Seat | None]
    host_token: str | None
    host_seat: int | None
    first_token: str | None
    # Its games: the current one, and how the finished ones ended.
    status: str
    number: int
    game: Game | None
    game_id: str | None
    games: list[str]
    results: list[dict[str, object]]
    chat_log: list[dict[str, object]]
    said: Said
    offered: dict[int, tuple[tuple[Prompt, ...], int]]
    updated: float
    # Its connections, and its helpers.
    clients: set[Client]
    bots: BotSeats
    ai: AiSeats
    pacer: Pacer
    presence: Presence
    narration: Narration

    # ------------------------------------------------------------------ room_seats
    @abstractmethod
    def bot_name(self, seat: int) -> str:
        """The name a bot takes at ``seat``."""

    @abstractmethod
    def check_kind(self, kind: str | None) -> None:
        """Refuse a bot kind the server cannot play (an AI player without a model)."""

    # ------------------------------------------------------------------ room_game
    @property
    @abstractmethod
    def shown_status(self) -> str:
        """The room's status as its clients have been shown it."""

    @abstractmethod
    def shown_results(self) -> list[dict[str, object]]:
        """The finished games' results as shown."""

    @abstractmethod
    def begin(self, game: Game, game_id: str) -> None:
        """A game (new, or replayed after a restart) becomes the room's."""

    # ------------------------------------------------------------------ room_sending
    @abstractmethod
    def broadcast(self) -> None:
        """Send every client what changed for it."""

    @abstractmethod
    def broadcast_lobby(self, entered: Client | None = None) -> None:
        """Send every client the lobby (and one who just ``entered`` his view)."""

    @abstractmethod
    def changed_lobby(self) -> None:
        """The lobby changed: store the room, tell everyone."""

    # ------------------------------------------------------------------ room_keeping
    @abstractmethod
    def to_state(self) -> dict[str, object]:
        """What the store keeps of the room."""

    @abstractmethod
    def save(self) -> None:
        """Store the room as it is now."""
