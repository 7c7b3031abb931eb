"""The bots that sit in a room's seats: when each moves, and when the room closes a
step nobody can move on.

A bot decides from its seat's view only and acts through the room's one way in
(``Room.submit``), as a person's client does, after the room's ``bot_delay``.
"""

from __future__ import annotations

import logging
import random
import secrets
from functools import partial
from typing import TYPE_CHECKING, Final

from lupus.bots.base import Bot
from lupus.bots.kinds import make_bot
from lupus.server.protocol import ProtocolError

if TYPE_CHECKING:
    from lupus.server.rooms import Room

log = logging.getLogger("lupus.server")

BOT_TRIES: Final = 3
"""How many times a bot decides in one step: a pack of bots that keeps pointing at
different players stops there (the timer, the host or the stalemate rule closes it)."""


class BotSeats:
    """A room's bots and what they owe in the current step."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.rng = random.Random(secrets.randbits(64))
        self.game = 0  # which of the room's games the moves scheduled are for
        self.reset()

    def reset(self) -> None:
        """A new game: new bots (a bot remembers its game), nothing owed, and the moves
        and closes scheduled for the last game come to nothing ("play again" may come
        before they are due)."""
        self.game += 1
        self.bots: dict[int, Bot] = {}
        self.pending: set[int] = set()  # seats whose bot will move
        self.step_actions = 0  # actions in the current step (a bots' stalemate)
        self.step_seen: object = None
        self.moves: dict[int, int] = {}  # decisions each bot took in the current step

    def seed(self, seed: str) -> None:
        """A seeded room's bots decide the same way every time."""
        self.rng = random.Random(seed)

    def forget(self, seat: int) -> None:
        """The seat's person is back: its bot is dropped."""
        self.bots.pop(seat, None)

    def schedule(self) -> None:
        """After a change: each bot the game waits for moves after the room's delay, and
        a step nobody can move on is closed (see ``may_close``)."""
        room = self.room
        game = room.game
        if game is None or room.status != "playing" or room.pacer.held is not None:
            return
        if game.step is not self.step_seen:
            self.step_seen, self.step_actions = game.step, 0
            self.moves = {}
        else:
            self.step_actions += 1
        waiting = game.waiting()
        humans_waited = False
        tired = 0  # bots waited for that have decided BOT_TRIES times in this step
        delay = room.settings.bot_delay
        step = game.step
        floor = room.pacer.night_floor(step.id) if step and game.phase == "night" else 0.0
        if floor > 0:
            # A bot holding a night card decides well within the step's minimum, so that
            # its step lasts exactly as long as a dead or absent card's (a fixed delay
            # longer than that would tell everyone the card is a living bot's).
            delay = min(delay, floor / 2)
        for seat in waiting:
            held = room.seats[seat]
            if held is None or held.bot is None:
                humans_waited = True
            elif self.moves.get(seat, 0) >= BOT_TRIES:
                tired += 1  # (a pack that cannot agree: people, the timer or the host)
            elif seat not in self.pending:
                self.pending.add(seat)
                room.later(delay, partial(self.move, seat, self.game))
        stalled = self.step_actions > 4 * game.n or (bool(waiting) and tired == len(waiting))
        if not humans_waited and (not waiting or stalled) and self.may_close(stalled):
            room.later(delay, partial(self.close, game.state_id, self.game))

    def may_close(self, stalled: bool) -> bool:
        """Whether the room may close a step itself: nobody is waited for and no
        person could move the day on (all living seats are bots), or the bots keep
        reopening it (a mafia of bots that cannot agree)."""
        room = self.room
        game = room.game
        assert game is not None
        if stalled:
            return True
        if self.timed():
            return False  # the step's timer closes it
        return all((held := room.seats[s]) is not None and held.bot for s in game.living)

    def timed(self) -> bool:
        """Whether the current step has a timer (the room's ``timers``: its own, or the
        night's or the day's). Only such a step is left to its timer: a room whose
        timers name other steps closes this one itself, or a table of bots would never
        leave an open-ended step (a nominations round everybody has answered)."""
        room = self.room
        game = room.game
        assert game is not None
        timers = room.settings.timers
        step = game.step
        if step is not None and step.id in timers.steps:
            return True
        return (timers.night if game.phase == "night" else timers.day) is not None

    def close(self, state: int, of_game: int) -> None:
        """Close the step still open at ``state`` (nothing if the game moved on)."""
        room = self.room
        game = room.game
        if of_game != self.game or game is None or room.status != "playing":
            return
        if game.state_id != state:
            return
        try:
            room.close_step()
        except ProtocolError as exc:
            log.warning("close_failed room=%s code=%s", room.code, exc.code)

    def move(self, seat: int, of_game: int) -> None:
        """A bot's decision, from its seat's view, through the same path as a person's."""
        if of_game != self.game:
            return  # (a move owed in the last game)
        self.pending.discard(seat)
        room = self.room
        game = room.game
        held = room.seats[seat]
        if game is None or room.status != "playing" or held is None or held.bot is None:
            return
        if room.pacer.held is not None:
            return  # (the step shown is over: it moves again when the next one is)
        if seat not in game.waiting():
            return
        view = game.view(seat)
        if not view.prompts:
            return
        bot = self.bots.get(seat)
        if bot is None:
            bot = self.bots[seat] = make_bot(held.bot, room.book)
        action = bot.act(view, self.rng)
        self.moves[seat] = self.moves.get(seat, 0) + 1
        try:
            room.submit(seat, action.verb, list(action.args), view.state_id)
        except ProtocolError as exc:
            log.warning("bot_refused room=%s seat=%d code=%s", room.code, seat, exc.code)
