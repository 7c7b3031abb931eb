"""A room: its seats, its game, its chat, and everyone connected to it.

``Room`` is put together from parts, one concern each, that share its state
(``room_core.RoomCore``): its seats and tokens (``room_seats``), its game's life and
the one path by which actions reach it (``room_game``), what goes out to its clients
(``room_sending``) and what the store keeps of it (``room_keeping``). Its helpers, each
a concern of its own (the night's clock, the bots, who is here, who narrates, the chat,
the lobby), see the room through the narrow protocols of ``room_parts``.

Everything here runs on the server's event loop and never awaits, so each change is
atomic; what goes out to a client is put on its queue.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from lupus.engine.game import Game
from lupus.engine.model import Prompt
from lupus.engine.names import checked_names
from lupus.families import family_of, load
from lupus.server.ai_seats import AiSeats
from lupus.server.bot_seats import BotSeats
from lupus.server.clients import Client, Said
from lupus.server.limits import ServerLimits
from lupus.server.minds import Minds
from lupus.server.narrating import Narration
from lupus.server.pacing import Pacer
from lupus.server.presence import Presence
from lupus.server.protocol import ProtocolError, explain
from lupus.server.room_game import Playing
from lupus.server.room_keeping import Keeping
from lupus.server.room_parts import Schedule, Work
from lupus.server.room_seats import Seating
from lupus.server.room_sending import Sending
from lupus.server.seats import Seat
from lupus.server.settings import RoomSettings, changed, check_settings
from lupus.server.store import GameRecord, Store

log = logging.getLogger("lupus.server")


class Room(Seating, Playing, Sending, Keeping):
    """One room (see the module docstring)."""

    def __init__(
        self,
        code: str,
        settings: RoomSettings,
        store: Store,
        schedule: Schedule,
        clock: Callable[[], float] = time.time,
        ticks: Callable[[], float] = time.monotonic,
        work: Work | None = None,
        limits: ServerLimits | None = None,
        minds: Minds | None = None,
    ) -> None:
        """``clock``: epoch seconds (deadlines, what is stored); ``ticks``: a monotonic
        clock (how long a night step lasted); ``limits``: the server's (how long a host
        or a player may be gone: ``presence``); ``minds``: its model (``ai_seats``)."""
        self.code = code
        self.work = work
        self.limits = limits or ServerLimits()
        self.settings = settings
        self.book = load(settings.rules)
        self.lang = settings.lang or self.book.language
        self.store = store
        self.schedule = schedule
        self.clock = clock
        self.ticks = ticks
        self.seats: list[Seat | None] = [None] * settings.players
        # Who holds the host's powers now (``presence``): the digest of his token, and
        # his seat (None for a creator without one, or a game leader).
        self.host_token: str | None = None
        self.host_seat: int | None = None
        # A creator without a seat: his token, which watches the room once his powers
        # have passed on (a seat's token is its seat's).
        self.first_token: str | None = None
        self.status = "lobby"  # then "playing", "finished"
        self.number = 0  # games played in this room
        self.game: Game | None = None
        self.game_id: str | None = None
        self.games: list[str] = []  # ids of the room's games, oldest first
        # How each finished game of the room ended (public once it is over): a match's
        # scores add up over them (Lupusburg), a page arriving late reads them here.
        self.results: list[dict[str, object]] = []
        self._lobby_key: tuple[object, ...] = ()
        self._lobby_text = ""
        self.chat_log: list[dict[str, object]] = []  # the current game's (or the lobby's)
        self.clients: set[Client] = set()
        self.bots = BotSeats(self)
        self.ai = AiSeats(self, minds)
        self.pacer = Pacer(self)
        self.presence = Presence(self)
        # Who reads the public story aloud at one table (``narrating``).
        self.narration = Narration(self)
        self.said = Said()
        # Each seat's prompts as last shown, and the state id from which they were.
        self.offered: dict[int, tuple[tuple[Prompt, ...], int]] = {}
        self.updated = clock()
        if settings.mode == "leader":
            assert settings.names is not None
            no_dot = family_of(self.book).names_without_dot
            for seat, name in enumerate(checked_names(self.book, settings.names, no_dot)):
                self.seats[seat] = Seat(name, None)

    @staticmethod
    def restore(
        code: str,
        state: dict[str, Any],
        game: GameRecord | None,
        store: Store,
        schedule: Schedule,
        clock: Callable[[], float] = time.time,
        ticks: Callable[[], float] = time.monotonic,
        work: Work | None = None,
        limits: ServerLimits | None = None,
        minds: Minds | None = None,
    ) -> Room:
        """A room as the store kept it, its game replayed action by action."""
        settings = RoomSettings.model_validate(state["settings"])
        room = Room(code, settings, store, schedule, clock, ticks, work, limits, minds)
        room.take_back(state, game)
        return room

    # ------------------------------------------------------------------ settings
    def change_settings(self, changes: dict[str, object], min_bot_delay: float) -> None:
        """The host's ``settings``: checked as a new room's are (``malformed`` for what
        the model refuses, ``not_allowed`` for what the rulebook or the server does),
        kept, and shown; the next game (``start``, ``again``) plays with them. Never
        during a game: its steps were timed, and its bots paced, as it started. A
        spectator already watching stays when spectators are switched off (``watch``
        is refused from then on)."""
        if self.shown_status == "playing":
            raise ProtocolError("started", "change_between_games")
        leader = self.settings.mode == "leader"
        if leader and ("timers" in changes or "timer_scale" in changes):
            raise ProtocolError("not_allowed", "leader_no_timers")
        resized = changes.get("players", self.settings.players) != self.settings.players
        if leader and resized:
            raise ProtocolError("not_allowed", "leader_no_players")
        if resized and self.status != "lobby":
            # (the finished game's seats are still shown: the table changes in the lobby)
            raise ProtocolError("not_allowed", "lobby_first")
        try:
            settings = changed(self.settings, changes)
        except ValidationError as exc:
            raise ProtocolError("malformed", "malformed", detail=explain(exc)) from exc
        # (a trial deal and set-up only when the table itself changes: see check_settings)
        trial = "players" in changes or "composition" in changes or "options" in changes
        problem = check_settings(settings, min_bot_delay, trial=trial)
        if problem is not None:
            raise ProtocolError("not_allowed", problem)
        if settings == self.settings:
            return
        self.settings = settings
        self.resize(settings.players)
        if not settings.absent_bots:
            for held in self.seats:  # (an absence of the last game: his seat waits now)
                if held is not None and held.away:
                    held.bot, held.away = None, False
        log.info("room_settings room=%s timed=%s", self.code, settings.timed)
        self.changed_lobby()
